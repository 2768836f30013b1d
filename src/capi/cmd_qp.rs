//! Provider command layer: QP commands (rdma-core: cmd_qp.c, cmd.c); posting is in `cmd_post`.
//!
//! Each export checks its pointers, finds the object's context and command channel, and calls
//! the `*_with` function of the same name, which takes the channel explicitly: that is where
//! the behaviour lives (and what the tests drive through a fake kernel). The command bytes are
//! built by [`crate::cmd::qp`]; here the C objects are read and the
//! results stored back into the provider's structs as rdma-core does.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc, clippy::too_many_arguments)]

use crate::capi::export::export;
use crate::verbs::ctxpriv::Context;
use core::ffi::c_int;
use core::mem::offset_of;
use core::ptr::null_mut;

use crate::abi::ctype::CEnum;
use crate::abi::driver::verbs_qp_mask::VERBS_QP_XRCD;
use crate::abi::driver::{verbs_qp, verbs_xrcd};
use crate::abi::kern_abi::{
    ibv_create_qp, ibv_create_qp_ex, ibv_modify_qp, ibv_modify_qp_ex, ibv_open_qp, ibv_query_qp,
};
use crate::abi::uapi::{
    ib_uverbs_create_qp_resp, ib_uverbs_ex_create_qp_resp, ib_uverbs_ex_modify_qp_resp,
};
use crate::abi::verbs::ibv_qp_attr_mask::IBV_QP_RATE_LIMIT;
use crate::abi::verbs::ibv_qp_create_flags::IBV_QP_CREATE_SOURCE_QPN;
use crate::abi::verbs::ibv_qp_init_attr_mask::*;
use crate::abi::verbs::ibv_qp_open_attr_mask::*;
use crate::abi::verbs::ibv_qp_state::{IBV_QPS_RESET, IBV_QPS_UNKNOWN};
use crate::abi::verbs::{
    ibv_context, ibv_pd, ibv_qp, ibv_qp_attr, ibv_qp_init_attr, ibv_qp_init_attr_ex,
    ibv_qp_open_attr,
};
use crate::cmd::Ctx;
use crate::cmd::qp::{QpCreated, QpInit};
use crate::cret::CRet;
use crate::errno::{Errno, Result};
use crate::verbs::qpcommon::{allow_disassociate, destroy_and_wait, init_lock, quiet};

use super::cmd_device::provider_buf as buf;

/// Where a provider's `verbs_qp` keeps `comp_mask` and `xrcd`. Within provider ABI 34 the
/// struct grew: rdma-core v45 appended `wr_flush` to the `ibv_qp_ex` it starts with, so
/// providers built from v44 headers (Debian 12) keep `comp_mask` at 352, those built from v45-v56
/// headers (Debian 13) at 360, where a v44 provider keeps `xrcd`. A provider says which only
/// where it passes its struct's size (`ibv_cmd_open_qp`); elsewhere the v44 layout of
/// [`verbs_qp`] is assumed.
#[derive(Clone, Copy)]
struct VqpLayout {
    comp_mask: usize,
    xrcd: usize,
}

/// The v44 layout (this crate's [`verbs_qp`]).
const VQP_V44: VqpLayout = VqpLayout {
    comp_mask: offset_of!(verbs_qp, comp_mask),
    xrcd: offset_of!(verbs_qp, xrcd),
};
/// The v45-v56 layout: everything after `ibv_qp_ex` moved by its new last member.
const VQP_V56: VqpLayout = VqpLayout {
    comp_mask: VQP_V44.comp_mask + 8,
    xrcd: VQP_V44.xrcd + 8,
};
/// `sizeof(struct verbs_qp)` in the v45-v56 layout.
const VQP_V56_SIZE: usize = size_of::<verbs_qp>() + 8;

impl VqpLayout {
    /// The layout of a provider struct of `size` bytes.
    fn of_size(size: usize) -> Self {
        if size >= VQP_V56_SIZE {
            VQP_V56
        } else {
            VQP_V44
        }
    }

    /// `vqp->comp_mask = mask` and, when given, `vqp->xrcd = xrcd`, each only if inside `size`.
    ///
    /// # Safety
    /// `vqp` points to `size` writable bytes.
    unsafe fn store(
        self,
        vqp: *mut verbs_qp,
        size: usize,
        mask: u32,
        xrcd: Option<*mut verbs_xrcd>,
    ) {
        let base = vqp.cast::<u8>();
        // SAFETY: the caller's contract; each write is checked against `size` (both fields are
        // naturally aligned in either layout, as `vqp` is).
        unsafe {
            if self.comp_mask + 4 <= size {
                base.add(self.comp_mask).cast::<u32>().write(mask);
            }
            if let Some(x) = xrcd {
                if self.xrcd + 8 <= size {
                    base.add(self.xrcd).cast::<*mut verbs_xrcd>().write(x);
                }
            }
        }
    }
}

/// rdma-core's `set_qp`: the core fields of a created QP, and for a `verbs_qp` with an XRCD its
/// `comp_mask` and `xrcd`.
///
/// Divergence: rdma-core also clears `comp_mask` of every other `verbs_qp`. Providers allocate
/// their QPs zeroed, and in a v45-v56 provider's struct (see [`VqpLayout`]) that word is the low
/// half of the `wr_flush` pointer it may already have set, so it is left alone here.
///
/// # Safety
/// `qp` is the provider's QP (inside `vqp` when that is not NULL); `a` a live attribute struct
/// whose fields are read only as rdma-core reads them.
unsafe fn set_qp(vqp: *mut verbs_qp, qp: *mut ibv_qp, a: *const ibv_qp_init_attr_ex) {
    // SAFETY: the caller's contract.
    unsafe {
        (*qp).qp_context = (*a).qp_context;
        (*qp).pd = (*a).pd;
        (*qp).send_cq = (*a).send_cq;
        (*qp).recv_cq = (*a).recv_cq;
        (*qp).srq = (*a).srq;
        (*qp).qp_type = (*a).qp_type;
        (*qp).state = CEnum::new(IBV_QPS_RESET as u32);
        (*qp).events_completed = 0;
        init_lock(&raw mut (*qp).mutex, &raw mut (*qp).cond);
        if !vqp.is_null() && (*a).comp_mask & IBV_QP_INIT_ATTR_XRCD as u32 != 0 {
            let xrcd = (*a).xrcd.cast::<verbs_xrcd>();
            VQP_V44.store(vqp, size_of::<verbs_qp>(), VERBS_QP_XRCD as u32, Some(xrcd));
        }
    }
}

/// The command layer's view of `a`: objects as handles, each field read only where rdma-core
/// reads it (an application's `ibv_qp_init_attr_ex` may predate the later fields). The context's
/// part (`async_fd`, `imported`) is left for [`icmd_create_qp`] to fill once the checks passed.
///
/// # Safety
/// `a` and the objects it names are live.
unsafe fn qp_init(qp: *mut ibv_qp, a: *const ibv_qp_init_attr_ex) -> QpInit {
    // SAFETY: the caller's contract.
    unsafe {
        let m = (*a).comp_mask;
        let has = |bit: crate::abi::verbs::ibv_qp_init_attr_mask| m & bit as u32 != 0;
        let handle = |p: *mut crate::abi::verbs::ibv_cq| (!p.is_null()).then(|| (*p).handle);
        let create_flags = if has(IBV_QP_INIT_ATTR_CREATE_FLAGS) {
            (*a).create_flags
        } else {
            0
        };
        QpInit {
            qp_type: (*a).qp_type.raw(),
            comp_mask: m,
            pd_handle: (has(IBV_QP_INIT_ATTR_PD) && !(*a).pd.is_null()).then(|| (*(*a).pd).handle),
            xrcd_handle: (has(IBV_QP_INIT_ATTR_XRCD) && !(*a).xrcd.is_null())
                .then(|| (*(*a).xrcd.cast::<verbs_xrcd>()).handle),
            send_cq_handle: handle((*a).send_cq),
            recv_cq_handle: handle((*a).recv_cq),
            srq_handle: (!(*a).srq.is_null()).then(|| (*(*a).srq).handle),
            ind_tbl_handle: (has(IBV_QP_INIT_ATTR_IND_TABLE) && !(*a).rwq_ind_tbl.is_null())
                .then(|| (*(*a).rwq_ind_tbl).ind_tbl_handle as u32),
            cap: (*a).cap.into(),
            sq_sig_all: (*a).sq_sig_all,
            create_flags,
            source_qpn: if create_flags & IBV_QP_CREATE_SOURCE_QPN as u32 != 0 {
                (*a).source_qpn
            } else {
                0
            },
            user_handle: qp as u64,
            async_fd: -1,
            imported: false,
        }
    }
}

/// What rdma-core checks before a create-QP entry point touches the context: the entry's
/// comp_mask (`allowed`; EINVAL, `qp` untouched), then, once `qp->context` is set, the objects the
/// QP type needs. Returns the attributes read for that ([`qp_init`]), for the command to send.
///
/// # Safety
/// As for [`qp_init`]; `qp` is the provider's QP. `ctx` is only stored.
#[inline(always)]
unsafe fn check_create(
    ctx: *mut ibv_context,
    qp: *mut ibv_qp,
    a: *const ibv_qp_init_attr_ex,
    allowed: u32,
) -> Result<QpInit> {
    // SAFETY: the caller's contract.
    unsafe {
        if (*a).comp_mask & !allowed != 0 {
            return Err(Errno::EINVAL);
        }
        (*qp).context = ctx;
        let init = qp_init(qp, a);
        crate::cmd::qp::check_create(&init, allowed)?;
        Ok(init)
    }
}

/// rdma-core's `ibv_icmd_create_qp` around one of the command layer's entry points: the
/// context first, then the command, then on success the handle, number, capabilities and
/// `set_qp`.
///
/// # Safety
/// As for [`qp_init`] and [`set_qp`]; `ctx` is the QP's live context.
unsafe fn icmd_create_qp(
    ctx: *mut ibv_context,
    imported: bool,
    vqp: *mut verbs_qp,
    qp: *mut ibv_qp,
    a: *mut ibv_qp_init_attr_ex,
    run: impl FnOnce(&QpInit) -> Result<QpCreated>,
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        (*qp).context = ctx;
        let mut init = qp_init(qp, a);
        icmd_create_qp_init(ctx, imported, vqp, qp, a, &mut init, run)
    }
}

/// [`icmd_create_qp`] with `a` already read into `init` ([`check_create`]; `qp->context` set).
///
/// # Safety
/// As for [`icmd_create_qp`]; `init` is `qp_init(qp, a)`.
#[inline(always)]
unsafe fn icmd_create_qp_init(
    ctx: *mut ibv_context,
    imported: bool,
    vqp: *mut verbs_qp,
    qp: *mut ibv_qp,
    a: *mut ibv_qp_init_attr_ex,
    init: &mut QpInit,
    run: impl FnOnce(&QpInit) -> Result<QpCreated>,
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        init.async_fd = (*ctx).async_fd;
        init.imported = imported;
        let r = run(init).map(|q| {
            (*qp).handle = q.handle;
            (*qp).qp_num = q.qp_num;
            (*a).cap = q.cap.into();
            set_qp(vqp, qp, a);
        });
        r.ret_errno()
    }
}

/// `int ibv_cmd_create_qp(struct ibv_pd *pd, struct ibv_qp *qp, struct ibv_qp_init_attr *attr, struct ibv_create_qp *cmd, size_t cmd_size, struct ib_uverbs_create_qp_resp *resp, size_t resp_size)`
///
/// Creates the QP on `pd` (QP_CREATE ioctl with the provider's driver data, else the legacy
/// write command of the kernel's ABI): sets `qp`'s context, handle, number, objects, type,
/// state RESET and event lock, and stores the granted capabilities into `attr->cap`. 0, or the
/// positive errno. Divergence: NULL arguments, a NULL CQ where the type needs one, or buffers
/// shorter than their core structs give EINVAL (rdma-core crashes or overruns).
#[export(PRIVATE 34..)]
fn ibv_cmd_create_qp(
    pd: *mut ibv_pd,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_init_attr,
    cmd: *mut ibv_create_qp,
    cmd_size: usize,
    resp: *mut ib_uverbs_create_qp_resp,
    resp_size: usize,
) -> Raw<c_int> {
    // SAFETY: the provider's objects and buffers per the prototype.
    unsafe {
        if pd.is_null()
            || (*pd).context.is_null()
            || qp.is_null()
            || attr.is_null()
            || cmd.is_null()
            || resp.is_null()
        {
            return Errno::EINVAL.ret_errno();
        }
        let ctx = (*pd).context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let (c, imported) = (cx.cmd(), cx.imported());
        create_qp_with(
            c,
            imported,
            pd,
            qp,
            attr,
            buf(cmd, cmd_size),
            buf(resp, resp_size),
        )
    }
}

/// [`ibv_cmd_create_qp`] on a given command channel.
///
/// # Safety
/// As for the export; `pd->context` is the QP's context.
// Inlined into the export, its only caller in the library: one frame instead of two saves the
// second prologue and the seven-argument hand-over (stack arguments included).
#[inline]
pub unsafe fn create_qp_with(
    c: Ctx<'_>,
    imported: bool,
    pd: *mut ibv_pd,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_init_attr,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        // SAFETY: all-zero is a valid attribute struct (integers and NULL pointers).
        let mut ex: ibv_qp_init_attr_ex = core::mem::zeroed();
        ex.qp_context = (*attr).qp_context;
        ex.send_cq = (*attr).send_cq;
        ex.recv_cq = (*attr).recv_cq;
        ex.srq = (*attr).srq;
        ex.cap = (*attr).cap;
        ex.qp_type = (*attr).qp_type;
        ex.sq_sig_all = (*attr).sq_sig_all;
        ex.comp_mask = IBV_QP_INIT_ATTR_PD as u32;
        ex.pd = pd;
        let ret = icmd_create_qp((*pd).context, imported, null_mut(), qp, &mut ex, |i| {
            crate::cmd::qp::create_qp(c, i, req, resp)
        });
        if ret == 0 {
            (*attr).cap = ex.cap;
        }
        ret
    }
}

/// `int ibv_cmd_create_qp_ex(struct ibv_context *context, struct verbs_qp *qp, struct ibv_qp_init_attr_ex *attr_ex, struct ibv_create_qp *cmd, size_t cmd_size, struct ib_uverbs_create_qp_resp *resp, size_t resp_size)`
///
/// As [`ibv_cmd_create_qp`] from an `ibv_qp_init_attr_ex` (comp_mask PD, XRCD and
/// SEND_OPS_FLAGS only, else EINVAL; XRC receive QPs on their XRCD), also setting the
/// `verbs_qp` XRCD fields; the granted capabilities go into `attr_ex->cap`. 0, or the positive
/// errno. Divergence: as for [`ibv_cmd_create_qp`].
#[export(PRIVATE 34..)]
fn ibv_cmd_create_qp_ex(
    context: *mut ibv_context,
    qp: *mut verbs_qp,
    attr_ex: *mut ibv_qp_init_attr_ex,
    cmd: *mut ibv_create_qp,
    cmd_size: usize,
    resp: *mut ib_uverbs_create_qp_resp,
    resp_size: usize,
) -> Raw<c_int> {
    // SAFETY: the C contract, forwarded.
    unsafe {
        create_qp_ext(
            context,
            qp,
            attr_ex,
            (cmd, cmd_size),
            (resp, resp_size),
            crate::cmd::qp::CREATE_QP_EX_MASK,
            crate::cmd::qp::create_qp_ex,
        )
    }
    .ret_errno()
}

/// `int ibv_cmd_create_qp_ex2(struct ibv_context *context, struct verbs_qp *qp, struct ibv_qp_init_attr_ex *qp_attr, struct ibv_create_qp_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_qp_resp *resp, size_t resp_size)`
///
/// As [`ibv_cmd_create_qp_ex`], also allowing CREATE_FLAGS (the supported ones; others EINVAL),
/// MAX_TSO_HEADER, IND_TABLE and RX_HASH; its write fallback is the extended command. 0, or the
/// positive errno.
///
/// Provider ABI 34 signature (v44-v56). Provider ABI 65 (v65) appended `struct ibv_command_buffer
/// *driver`.
#[export(PRIVATE 34..64)]
fn ibv_cmd_create_qp_ex2(
    context: *mut ibv_context,
    qp: *mut verbs_qp,
    qp_attr: *mut ibv_qp_init_attr_ex,
    cmd: *mut ibv_create_qp_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_create_qp_resp,
    resp_size: usize,
) -> Raw<c_int> {
    // SAFETY: the C contract, forwarded.
    unsafe {
        create_qp_ext(
            context,
            qp,
            qp_attr,
            (cmd, cmd_size),
            (resp, resp_size),
            crate::cmd::qp::CREATE_QP_EX2_MASK,
            crate::cmd::qp::create_qp_ex2,
        )
    }
    .ret_errno()
}

/// The body of `ibv_cmd_create_qp_ex` and `ibv_cmd_create_qp_ex2` (of both provider ABIs; ABI
/// 65's adapter refuses a `driver` chain carrying attributes first): the pointer checks,
/// rdma-core's checks of `attr` against the entry's mask `allowed`, then `send` (the entry's
/// command) through [`icmd_create_qp`].
///
/// # Safety
/// As for those exports: the provider's objects and buffers per the prototype.
#[inline(always)]
pub(crate) unsafe fn create_qp_ext<Q, R>(
    context: *mut ibv_context,
    qp: *mut verbs_qp,
    attr: *mut ibv_qp_init_attr_ex,
    (cmd, cmd_size): (*mut Q, usize),
    (resp, resp_size): (*mut R, usize),
    allowed: u32,
    send: impl FnOnce(Ctx<'_>, &QpInit, &mut [u8], &mut [u8]) -> Result<QpCreated>,
) -> Result<()> {
    if context.is_null() || qp.is_null() || attr.is_null() || cmd.is_null() || resp.is_null() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: the caller's contract.
    unsafe {
        // Read once: what the checks read is what the command sends.
        let mut init = check_create(context, qp.cast(), attr, allowed)?;
        let Ok(cx) = Context::from_raw(context) else {
            return Err(Errno::EINVAL);
        };
        let (c, imported) = (cx.cmd(), cx.imported());
        let (req, rsp) = (buf(cmd, cmd_size), buf(resp, resp_size));
        match icmd_create_qp_init(context, imported, qp, qp.cast(), attr, &mut init, |i| {
            send(c, i, req, rsp)
        }) {
            0 => Ok(()),
            e => Err(Errno(e)),
        }
    }
}

/// What [`ibv_cmd_create_qp_ex2`] does after its checks (`create_qp_ext`), on a given command
/// channel.
///
/// # Safety
/// As for the export.
pub unsafe fn create_qp_ex2_with(
    c: Ctx<'_>,
    imported: bool,
    context: *mut ibv_context,
    qp: *mut verbs_qp,
    attr_ex: *mut ibv_qp_init_attr_ex,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        icmd_create_qp(context, imported, qp, qp.cast(), attr_ex, |i| {
            crate::cmd::qp::create_qp_ex2(c, i, req, resp)
        })
    }
}

/// `int ibv_cmd_open_qp(struct ibv_context *context, struct verbs_qp *qp, int vqp_sz, struct ibv_qp_open_attr *attr, struct ibv_open_qp *cmd, size_t cmd_size, struct ib_uverbs_create_qp_resp *resp, size_t resp_size)`
///
/// Opens a shareable XRC QP by number on its XRCD (write command OPEN_QP) and fills in `qp`:
/// handle, context, number, type and user context from `attr`, no PD/CQs/SRQ, state UNKNOWN,
/// event lock, and the `verbs_qp` XRCD when `vqp_sz` covers it (`vqp_sz` also tells the v44
/// from the v45-v56 `verbs_qp` layout). 0, or the positive errno: unknown comp_mask bits
/// EOPNOTSUPP and a missing XRCD, NUM or TYPE EINVAL (errno left alone, as rdma-core).
/// Divergence: NULL arguments give EINVAL; `comp_mask` is written only when `vqp_sz` covers it.
#[export(PRIVATE 34..)]
fn ibv_cmd_open_qp(
    context: *mut ibv_context,
    qp: *mut verbs_qp,
    vqp_sz: c_int,
    attr: *mut ibv_qp_open_attr,
    cmd: *mut ibv_open_qp,
    cmd_size: usize,
    resp: *mut ib_uverbs_create_qp_resp,
    resp_size: usize,
) -> Raw<c_int> {
    if context.is_null() || qp.is_null() || attr.is_null() || cmd.is_null() || resp.is_null() {
        return Errno::EINVAL.ret_errno();
    }
    // SAFETY: the provider's objects and buffers per the prototype.
    unsafe {
        let Ok(cx) = Context::from_raw(context) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        open_qp_with(
            c,
            context,
            qp,
            vqp_sz,
            attr,
            buf(cmd, cmd_size),
            buf(resp, resp_size),
        )
    }
}

/// [`ibv_cmd_open_qp`] on a given command channel.
///
/// # Safety
/// As for the export.
pub unsafe fn open_qp_with(
    c: Ctx<'_>,
    context: *mut ibv_context,
    vqp: *mut verbs_qp,
    vqp_sz: c_int,
    attr: *mut ibv_qp_open_attr,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        let m = (*attr).comp_mask;
        if m >= IBV_QP_OPEN_ATTR_RESERVED as u32 {
            return quiet(Errno::EOPNOTSUPP);
        }
        let need = IBV_QP_OPEN_ATTR_XRCD as u32
            | IBV_QP_OPEN_ATTR_NUM as u32
            | IBV_QP_OPEN_ATTR_TYPE as u32;
        if m & need != need {
            return quiet(Errno::EINVAL);
        }
        let xrcd = (*attr).xrcd.cast::<verbs_xrcd>();
        if xrcd.is_null() || resp.len() < size_of::<ib_uverbs_create_qp_resp>() {
            return Errno::EINVAL.ret_errno();
        }
        let (qp_num, qp_type) = ((*attr).qp_num, (*attr).qp_type);
        let r = crate::cmd::qp::open_qp(
            c,
            m,
            (*xrcd).handle,
            qp_num,
            qp_type.raw(),
            vqp as u64,
            req,
            resp,
        );
        r.map(|handle| {
            let qp = vqp.cast::<ibv_qp>();
            (*qp).handle = handle;
            (*qp).context = context;
            (*qp).qp_context = (*attr).qp_context;
            (*qp).pd = null_mut();
            (*qp).send_cq = null_mut();
            (*qp).recv_cq = null_mut();
            (*qp).srq = null_mut();
            (*qp).qp_num = qp_num;
            (*qp).qp_type = qp_type;
            (*qp).state = CEnum::new(IBV_QPS_UNKNOWN as u32);
            (*qp).events_completed = 0;
            init_lock(&raw mut (*qp).mutex, &raw mut (*qp).cond);
            let sz = usize::try_from(vqp_sz).unwrap_or(0);
            let layout = VqpLayout::of_size(sz);
            if layout.xrcd < sz {
                layout.store(vqp, sz, VERBS_QP_XRCD as u32, Some(xrcd));
            } else {
                layout.store(vqp, sz, 0, None);
            }
        })
        .ret_errno()
    }
}

/// `int ibv_cmd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *qp_attr, int attr_mask, struct ibv_qp_init_attr *qp_init_attr, struct ibv_query_qp *cmd, size_t cmd_size)`
///
/// The QP's attributes (write command QUERY_QP): fills `qp_attr` and, in `qp_init_attr`, the
/// capabilities and sq_sig_all from the kernel and the user context, CQs, SRQ and type from
/// `qp`. 0, or the positive errno; masks from IBV_QP_RATE_LIMIT up are EOPNOTSUPP (errno left
/// alone, as rdma-core). Divergence: NULL arguments give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_query_qp(
    qp: *mut ibv_qp,
    qp_attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    qp_init_attr: *mut ibv_qp_init_attr,
    cmd: *mut ibv_query_qp,
    cmd_size: usize,
) -> Raw<c_int> {
    // SAFETY: the provider's objects and buffers per the prototype.
    unsafe {
        if qp.is_null()
            || (*qp).context.is_null()
            || qp_attr.is_null()
            || qp_init_attr.is_null()
            || cmd.is_null()
        {
            return Errno::EINVAL.ret_errno();
        }
        // rdma-core refuses the mask before it looks at the QP's context.
        if let Err(e) = qp_mask_below_rate_limit(attr_mask) {
            return e;
        }
        let ctx = (*qp).context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        query_qp_with(c, qp, qp_attr, attr_mask, qp_init_attr, buf(cmd, cmd_size))
    }
}

/// [`ibv_cmd_query_qp`] on a given command channel.
///
/// # Safety
/// As for the export.
pub unsafe fn query_qp_with(
    c: Ctx<'_>,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    init: *mut ibv_qp_init_attr,
    req: &mut [u8],
) -> c_int {
    if let Err(e) = qp_mask_below_rate_limit(attr_mask) {
        return e;
    }
    // SAFETY: the caller's contract.
    unsafe {
        crate::cmd::qp::query_qp(c, (*qp).handle, attr_mask, req, &mut *attr)
            .map(|r| {
                (*init).qp_context = (*qp).qp_context;
                (*init).send_cq = (*qp).send_cq;
                (*init).recv_cq = (*qp).recv_cq;
                (*init).srq = (*qp).srq;
                (*init).qp_type = (*qp).qp_type;
                (*init).cap = r.cap.into();
                (*init).sq_sig_all = r.sq_sig_all;
            })
            .ret_errno()
    }
}

/// `int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_modify_qp *cmd, size_t cmd_size)`
///
/// Write command MODIFY_QP with the masked attributes in the provider's request. 0, or the
/// positive errno; masks from IBV_QP_RATE_LIMIT up are EOPNOTSUPP (errno left alone, as
/// rdma-core). `qp->state` is the caller's (`ibv_modify_qp`) to update. Divergence: NULL
/// arguments give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_modify_qp(
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    cmd: *mut ibv_modify_qp,
    cmd_size: usize,
) -> Raw<c_int> {
    // SAFETY: the provider's objects and buffers per the prototype.
    unsafe {
        if qp.is_null() || (*qp).context.is_null() || attr.is_null() || cmd.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        // rdma-core refuses the mask before it looks at the QP's context.
        if let Err(e) = qp_mask_below_rate_limit(attr_mask) {
            return e;
        }
        let ctx = (*qp).context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        modify_qp_with(c, qp, attr, attr_mask, buf(cmd, cmd_size))
    }
}

/// The legacy QP commands take masks below IBV_QP_RATE_LIMIT only: EOPNOTSUPP (errno left
/// alone, as rdma-core) for the rest, which must go through the extended command.
fn qp_mask_below_rate_limit(attr_mask: c_int) -> core::result::Result<(), c_int> {
    if attr_mask as u32 & !(IBV_QP_RATE_LIMIT as u32 - 1) != 0 {
        return Err(quiet(Errno::EOPNOTSUPP));
    }
    Ok(())
}

/// [`ibv_cmd_modify_qp`] on a given command channel. Always inlined into the export (one frame,
/// and its mask check folds into the export's).
///
/// # Safety
/// As for the export.
#[inline(always)]
pub unsafe fn modify_qp_with(
    c: Ctx<'_>,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    req: &mut [u8],
) -> c_int {
    if let Err(e) = qp_mask_below_rate_limit(attr_mask) {
        return e;
    }
    // SAFETY: the caller's contract.
    unsafe { crate::cmd::qp::modify_qp(c, (*qp).handle, &*attr, attr_mask, req).ret_errno() }
}

/// `int ibv_cmd_modify_qp_ex(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_modify_qp_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_modify_qp_resp *resp, size_t resp_size)`
///
/// Extended write command MODIFY_QP (any mask, `rate_limit` included when the request has room
/// for it, else EINVAL with errno left alone, as rdma-core). 0, or the positive errno.
/// Divergence: NULL arguments give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_modify_qp_ex(
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    cmd: *mut ibv_modify_qp_ex,
    cmd_size: usize,
    resp: *mut ib_uverbs_ex_modify_qp_resp,
    resp_size: usize,
) -> Raw<c_int> {
    // SAFETY: the provider's objects and buffers per the prototype.
    unsafe {
        if qp.is_null()
            || (*qp).context.is_null()
            || attr.is_null()
            || cmd.is_null()
            || resp.is_null()
        {
            return Errno::EINVAL.ret_errno();
        }
        let ctx = (*qp).context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        let c = cx.cmd();
        modify_qp_ex_with(
            c,
            qp,
            attr,
            attr_mask,
            buf(cmd, cmd_size),
            buf(resp, resp_size),
        )
    }
}

/// [`ibv_cmd_modify_qp_ex`] on a given command channel.
///
/// # Safety
/// As for the export.
pub unsafe fn modify_qp_ex_with(
    c: Ctx<'_>,
    qp: *mut ibv_qp,
    attr: *mut ibv_qp_attr,
    attr_mask: c_int,
    req: &mut [u8],
    resp: &mut [u8],
) -> c_int {
    let rate_end = crate::cmd::write::EX_HDR_SIZE
        + offset_of!(crate::abi::uapi::ib_uverbs_ex_modify_qp, rate_limit)
        + 4;
    if attr_mask as u32 & IBV_QP_RATE_LIMIT as u32 != 0 && req.len() < rate_end {
        return quiet(Errno::EINVAL);
    }
    // SAFETY: the caller's contract.
    unsafe {
        crate::cmd::qp::modify_qp_ex(c, (*qp).handle, &*attr, attr_mask, req, resp).ret_errno()
    }
}

/// `int ibv_cmd_destroy_qp(struct ibv_qp *qp)`
///
/// QP_DESTROY (ioctl, else the write command), then waits, under `qp->mutex`/`qp->cond`, until
/// the application has acknowledged every async event the kernel reported for the QP
/// (`events_completed` reaching the kernel's `events_reported`). 0, or the positive errno; EIO
/// on a disassociated device counts as success when RDMAV_ALLOW_DISASSOC_DESTROY is set (then
/// without the wait). Divergence: NULL gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_qp(qp: *mut ibv_qp) -> Raw<c_int> {
    // SAFETY: the provider's QP.
    unsafe {
        if qp.is_null() || (*qp).context.is_null() {
            return Errno::EINVAL.ret_errno();
        }
        let ctx = (*qp).context;
        let Ok(cx) = Context::from_raw(ctx) else {
            return Errno::EINVAL.ret_errno();
        };
        destroy_qp_with(cx.cmd(), qp)
    }
}

/// [`ibv_cmd_destroy_qp`] on a given command channel (the test seam).
///
/// # Safety
/// As for the export; the QP's event lock was initialised.
pub unsafe fn destroy_qp_with(c: Ctx<'_>, qp: *mut ibv_qp) -> c_int {
    // SAFETY: the caller's contract.
    unsafe {
        let destroyed = crate::cmd::qp::destroy_qp(c, (*qp).handle, allow_disassociate());
        let (m, cv) = (&raw mut (*qp).mutex, &raw mut (*qp).cond);
        let acked = &raw const (*qp).events_completed;
        // The ack verbs write `events_completed` under the lock.
        destroy_and_wait(destroyed, m, cv, |&n| acked.read_volatile() == n).ret_errno()
    }
}
