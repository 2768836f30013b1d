//! Device memory and DMA handles (rdma-core: verbs.c).
//!
//! `ibv_import_dm`/`ibv_unimport_dm` hand the call to the context's op. The others have an op
//! only at provider ABI 65: an ABI-65 provider's (mlx5's) is called as is; without one (every
//! ABI-34 provider) they answer as rdma-core's defaults do: EOPNOTSUPP. Divergence throughout:
//! a NULL object, or a NULL `context` inside one, gives EINVAL (or is ignored where there is no
//! return value) where rdma-core would crash.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::c_int;

use crate::abi::verbs::{ibv_context, ibv_dm, ibv_dmah, ibv_dmah_init_attr};
use crate::cret::CRet;
use crate::cret::quiet;
use crate::errno::Errno;
use crate::verbs::ctxpriv::ops_of;

/// `struct ibv_dm *ibv_import_dm(struct ibv_context *context, uint32_t dm_handle)`
///
/// The device memory with `dm_handle` of another process sharing the command fd, from the
/// provider's `import_dm`. NULL with errno on failure (EOPNOTSUPP when the provider cannot
/// import).
#[export("IBVERBS_1.13")]
fn ibv_import_dm(context: *mut ibv_context, dm_handle: u32) -> Raw<*mut ibv_dm> {
    if context.is_null() {
        return Err(Errno::EINVAL).ret_null();
    }
    // SAFETY: an open context of this library.
    unsafe {
        match ops_of(context).import_dm {
            Some(op) => op(context, dm_handle),
            None => Err(Errno::EOPNOTSUPP).ret_null(),
        }
    }
}

/// `void ibv_unimport_dm(struct ibv_dm *dm)`
///
/// Forgets imported device memory (the provider's `unimport_dm`) without freeing the kernel
/// object.
#[export("IBVERBS_1.13")]
fn ibv_unimport_dm(dm: *mut ibv_dm) -> Raw<()> {
    // SAFETY: the caller's DM (checked for NULL, as its context); an open context of ours.
    unsafe {
        if dm.is_null() || (*dm).context.is_null() {
            return;
        }
        if let Some(op) = ops_of((*dm).context).unimport_dm {
            op(dm);
        }
    }
}

/// `int ibv_dm_export_dmabuf_fd(struct ibv_dm *dm)`
///
/// A dma-buf fd for device memory: the provider's `dm_export_dmabuf_fd` (ABI 65), else -1 with
/// errno EOPNOTSUPP, as rdma-core's default. Divergence: a NULL `dm` gives -1 with EINVAL.
#[export("IBVERBS_1.16")]
fn ibv_dm_export_dmabuf_fd(dm: *mut ibv_dm) -> Raw<c_int> {
    // SAFETY: the caller's DM, or NULL.
    let Some(d) = (unsafe { dm.as_ref() }).filter(|d| !d.context.is_null()) else {
        return Err(Errno::EINVAL).ret_minus_one();
    };
    // SAFETY: the DM's open context; the provider's op takes what the caller gave.
    unsafe {
        match ops_of(d.context).dm_export_dmabuf_fd {
            Some(f) => f(dm),
            None => Err(Errno::EOPNOTSUPP).ret_minus_one(),
        }
    }
}

/// `struct ibv_dmah *ibv_alloc_dmah(struct ibv_context *context, struct ibv_dmah_init_attr *attr)`
///
/// A DMA handle (TPH steering hints): the provider's `alloc_dmah` (ABI 65), else NULL with
/// errno EOPNOTSUPP, as rdma-core's default. Divergence: a NULL `context` gives EINVAL.
#[export("IBVERBS_1.15")]
fn ibv_alloc_dmah(context: *mut ibv_context, attr: *mut ibv_dmah_init_attr) -> Raw<*mut ibv_dmah> {
    if context.is_null() {
        return Err(Errno::EINVAL).ret_null();
    }
    // SAFETY: an open context of this library; the provider's op takes what the caller gave.
    unsafe {
        match ops_of(context).alloc_dmah {
            Some(f) => f(context, attr),
            None => Err(Errno::EOPNOTSUPP).ret_null(),
        }
    }
}

/// `int ibv_dealloc_dmah(struct ibv_dmah *dmah)`
///
/// The provider's `dealloc_dmah` (ABI 65), else EOPNOTSUPP (positive, errno untouched), as
/// rdma-core's default. Divergence: a NULL `dmah` gives EINVAL (errno set).
#[export("IBVERBS_1.15")]
fn ibv_dealloc_dmah(dmah: *mut ibv_dmah) -> Raw<c_int> {
    // SAFETY: the caller's handle, or NULL.
    let Some(d) = (unsafe { dmah.as_ref() }).filter(|d| !d.context.is_null()) else {
        return Errno::EINVAL.ret_errno();
    };
    // SAFETY: the handle's open context; the provider's op takes what the caller gave.
    unsafe {
        match ops_of(d.context).dealloc_dmah {
            Some(f) => f(dmah),
            None => quiet(Errno::EOPNOTSUPP),
        }
    }
}
