//! The names later provider ABIs added to the private node, each bound from the ABI that added it
//! on (its first node the default version): the commands newer providers use for what ABI 34
//! lacks: DMA handles and `MR_REG_EX` (ABI 59), the port speed, the dma-buf export of device
//! memory and the dma-buf heap (64, mlx5), completion counters (65, efa). Each command goes through `crate::cmd` on the
//! context's command channel; none has a write() fallback but `ibv_cmd_reg_mr_ex`.
//!
//! Divergence throughout: NULL objects (or a NULL context inside one) give EINVAL where
//! rdma-core would crash.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::c_int;

use crate::abi::ctype::CEnum;
use crate::abi::driver::ibv_mr_type::{IBV_MR_TYPE_DMABUF_MR, IBV_MR_TYPE_MR};
use crate::abi::driver::verbs_dmah;
use crate::abi::driver::verbs_mr;
use crate::abi::kern_abi::ibv_command_buffer;
use crate::abi::uapi::ib_uverbs_comp_cntr_entry::{
    IB_UVERBS_COMP_CNTR_ENTRY_COMP, IB_UVERBS_COMP_CNTR_ENTRY_ERR,
};
use crate::abi::uapi::ib_uverbs_comp_cntr_modify_op::{
    IB_UVERBS_COMP_CNTR_MODIFY_OP_INC, IB_UVERBS_COMP_CNTR_MODIFY_OP_SET,
};
use crate::abi::verbs::ibv_dmah_init_attr_mask::{
    IBV_DMAH_INIT_ATTR_MASK_CPU_ID, IBV_DMAH_INIT_ATTR_MASK_PH,
    IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE,
};
use crate::abi::verbs::ibv_mr_init_attr_mask::IBV_REG_MR_MASK_DMAH;
use crate::abi::verbs::{
    ibv_comp_cntr, ibv_comp_cntr_caps, ibv_context, ibv_dmah_init_attr, ibv_mr_init_attr, ibv_pd,
    ibv_qp, ibv_qp_attach_comp_cntr_attr,
};
use crate::capi::cmd_device::{allow_disassociate, with_cmd};
use crate::cret::CRet;
use crate::errno::Errno;
use crate::verbs::cmdbuf::{chain_from_c, chain_to_c};
use crate::verbs::qpcommon::quiet;

/// `int ibv_cmd_query_port_speed(struct ibv_context *context, uint32_t port_num, uint64_t *speed)`
///
/// UVERBS_METHOD_QUERY_PORT_SPEED (ioctl only): stores the port's speed in `*speed`. 0, or the
/// positive errno (EOPNOTSUPP from a kernel without the method). Divergence: NULL `context` or
/// `speed` gives EINVAL.
#[export(PRIVATE 64..)]
fn ibv_cmd_query_port_speed(
    context: *mut ibv_context,
    port_num: u32,
    speed: *mut u64,
) -> Raw<c_int> {
    if speed.is_null() {
        return crate::errno::Errno::EINVAL.ret_errno();
    }
    // SAFETY: a NULL or live context of this library; `speed` points to a u64 (the C contract).
    unsafe {
        crate::capi::cmd_device::with_cmd(context, |c| {
            crate::cmd::device::query_port_speed(c, port_num)
        })
        .map(|v| *speed = v)
        .ret_errno()
    }
}

/// `int ibv_cmd_alloc_dmah(struct ibv_context *ctx, struct verbs_dmah *st, struct ibv_dmah_init_attr *attr)`
///
/// UVERBS_METHOD_DMAH_ALLOC (ioctl only) with the CPU id, TPH memory type and processing hint
/// that `attr->comp_mask` names: sets `st->handle` and `st->dmah.context`. 0, or the positive
/// errno (errno set too).
#[export(PRIVATE 59..)]
fn ibv_cmd_alloc_dmah(
    ctx: *mut ibv_context,
    st: *mut verbs_dmah,
    attr: *mut ibv_dmah_init_attr,
) -> Raw<c_int> {
    if ctx.is_null() || st.is_null() || attr.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's context, DMA handle and attributes per the prototype.
    unsafe {
        let a = *attr;
        let has = |b: crate::abi::verbs::ibv_dmah_init_attr_mask| a.comp_mask & b as u32 != 0;
        let init = crate::cmd::dm::DmahInit {
            cpu_id: has(IBV_DMAH_INIT_ATTR_MASK_CPU_ID).then_some(a.cpu_id),
            tph_mem_type: has(IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE).then_some(a.tph_mem_type),
            ph: has(IBV_DMAH_INIT_ATTR_MASK_PH).then_some(a.ph),
        };
        with_cmd(ctx, |c| crate::cmd::dm::alloc_dmah(c, init))
            .map(|h| {
                (*st).handle = h;
                (*st).dmah.context = ctx;
            })
            .ret_errno()
    }
}

/// `int ibv_cmd_free_dmah(struct verbs_dmah *dmah)`
///
/// UVERBS_METHOD_DMAH_FREE (ioctl only) by handle. 0, or the positive errno; EIO counts as
/// success on a disassociated device when allowed.
#[export(PRIVATE 59..)]
fn ibv_cmd_free_dmah(dmah: *mut verbs_dmah) -> Raw<c_int> {
    if dmah.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's DMA handle.
    unsafe {
        let h = (*dmah).handle;
        with_cmd((*dmah).dmah.context, |c| {
            crate::cmd::dm::free_dmah(c, h, allow_disassociate())
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_create_comp_cntr(struct ibv_context *context, struct ibv_comp_cntr *comp_cntr, struct ibv_command_buffer *link)`
///
/// UVERBS_METHOD_COMP_CNTR_CREATE (ioctl only) with the provider's `link` chain: sets
/// `comp_cntr->context` (first, as rdma-core, whatever the outcome) and, on success,
/// `comp_cntr->handle`. 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_create_comp_cntr(
    context: *mut ibv_context,
    comp_cntr: *mut ibv_comp_cntr,
    link: *mut ibv_command_buffer,
) -> Raw<c_int> {
    if context.is_null() || comp_cntr.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's context, counter and chain per the prototype.
    unsafe {
        (*comp_cntr).context = context;
        let mut links = match chain_from_c(link) {
            Ok(l) => l,
            Err(e) => return e.ret_errno(),
        };
        let r = with_cmd(context, |c| {
            crate::cmd::comp_cntr::create_comp_cntr(c, &mut links)
        });
        chain_to_c(link, &links);
        r.map(|h| (*comp_cntr).handle = h).ret_errno()
    }
}

/// `int ibv_cmd_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)`
///
/// UVERBS_METHOD_COMP_CNTR_DESTROY (ioctl only) by handle. 0, or the positive errno; EIO counts
/// as success on a disassociated device when allowed.
#[export(PRIVATE 65..)]
fn ibv_cmd_destroy_comp_cntr(comp_cntr: *mut ibv_comp_cntr) -> Raw<c_int> {
    if comp_cntr.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's counter.
    unsafe {
        let h = (*comp_cntr).handle;
        with_cmd((*comp_cntr).context, |c| {
            crate::cmd::comp_cntr::destroy_comp_cntr(c, h, allow_disassociate())
        })
        .ret_errno()
    }
}

/// UVERBS_METHOD_COMP_CNTR_MODIFY of one entry of the counter; 0, or the positive errno.
///
/// # Safety
/// `c` is NULL or the provider's counter.
unsafe fn modify(c: *mut ibv_comp_cntr, entry: u32, op: u32, value: u64) -> c_int {
    if c.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the caller's contract.
    unsafe {
        let h = (*c).handle;
        with_cmd((*c).context, |x| {
            crate::cmd::comp_cntr::modify_comp_cntr(x, h, entry as u8, op as u8, value)
        })
        .ret_errno()
    }
}

/// UVERBS_METHOD_COMP_CNTR_READ of one entry into `*value`; 0, or the positive errno.
///
/// # Safety
/// `c` is NULL or the provider's counter; `value` NULL or writable.
unsafe fn read(c: *mut ibv_comp_cntr, entry: u32, value: *mut u64) -> c_int {
    if c.is_null() || value.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the caller's contract.
    unsafe {
        let h = (*c).handle;
        with_cmd((*c).context, |x| {
            crate::cmd::comp_cntr::read_comp_cntr(x, h, entry as u8)
        })
        .map(|v| *value = v)
        .ret_errno()
    }
}

/// `int ibv_cmd_set_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// Sets the completion count (COMP_CNTR_MODIFY, entry COMP, op SET). 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_set_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: u64) -> Raw<c_int> {
    // SAFETY: the C contract.
    unsafe {
        modify(
            comp_cntr,
            IB_UVERBS_COMP_CNTR_ENTRY_COMP as u32,
            IB_UVERBS_COMP_CNTR_MODIFY_OP_SET as u32,
            value,
        )
    }
}

/// `int ibv_cmd_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// Sets the error count (entry ERR, op SET). 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_set_err_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: u64) -> Raw<c_int> {
    // SAFETY: the C contract.
    unsafe {
        modify(
            comp_cntr,
            IB_UVERBS_COMP_CNTR_ENTRY_ERR as u32,
            IB_UVERBS_COMP_CNTR_MODIFY_OP_SET as u32,
            value,
        )
    }
}

/// `int ibv_cmd_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// Adds to the completion count (entry COMP, op INC). 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_inc_comp_cntr(comp_cntr: *mut ibv_comp_cntr, amount: u64) -> Raw<c_int> {
    // SAFETY: the C contract.
    unsafe {
        modify(
            comp_cntr,
            IB_UVERBS_COMP_CNTR_ENTRY_COMP as u32,
            IB_UVERBS_COMP_CNTR_MODIFY_OP_INC as u32,
            amount,
        )
    }
}

/// `int ibv_cmd_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// Adds to the error count (entry ERR, op INC). 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_inc_err_comp_cntr(comp_cntr: *mut ibv_comp_cntr, amount: u64) -> Raw<c_int> {
    // SAFETY: the C contract.
    unsafe {
        modify(
            comp_cntr,
            IB_UVERBS_COMP_CNTR_ENTRY_ERR as u32,
            IB_UVERBS_COMP_CNTR_MODIFY_OP_INC as u32,
            amount,
        )
    }
}

/// `int ibv_cmd_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// The completion count into `*value` (COMP_CNTR_READ, entry COMP). 0, or the positive errno.
/// Divergence: a NULL `value` gives EINVAL (rdma-core lets the kernel fail with EFAULT).
#[export(PRIVATE 65..)]
fn ibv_cmd_read_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: *mut u64) -> Raw<c_int> {
    // SAFETY: the C contract.
    unsafe { read(comp_cntr, IB_UVERBS_COMP_CNTR_ENTRY_COMP as u32, value) }
}

/// `int ibv_cmd_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// The error count into `*value` (entry ERR). 0, or the positive errno. Divergence: a NULL
/// `value` gives EINVAL.
#[export(PRIVATE 65..)]
fn ibv_cmd_read_err_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: *mut u64) -> Raw<c_int> {
    // SAFETY: the C contract.
    unsafe { read(comp_cntr, IB_UVERBS_COMP_CNTR_ENTRY_ERR as u32, value) }
}

/// `int ibv_cmd_qp_attach_comp_cntr(struct ibv_qp *qp, struct ibv_comp_cntr *comp_cntr, struct ibv_qp_attach_comp_cntr_attr *attr)`
///
/// UVERBS_METHOD_QP_ATTACH_COMP_CNTR (ioctl only): count the QP's operations of
/// `attr->op_mask` (`IBV_QP_ATTACH_COMP_CNTR_OP_*`; unknown bits are not sent) on the counter.
/// 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_qp_attach_comp_cntr(
    qp: *mut ibv_qp,
    comp_cntr: *mut ibv_comp_cntr,
    attr: *mut ibv_qp_attach_comp_cntr_attr,
) -> Raw<c_int> {
    if qp.is_null() || comp_cntr.is_null() || attr.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's QP, counter and attributes.
    unsafe {
        let (qh, ch, mask) = ((*qp).handle, (*comp_cntr).handle, (*attr).op_mask);
        with_cmd((*qp).context, |c| {
            crate::cmd::comp_cntr::qp_attach_comp_cntr(c, qh, ch, mask)
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_query_comp_cntr_caps(struct ibv_context *context, struct ibv_comp_cntr_caps *caps, size_t caps_size)`
///
/// UVERBS_METHOD_QUERY_COMP_CNTR_CAPS (ioctl only) into `caps`: the maximum number of counters,
/// their maximum value and the `IBV_QP_ATTACH_COMP_CNTR_OP_*` a QP can count. 0, or the positive
/// errno; a `caps_size` below `sizeof(struct ibv_comp_cntr_caps)` is EINVAL with errno left
/// alone (as rdma-core).
#[export(PRIVATE 65..)]
fn ibv_cmd_query_comp_cntr_caps(
    context: *mut ibv_context,
    caps: *mut ibv_comp_cntr_caps,
    caps_size: usize,
) -> Raw<c_int> {
    if caps_size < size_of::<ibv_comp_cntr_caps>() {
        return quiet(Errno::EINVAL);
    }
    if caps.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: a NULL or live context; `caps` holds at least a whole ibv_comp_cntr_caps.
    unsafe {
        with_cmd(context, crate::cmd::comp_cntr::query_comp_cntr_caps)
            .map(|r| {
                (*caps).max_counters = r.max_counters;
                (*caps).max_value = r.max_value;
                (*caps).supported_qp_attach_ops = r.supported_qp_attach_ops;
            })
            .ret_errno()
    }
}

/// `int ibv_cmd_export_dmabuf_fd(struct ibv_context *ctx, off_t pg_off)`
///
/// UVERBS_METHOD_DMABUF_ALLOC (ioctl only): a new dma-buf fd for the device memory mapped at
/// page offset `pg_off` of the command fd. The fd, or -1 with errno.
#[export(PRIVATE 64..)]
fn ibv_cmd_export_dmabuf_fd(ctx: *mut ibv_context, pg_off: libc::off_t) -> Raw<c_int> {
    // SAFETY: a NULL or live context.
    unsafe { with_cmd(ctx, |c| crate::cmd::dm::export_dmabuf_fd(c, pg_off as u64)).ret_minus_one() }
}

/// `int ibv_cmd_reg_mr_ex(struct ibv_pd *pd, struct verbs_mr *vmr, struct ibv_mr_init_attr *mr_init_attr)`
///
/// UVERBS_METHOD_REG_MR (see `crate::cmd::pd::reg_mr_ex` for which `comp_mask` combinations are
/// accepted): on success sets the MR's handle, context, lkey and rkey, `vmr->mr_type`
/// (`IBV_MR_TYPE_DMABUF_MR` for a dma-buf, else `IBV_MR_TYPE_MR`) and `vmr->access`. A kernel
/// without the method gets the legacy REG_MR write for an address-based request (EOPNOTSUPP for a
/// dma-buf or DMA handle one). 0, or the positive errno (errno set too). Divergence: DMAH with a
/// NULL `dmah` gives EINVAL.
#[export(PRIVATE 59..)]
fn ibv_cmd_reg_mr_ex(
    pd: *mut ibv_pd,
    vmr: *mut verbs_mr,
    mr_init_attr: *mut ibv_mr_init_attr,
) -> Raw<c_int> {
    if pd.is_null() || vmr.is_null() || mr_init_attr.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's PD, MR and attributes; a DMA handle of this library's providers is
    // the `dmah` of a `verbs_dmah`.
    unsafe {
        let a = &*mr_init_attr;
        let dmah = if a.comp_mask & IBV_REG_MR_MASK_DMAH as u64 != 0 {
            if a.dmah.is_null() {
                return Errno::EINVAL.ret_errno();
            }
            (*a.dmah.cast::<verbs_dmah>()).handle
        } else {
            0
        };
        let req = crate::cmd::pd::RegMrEx {
            comp_mask: a.comp_mask,
            length: a.length,
            access: a.access,
            iova: a.iova,
            addr: a.addr as usize as u64,
            fd: a.fd,
            fd_offset: a.fd_offset,
            dmah,
        };
        let (ctx, pdh) = ((*pd).context, (*pd).handle);
        with_cmd(ctx, |c| crate::cmd::pd::reg_mr_ex(c, pdh, &req))
            .map(|(k, dmabuf)| {
                let m = &mut (*vmr).ibv_mr;
                m.handle = k.handle;
                m.context = ctx;
                m.lkey = k.lkey;
                m.rkey = k.rkey;
                (*vmr).mr_type = CEnum::new(if dmabuf {
                    IBV_MR_TYPE_DMABUF_MR
                } else {
                    IBV_MR_TYPE_MR
                } as u32);
                (*vmr).access = a.access;
            })
            .ret_errno()
    }
}
