//! The only `#[no_mangle]` exports of the library, one file per object family.
//!
//! Every export takes the C contract at face value after rejecting what rdma-core would crash on
//! (NULL where an object is required: EINVAL, marked `// Divergence:`), and returns through one of
//! the conventions of [`crate::cret::CRet`].
//!
//! Each export is one declaration (`export`: the `#[export]` attribute and the conversion of its
//! parameters): its C prototype, every symbol version it is, its return convention and its body.
//! The version script is written from the declarations (`tools/symbols-map`).

pub mod ah;
pub mod compat_1_0;
pub mod context;
pub mod counters;
pub mod cq;
pub mod device;
pub mod dm;
pub mod driver;
pub mod events;
pub mod export;
pub mod flow;
pub mod fork;
pub mod log;
pub mod marshall;
pub mod mcast;
pub mod mr;
pub mod pabi;
pub mod pd;
pub mod qp;
pub mod ret;
pub mod srq;
pub mod strings;
pub mod sysfs;
pub mod wq;

/// The ENOMEM hints of `ibv_reg_mr` and `ibv_create_cq` (`crate::verbs::explain`), end to end.
#[cfg(test)]
mod explain_tests;
