//! Fork protection of registered memory (rdma-core: memory.c); the logic is in `crate::fork`.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::{c_int, c_void};

use crate::abi::ctype::CEnum;
use crate::abi::verbs::ibv_fork_status;
use crate::cret::CRet;
use crate::cret::quiet;
use crate::fork::{ForkAdvice, fork_init, fork_range, fork_status};

/// `int ibv_fork_init(void)`
///
/// 0, or a positive errno (EINVAL when a range call came first,
/// ENOMEM, ENOSYS when the kernel lacks MADV_DONTFORK).
#[export("IBVERBS_1.1")]
fn ibv_fork_init() -> Raw<c_int> {
    match fork_init() {
        Ok(()) => 0,
        Err(e) => quiet(e),
    }
}

/// `enum ibv_fork_status ibv_is_fork_initialized(void)`
///
/// UNNEEDED when the kernel copies pinned
/// pages on fork, else ENABLED after a successful `ibv_fork_init`, else DISABLED.
#[export("IBVERBS_1.13")]
fn ibv_is_fork_initialized() -> Raw<CEnum<ibv_fork_status>> {
    CEnum::new(fork_status())
}

/// `int ibv_dontfork_range(void *base, size_t size)`
///
/// 0, or -1 with errno from madvise.
/// The memory is only named, never touched.
#[export("IBVERBS_1.1")]
fn ibv_dontfork_range(base: *mut c_void, size: usize) -> Raw<c_int> {
    fork_range(base as usize, size, ForkAdvice::DontFork)
        .map(|()| 0)
        .ret_minus_one()
}

/// `int ibv_dofork_range(void *base, size_t size)`
///
/// 0, or -1 with errno (rdma-core never fails
/// here once fork protection is on: a failed MADV_DOFORK is retried per page and ignored).
#[export("IBVERBS_1.1")]
fn ibv_dofork_range(base: *mut c_void, size: usize) -> Raw<c_int> {
    fork_range(base as usize, size, ForkAdvice::DoFork)
        .map(|()| 0)
        .ret_minus_one()
}
