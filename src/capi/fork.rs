//! Fork protection of registered memory (rdma-core: memory.c).
//!
//! Every function here is a stub, listed in `stubs.txt`: its doc names the C prototype and the
//! return convention the stub follows. The parameters keep their C names and stay unused until the
//! behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::{c_int, c_void};

use super::ret::ret_or;
use crate::abi::verbs::ibv_fork_status;
use crate::errno::{CRet, unimplemented};

/// `int ibv_fork_init(void)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
#[unsafe(no_mangle)]
pub extern "C" fn ibv_fork_init() -> c_int {
    Err::<(), _>(unimplemented("ibv_fork_init")).ret_errno()
}

/// `enum ibv_fork_status ibv_is_fork_initialized(void)`
///
/// Stub: returns IBV_FORK_DISABLED, with errno EOPNOTSUPP.
///
/// No error channel: IBV_FORK_DISABLED is what rdma-core reports before `ibv_fork_init` succeeded.
#[unsafe(no_mangle)]
pub extern "C" fn ibv_is_fork_initialized() -> u32 {
    ret_or(Err(unimplemented("ibv_is_fork_initialized")), ibv_fork_status::IBV_FORK_DISABLED as u32)
}

/// `int ibv_dontfork_range(void *base, size_t size)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
///
/// rdma-core: 0, or nonzero (-1) with errno set.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_dontfork_range(base: *mut c_void, size: usize) -> c_int {
    Err(unimplemented("ibv_dontfork_range")).ret_minus_one()
}

/// `int ibv_dofork_range(void *base, size_t size)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
///
/// rdma-core: 0, or nonzero (-1) with errno set.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_dofork_range(base: *mut c_void, size: usize) -> c_int {
    Err(unimplemented("ibv_dofork_range")).ret_minus_one()
}
