//! Provider command layer: multicast and AH commands (rdma-core: cmd_ah.c, cmd.c).
//!
//! Each returns 0 or the positive errno (also left in `errno`). Divergence throughout: a NULL
//! object or argument, or a NULL `context` inside an object, gives EINVAL where rdma-core would
//! crash.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::c_int;

use super::cmd_device::{allow_disassociate, with_cmd};
use crate::abi::uapi::ib_uverbs_create_ah_resp;
use crate::abi::verbs::{ibv_ah, ibv_ah_attr, ibv_gid, ibv_pd, ibv_qp};
use crate::cret::CRet;
use crate::errno::Errno;

/// `int ibv_cmd_attach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// ATTACH_MCAST (write command): joins `qp` (a UD QP) to multicast group `gid`/`lid`.
#[export(PRIVATE 34..)]
fn ibv_cmd_attach_mcast(qp: *mut ibv_qp, gid: *const ibv_gid, lid: u16) -> Raw<c_int> {
    if qp.is_null() || gid.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's QP and the caller's GID.
    unsafe {
        let (h, g) = ((*qp).handle, &*gid);
        with_cmd((*qp).context, |c| {
            crate::cmd::pd::attach_mcast(c, h, g, lid)
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_detach_mcast(struct ibv_qp *qp, const union ibv_gid *gid, uint16_t lid)`
///
/// DETACH_MCAST (write command): `qp` leaves multicast group `gid`/`lid`. EIO counts as success
/// on a disassociated device when allowed.
#[export(PRIVATE 34..)]
fn ibv_cmd_detach_mcast(qp: *mut ibv_qp, gid: *const ibv_gid, lid: u16) -> Raw<c_int> {
    if qp.is_null() || gid.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's QP and the caller's GID.
    unsafe {
        let (h, g) = ((*qp).handle, &*gid);
        with_cmd((*qp).context, |c| {
            crate::cmd::pd::detach_mcast(c, h, g, lid, allow_disassociate())
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah, struct ibv_ah_attr *attr, struct ib_uverbs_create_ah_resp *resp, size_t resp_size)`
///
/// CREATE_AH (write command; the core request is built here, `ah`'s address as its user
/// handle) with the provider's response buffer. On success sets `ah->handle` and
/// `ah->context` (the public verb sets `pd`). Divergence: a NULL `resp`, or `resp_size` below
/// the core response, gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_ah(
    pd: *mut ibv_pd,
    ah: *mut ibv_ah,
    attr: *mut ibv_ah_attr,
    resp: *mut ib_uverbs_create_ah_resp,
    resp_size: usize,
) -> Raw<c_int> {
    if pd.is_null()
        || ah.is_null()
        || attr.is_null()
        || resp.is_null()
        || resp_size < size_of::<ib_uverbs_create_ah_resp>()
    {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's PD, AH and response buffer (resp_size bytes); the caller's attributes.
    unsafe {
        let (ctx, pdh, a) = ((*pd).context, (*pd).handle, &*attr);
        let rsp = super::cmd_device::provider_buf(resp, resp_size);
        let user_handle = ah as usize as u64;
        with_cmd(ctx, |c| {
            crate::cmd::pd::create_ah(c, pdh, user_handle, a, rsp)
        })
        .map(|h| {
            (*ah).handle = h;
            (*ah).context = ctx;
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_destroy_ah(struct ibv_ah *ah)`
///
/// Destroys the AH by handle (AH_DESTROY ioctl, else the DESTROY_AH write command). 0, or the
/// positive errno; EIO counts as success on a disassociated device when allowed.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_ah(ah: *mut ibv_ah) -> Raw<c_int> {
    if ah.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's AH.
    unsafe {
        let h = (*ah).handle;
        with_cmd((*ah).context, |c| {
            crate::cmd::pd::destroy_ah(c, h, allow_disassociate())
        })
        .ret_errno()
    }
}
