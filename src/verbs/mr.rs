//! The library's half of an MR the kernel registered (rdma-core: cmd_mr.c, what each
//! `ibv_cmd_reg_*`/`ibv_cmd_query_mr` stores into the provider's `verbs_mr` on success).
//!
//! One store for every registration form: the kernel's handle and keys, the owning context,
//! and the fields each form sets (PD, range, access), then the MR type. Called by the
//! `ibv_cmd_*` MR exports of `capi::cmd_mr`.
use core::ffi::{c_int, c_void};

use crate::abi::ctype::CEnum;
use crate::abi::driver::verbs_mr;
use crate::abi::verbs::{ibv_context, ibv_pd};
use crate::cmd::pd::MrKeys;

/// What a successful registration stores into a `verbs_mr`.
pub(crate) struct MrStore {
    /// The kernel's handle and keys.
    pub keys: MrKeys,
    pub context: *mut ibv_context,
    /// The PD, where the command form sets it (the public verb sets it for the others).
    pub pd: Option<*mut ibv_pd>,
    /// `addr` and `length`, where the command form sets them.
    pub range: Option<(*mut c_void, usize)>,
    /// `vmr->access`, where the command form sets it.
    pub access: Option<c_int>,
    /// An `ibv_mr_type` value.
    pub mr_type: u32,
}

/// Store `s` into `vmr`.
///
/// # Safety
/// `vmr` points to the provider's writable `verbs_mr`, not in use by another thread.
pub(crate) unsafe fn store(vmr: *mut verbs_mr, s: MrStore) {
    // SAFETY: the caller's contract: a writable verbs_mr nobody else uses during the call.
    let v = unsafe { &mut *vmr };
    let m = &mut v.ibv_mr;
    m.handle = s.keys.handle;
    m.lkey = s.keys.lkey;
    m.rkey = s.keys.rkey;
    m.context = s.context;
    if let Some(pd) = s.pd {
        m.pd = pd;
    }
    if let Some((addr, length)) = s.range {
        m.addr = addr;
        m.length = length;
    }
    if let Some(access) = s.access {
        v.access = access;
    }
    v.mr_type = CEnum::new(s.mr_type);
}
