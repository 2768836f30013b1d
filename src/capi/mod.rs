//! The only `#[no_mangle]` exports of the library, one file per object family.
//!
//! Every export takes the C contract at face value after rejecting what rdma-core would crash on
//! (NULL where an object is required: EINVAL, marked `// Divergence:`), and returns through one of
//! the conventions of [`crate::cret::CRet`].
//!
//! Symbol versions: a name exported once takes its version from `symbols.map`. A name exported
//! twice (`ibv_get_device_list@IBVERBS_1.0` and `@@IBVERBS_1.1`) and the lone non-default
//! `ibv_register_driver@IBVERBS_1.1` are bound with [`symver!`]: an assembly trampoline carrying a
//! `.symver` directive jumps to an ordinary Rust function, so no build setting can separate the
//! directive from its symbol.

/// Export `$f` as `$name@$ver` (non-default) or `$name@@$ver` (default) through a trampoline.
///
/// `$name` must be listed in the node `$ver` of `symbols.map`; the trampoline's own label is made
/// local by the map's `local: *`.
macro_rules! symver {
    ($name:ident, $tag:ident, $ver:literal, $f:path) => {
        core::arch::global_asm!(
            concat!(
                ".globl __symver_", stringify!($tag), "_", stringify!($name), "\n",
                ".type __symver_", stringify!($tag), "_", stringify!($name), ",@function\n",
                "__symver_", stringify!($tag), "_", stringify!($name), ":\n",
                "    jmp {f}\n",
                ".size __symver_", stringify!($tag), "_", stringify!($name), ", .-__symver_",
                stringify!($tag), "_", stringify!($name), "\n",
                ".symver __symver_", stringify!($tag), "_", stringify!($name), ", ",
                stringify!($name), $ver, "\n"
            ),
            f = sym $f
        );
    };
}
pub(crate) use symver;

pub mod ah;
pub mod cmd_ah;
pub mod cmd_cq;
pub mod cmd_device;
pub mod cmd_flow;
pub mod cmd_mr;
pub mod cmd_post;
pub mod cmd_qp;
pub mod cmd_srq_wq;
pub mod compat_1_0;
pub mod context;
pub mod counters;
pub mod cq;
pub mod device;
pub mod dm;
pub mod driver;
pub mod events;
pub mod fork;
pub mod log;
pub mod marshall;
pub mod mcast;
pub mod mr;
pub mod pabi65;
pub mod pd;
pub mod qp;
pub mod ret;
pub mod srq;
pub mod strings;
pub mod sysfs;
