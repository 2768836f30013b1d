//! Fork protection of registered memory (rdma-core: memory.c), each a declaration over
//! [`crate::fork`], which holds the logic.
use core::ffi::{c_int, c_void};

use crate::abi::ctype::CEnum;
use crate::abi::verbs::ibv_fork_status;
use crate::capi::export::export;
use crate::cret::CRet;
use crate::fork::{ForkAdvice, fork_init, fork_range_tracked, fork_status, range_untracked};

/// `int ibv_fork_init(void)`
///
/// The C form of [`crate::fork::fork_init`]: 0, or the positive errno, errno untouched.
#[export("IBVERBS_1.1")]
fn ibv_fork_init() -> Quiet {
    fork_init()
}

/// `enum ibv_fork_status ibv_is_fork_initialized(void)`
///
/// The C form of [`crate::fork::fork_status`]: a plain value, no failure.
#[export("IBVERBS_1.13")]
fn ibv_is_fork_initialized() -> Raw<CEnum<ibv_fork_status>> {
    CEnum::new(fork_status())
}

/// `int ibv_dontfork_range(void *base, size_t size)`
///
/// 0, or -1 with errno from madvise. The memory is only named, never touched.
#[export("IBVERBS_1.1")]
fn ibv_dontfork_range(base: *mut c_void, size: usize) -> Raw<c_int> {
    if range_untracked() {
        return 0;
    }
    tracked(base, size, ForkAdvice::DontFork)
}

/// `int ibv_dofork_range(void *base, size_t size)`
///
/// 0, or -1 with errno (rdma-core never fails here once fork protection is on: a failed
/// MADV_DOFORK is retried per page and ignored).
#[export("IBVERBS_1.1")]
fn ibv_dofork_range(base: *mut c_void, size: usize) -> Raw<c_int> {
    if range_untracked() {
        return 0;
    }
    tracked(base, size, ForkAdvice::DoFork)
}

/// The two range exports once fork protection is on: `MinusOne`'s convention applied here, out
/// of line, so that the exports' common case (`range_untracked` alone) needs no stack frame and
/// the tracked case is a tail call (bench rows "dontfork/dofork_range": 10 instructions, not 13
/// with the convention in the export).
#[inline(never)]
fn tracked(base: *mut c_void, size: usize, advice: ForkAdvice) -> c_int {
    fork_range_tracked(base as usize, size, advice)
        .map(|()| 0)
        .ret_minus_one()
}
