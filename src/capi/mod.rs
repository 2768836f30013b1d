//! The only `#[no_mangle]` exports of the library, one file per object family.
//!
//! Every export takes the C contract at face value after rejecting what rdma-core would crash on
//! (NULL where an object is required: EINVAL, marked `// Divergence:`), and returns through one of
//! the conventions of [`crate::cret::CRet`].
//!
//! Symbol versions: a name exported once takes its version from `symbols.map`. A name exported
//! twice (`ibv_get_device_list@IBVERBS_1.0` and `@@IBVERBS_1.1`) and the lone non-default
//! `ibv_register_driver@IBVERBS_1.1` are bound in one of two ways:
//! - the default (`@@IBVERBS_1.1`) half of each public verb, an export `__<name>_1_1`, by
//!   [`symver_direct!`]: a `.symver` directive on the function's own symbol, so a call costs no
//!   extra jump;
//! - the IBVERBS_1.0 twins, `ibv_register_driver` and the ABI-65 private twins (whose functions
//!   are not exports of their own, or live in another module) by [`symver!`]: an assembly
//!   trampoline carrying the `.symver` directive jumps to an ordinary Rust function.

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

/// Export `$f`, a function of the module that invokes this, also as `$name$ver` with no
/// trampoline: a `.symver` directive on `$f`'s own symbol, so callers of `$name` land in `$f`
/// itself (one `jmp` less per call than [`symver!`]). The directive must be assembled in the same
/// object as `$f`; rustc places a module's `global_asm!` in its module's codegen unit, and if a
/// build ever separated them the assembler would refuse the directive (an undefined symbol cannot
/// take a default version), so the build fails instead of exporting the wrong thing.
/// `$f`'s own (`export_name`) symbol is made local by the map's `local: *`.
///
/// The crate's unit-test build (`cfg(test)`) partitions code differently and does separate them
/// for some modules, so there the binding is a [`symver!`] trampoline: the tests call the Rust
/// functions, and the library's symbol table is checked by abi-tests on the release build.
macro_rules! symver_direct {
    ($name:ident, $ver:literal, $f:path) => {
        #[cfg(not(test))]
        core::arch::global_asm!(
            concat!(".symver {f}, ", stringify!($name), $ver, "\n"),
            f = sym $f
        );
        #[cfg(test)]
        $crate::capi::symver!($name, t, $ver, $f);
    };
}
pub(crate) use symver_direct;

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

/// The ENOMEM hints of `ibv_reg_mr` and `ibv_create_cq` (`crate::verbs::explain`), end to end.
#[cfg(test)]
mod explain_tests;
