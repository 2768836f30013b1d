//! QP commands (rdma-core: `libibverbs/cmd_qp.c`: `ibv_icmd_create_qp` and its entry points
//! `ibv_cmd_create_qp`, `ibv_cmd_create_qp_ex`, `ibv_cmd_create_qp_ex2`, `ibv_cmd_destroy_qp`;
//! `cmd.c`: `ibv_cmd_open_qp`). Query and modify are in [`super::qp_attr`].
//!
//! The objects a QP refers to arrive as their kernel handles; what rdma-core then stores into
//! the `ibv_qp` (`set_qp`: context, PD and CQ pointers, state RESET, mutex and condition,
//! `verbs_qp` XRCD) is the caller's part.
#![forbid(unsafe_code)]

use super::Ctx;
use super::compat::Compat;
use super::fallback::{Fallback, destroy_counted, execute_ioctl_fallback, op};
use super::ioctl::{IoctlArg, IoctlCmd};
use super::methods;
use super::wire::put_field;
use super::write::{CMD_HDR_SIZE, execute_cmd_write};
use crate::abi::kern_abi::*;
use crate::abi::uapi::ib_uverbs_create_qp_mask::IB_UVERBS_CREATE_QP_MASK_IND_TABLE;
use crate::abi::uapi::ib_uverbs_qp_create_flags::IB_UVERBS_QP_CREATE_SQ_SIG_ALL;
use crate::abi::uapi::*;
use crate::abi::verbs::ibv_qp_cap;
use crate::abi::verbs::ibv_qp_create_flags::*;
use crate::abi::verbs::ibv_qp_init_attr_mask::*;
use crate::abi::verbs::ibv_qp_type::*;
use crate::errno::{Errno, Result};
use crate::sys::pod;

const SUP_CREATE_FLAGS: u32 = IBV_QP_CREATE_BLOCK_SELF_MCAST_LB as u32
    | IBV_QP_CREATE_SCATTER_FCS as u32
    | IBV_QP_CREATE_CVLAN_STRIPPING as u32
    | IBV_QP_CREATE_SOURCE_QPN as u32
    | IBV_QP_CREATE_PCI_WRITE_END_PADDING as u32;

/// `ibv_qp_init_attr_ex` with its object pointers resolved to kernel handles (None: NULL).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QpInit {
    pub qp_type: u32,
    pub comp_mask: u32,
    /// `attr_ex->pd->handle`.
    pub pd_handle: Option<u32>,
    /// `verbs_xrcd` handle of `attr_ex->xrcd`.
    pub xrcd_handle: Option<u32>,
    pub send_cq_handle: Option<u32>,
    pub recv_cq_handle: Option<u32>,
    pub srq_handle: Option<u32>,
    /// `attr_ex->rwq_ind_tbl->ind_tbl_handle`.
    pub ind_tbl_handle: Option<u32>,
    pub cap: QpCap,
    pub sq_sig_all: i32,
    pub create_flags: u32,
    pub source_qpn: u32,
    /// The `ibv_qp` address.
    pub user_handle: u64,
    /// `context->async_fd`.
    pub async_fd: i32,
    /// `priv->imported`.
    pub imported: bool,
}

/// `struct ibv_qp_cap` (the same layout as the kernel's `ib_uverbs_qp_cap`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QpCap {
    pub max_send_wr: u32,
    pub max_recv_wr: u32,
    pub max_send_sge: u32,
    pub max_recv_sge: u32,
    pub max_inline_data: u32,
}

impl From<ibv_qp_cap> for QpCap {
    fn from(c: ibv_qp_cap) -> Self {
        QpCap {
            max_send_wr: c.max_send_wr,
            max_recv_wr: c.max_recv_wr,
            max_send_sge: c.max_send_sge,
            max_recv_sge: c.max_recv_sge,
            max_inline_data: c.max_inline_data,
        }
    }
}

impl From<QpCap> for ibv_qp_cap {
    fn from(c: QpCap) -> Self {
        ibv_qp_cap {
            max_send_wr: c.max_send_wr,
            max_recv_wr: c.max_recv_wr,
            max_send_sge: c.max_send_sge,
            max_recv_sge: c.max_recv_sge,
            max_inline_data: c.max_inline_data,
        }
    }
}

fn kern_cap(c: &QpCap) -> ib_uverbs_qp_cap {
    ib_uverbs_qp_cap {
        max_send_wr: c.max_send_wr,
        max_recv_wr: c.max_recv_wr,
        max_send_sge: c.max_send_sge,
        max_recv_sge: c.max_recv_sge,
        max_inline_data: c.max_inline_data,
    }
}

/// A created QP: `qp->handle`, `qp->qp_num`, and the capabilities as they stand afterwards
/// (`attr_ex->cap`: updated by the kernel except on kernel ABI 3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QpCreated {
    pub handle: u32,
    pub qp_num: u32,
    pub cap: QpCap,
}

fn need(h: Option<u32>) -> Result<u32> {
    // Divergence: rdma-core dereferences the missing object and crashes.
    h.ok_or(Errno::EINVAL)
}

/// Fill the core create-QP request fields shared by `ib_uverbs_create_qp` and
/// `ib_uverbs_ex_create_qp` (`$T` picks the layout).
macro_rules! create_qp_core {
    ($c:expr, $T:ty, $a:expr, $pd:expr, $send:expr, $recv:expr) => {{
        let a = $a;
        put_field!($c, $T, pd_handle, $pd)?;
        put_field!($c, $T, user_handle, a.user_handle)?;
        put_field!($c, $T, max_send_wr, a.cap.max_send_wr)?;
        put_field!($c, $T, max_recv_wr, a.cap.max_recv_wr)?;
        put_field!($c, $T, max_send_sge, a.cap.max_send_sge)?;
        put_field!($c, $T, max_recv_sge, a.cap.max_recv_sge)?;
        put_field!($c, $T, max_inline_data, a.cap.max_inline_data)?;
        put_field!($c, $T, sq_sig_all, a.sq_sig_all as u8)?;
        put_field!($c, $T, qp_type, a.qp_type as u8)?;
        put_field!($c, $T, srq_handle, a.srq_handle.unwrap_or(0))?;
        put_field!($c, $T, is_srq, u8::from(a.srq_handle.is_some()))?;
        put_field!($c, $T, recv_cq_handle, $recv)?;
        put_field!($c, $T, send_cq_handle, $send)
    }};
}

fn cap_of(r: &ib_uverbs_create_qp_resp) -> QpCap {
    QpCap {
        max_send_wr: r.max_send_wr,
        max_recv_wr: r.max_recv_wr,
        max_send_sge: r.max_send_sge,
        max_recv_sge: r.max_recv_sge,
        max_inline_data: r.max_inline_data,
    }
}

/// The objects a QP of its type is created on: the part of `ibv_icmd_create_qp` that runs before
/// the context is used, so its errors come first (rdma-core's order).
struct TypeObjects {
    /// The handle the legacy command carries as `pd_handle` (the XRCD's for XRC receive QPs).
    pd_handle: u32,
    xrcd: Option<u32>,
    pd: Option<u32>,
    ind_tbl: Option<u32>,
    send_cq: Option<u32>,
    recv_cq: Option<u32>,
}

/// rdma-core's switch on `qp_type`: which objects the type needs (each must be present; EINVAL
/// otherwise), an indirection table excluding the receive side. (XRC send QPs then ask for no
/// receive queue: [`icmd_create_qp`] clears their receive caps.)
#[inline(always)]
fn type_objects(a: &QpInit) -> Result<TypeObjects> {
    let has = |bit: u32| a.comp_mask & bit != 0;
    let mut o = TypeObjects {
        pd_handle: 0,
        xrcd: None,
        pd: None,
        ind_tbl: None,
        send_cq: None,
        recv_cq: None,
    };
    let t = a.qp_type;
    if t == IBV_QPT_XRC_RECV as u32 {
        if !has(IBV_QP_INIT_ATTR_XRCD as u32) {
            return Err(Errno::EINVAL);
        }
        o.pd_handle = need(a.xrcd_handle)?;
        o.xrcd = Some(o.pd_handle);
        return Ok(o);
    }
    let known = [
        IBV_QPT_RC,
        IBV_QPT_UD,
        IBV_QPT_UC,
        IBV_QPT_RAW_PACKET,
        IBV_QPT_XRC_SEND,
        IBV_QPT_DRIVER,
    ];
    if !known.iter().any(|&q| q as u32 == t) || !has(IBV_QP_INIT_ATTR_PD as u32) {
        return Err(Errno::EINVAL);
    }
    o.pd_handle = need(a.pd_handle)?;
    o.pd = Some(o.pd_handle);
    if has(IBV_QP_INIT_ATTR_IND_TABLE as u32) {
        if a.cap.max_recv_wr != 0
            || a.cap.max_recv_sge != 0
            || a.recv_cq_handle.is_some()
            || a.srq_handle.is_some()
        {
            return Err(Errno::EINVAL);
        }
        o.ind_tbl = Some(need(a.ind_tbl_handle)?);
        if a.cap.max_send_wr != 0 {
            o.send_cq = Some(need(a.send_cq_handle)?);
        }
    } else {
        o.send_cq = Some(need(a.send_cq_handle)?);
        if t != IBV_QPT_XRC_SEND as u32 {
            o.recv_cq = Some(need(a.recv_cq_handle)?);
        }
    }
    Ok(o)
}

/// The comp_mask bits `ibv_cmd_create_qp_ex` accepts.
pub const CREATE_QP_EX_MASK: u32 = IBV_QP_INIT_ATTR_PD as u32
    | IBV_QP_INIT_ATTR_XRCD as u32
    | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS as u32;
/// The comp_mask bits `ibv_cmd_create_qp_ex2` accepts.
pub const CREATE_QP_EX2_MASK: u32 = CREATE_QP_EX_MASK
    | IBV_QP_INIT_ATTR_CREATE_FLAGS as u32
    | IBV_QP_INIT_ATTR_MAX_TSO_HEADER as u32
    | IBV_QP_INIT_ATTR_IND_TABLE as u32
    | IBV_QP_INIT_ATTR_RX_HASH as u32;

/// What a create-QP entry point checks before it touches the context, after the entry's
/// comp_mask (the caller's, before it read `a`): the objects the QP type needs, in rdma-core's
/// order. The object pointers of `a` must already be resolved; its `async_fd` and `imported`
/// are not looked at.
#[inline(always)]
pub fn check_objects(a: &QpInit) -> Result<()> {
    type_objects(a).map(|_| ())
}

/// `ibv_icmd_create_qp`: `UVERBS_METHOD_QP_CREATE` with the compat link ([`ioctl_create_qp`]),
/// falling back to `IB_USER_VERBS_CMD_CREATE_QP` (its ABI 4 / ABI 3 forms on such kernels:
/// [`write_create_qp`]) or, when the attributes need it, `IB_USER_VERBS_EX_CMD_CREATE_QP`
/// ([`write_create_qp_ex`]).
fn icmd_create_qp(ctx: Ctx<'_>, a: &QpInit, compat: &mut Compat<'_>) -> Result<QpCreated> {
    let o = type_objects(a)?;
    // XRC send QPs ask for no receive queue: their receive caps go out cleared.
    let xrc_send;
    let a = if a.qp_type == IBV_QPT_XRC_SEND as u32 {
        xrc_send = QpInit {
            cap: QpCap {
                max_recv_wr: 0,
                max_recv_sge: 0,
                ..a.cap
            },
            ..*a
        };
        &xrc_send
    } else {
        a
    };
    let with_flags = a.comp_mask & IBV_QP_INIT_ATTR_CREATE_FLAGS as u32 != 0;
    if with_flags && a.create_flags & !SUP_CREATE_FLAGS != 0 {
        return Err(Errno::EINVAL);
    }
    let mut cap_out = kern_cap(&a.cap);
    let mut qp_num: u32 = 0;
    let (via, handle) = ioctl_create_qp(ctx, a, &o, with_flags, &mut cap_out, &mut qp_num, compat)?;
    match via {
        Fallback::Success => Ok(QpCreated {
            handle,
            qp_num,
            cap: QpCap {
                max_send_wr: cap_out.max_send_wr,
                max_recv_wr: cap_out.max_recv_wr,
                max_send_sge: cap_out.max_send_sge,
                max_recv_sge: cap_out.max_recv_sge,
                max_inline_data: cap_out.max_inline_data,
            },
        }),
        Fallback::TryWrite => write_create_qp(ctx, a, &o, compat),
        Fallback::TryWriteEx => write_create_qp_ex(ctx, a, &o, with_flags, compat),
    }
}

/// [`icmd_create_qp`]'s ioctl: `UVERBS_METHOD_QP_CREATE` with the objects, caps, flags and the
/// compat link. Returns the fallback decision and the new handle; the kernel's granted caps and
/// QP number land in `cap_out` and `qp_num` (all meaningful on success only).
// Always inlined into its one caller, as it was written there: bench row mlx5 (emulated)
// ibv_create_qp.
#[inline(always)]
fn ioctl_create_qp(
    ctx: Ctx<'_>,
    a: &QpInit,
    o: &TypeObjects,
    with_flags: bool,
    cap_out: &mut ib_uverbs_qp_cap,
    qp_num: &mut u32,
    compat: &mut Compat<'_>,
) -> Result<(Fallback, u32)> {
    let mut create_flags = 0u32;
    if a.sq_sig_all != 0 {
        create_flags |= IB_UVERBS_QP_CREATE_SQ_SIG_ALL as u32;
    }
    let cap_in = kern_cap(&a.cap);
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::QP_CREATE);
    if let Some(x) = o.xrcd {
        cmd.in_obj(UVERBS_ATTR_CREATE_QP_XRCD_HANDLE, x);
    }
    if let Some(pd) = o.pd {
        cmd.in_obj(UVERBS_ATTR_CREATE_QP_PD_HANDLE, pd);
    }
    if let Some(t) = o.ind_tbl {
        cmd.fallback_require_ex = true;
        cmd.in_obj(UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE, t);
    }
    if let Some(cq) = o.send_cq {
        cmd.in_obj(UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE, cq);
    }
    if let Some(cq) = o.recv_cq {
        cmd.in_obj(UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE, cq);
    }
    let h = cmd.out_obj(UVERBS_ATTR_CREATE_QP_HANDLE);
    cmd.in_u64(UVERBS_ATTR_CREATE_QP_TYPE, a.qp_type.into());
    cmd.in_u64(UVERBS_ATTR_CREATE_QP_USER_HANDLE, a.user_handle);
    cmd.in_bytes(UVERBS_ATTR_CREATE_QP_CAP, pod::bytes(&cap_in));
    cmd.in_fd(UVERBS_ATTR_CREATE_QP_EVENT_FD, a.async_fd);
    if a.imported {
        cmd.fallback_ioctl_only = true;
    }
    if with_flags {
        cmd.fallback_require_ex = true;
        create_flags |= a.create_flags;
        if a.create_flags & IBV_QP_CREATE_SOURCE_QPN as u32 != 0 {
            cmd.in_u32(UVERBS_ATTR_CREATE_QP_SOURCE_QPN, a.source_qpn);
            create_flags &= !(IBV_QP_CREATE_SOURCE_QPN as u32);
        }
    }
    if create_flags != 0 {
        cmd.in_u32(UVERBS_ATTR_CREATE_QP_FLAGS, create_flags);
    }
    if let Some(srq) = a.srq_handle {
        cmd.in_obj(UVERBS_ATTR_CREATE_QP_SRQ_HANDLE, srq);
    }
    cmd.out_pod(UVERBS_ATTR_CREATE_QP_RESP_CAP, cap_out);
    cmd.out_pod(UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, qp_num);
    compat.link(&mut cmd);
    let via = execute_ioctl_fallback(ctx, op::CREATE_QP, &mut cmd)?;
    Ok((via, cmd.attr(h).map_or(0, |x| x.data as u32)))
}

/// [`icmd_create_qp`]'s write fallback: `IB_USER_VERBS_CMD_CREATE_QP`, in the form of the
/// kernel's ABI (above 4: today's; 4 and 3: the old responses, ABI 3's without caps).
// Cold and out of line, as is write_create_qp_ex: the ioctl path keeps its registers (bench row
// mlx5 (emulated) ibv_create_qp: 30 instructions fewer than inlined).
#[cold]
#[inline(never)]
fn write_create_qp(
    ctx: Ctx<'_>,
    a: &QpInit,
    o: &TypeObjects,
    compat: &mut Compat<'_>,
) -> Result<QpCreated> {
    let (pd_handle, send_cq, recv_cq) =
        (o.pd_handle, o.send_cq.unwrap_or(0), o.recv_cq.unwrap_or(0));
    let fill =
        |c: &mut [u8]| create_qp_core!(c, ib_uverbs_create_qp, &a, pd_handle, send_cq, recv_cq);
    match ctx.state.abi_ver() {
        v if v > 4 => {
            let r = compat.write::<ibv_create_qp>(ctx, fill)?;
            Ok(QpCreated {
                handle: r.qp_handle,
                qp_num: r.qpn,
                cap: cap_of(&r),
            })
        }
        4 => {
            let r = compat.write::<ibv_create_qp_v4>(ctx, fill)?;
            let cap = QpCap {
                max_send_wr: r.max_send_wr,
                max_recv_wr: r.max_recv_wr,
                max_send_sge: r.max_send_sge,
                max_recv_sge: r.max_recv_sge,
                max_inline_data: r.max_inline_data,
            };
            Ok(QpCreated {
                handle: r.qp_handle,
                qp_num: r.qpn,
                cap,
            })
        }
        _ => {
            let r = compat.write::<ibv_create_qp_v3>(ctx, fill)?;
            Ok(QpCreated {
                handle: r.qp_handle,
                qp_num: r.qpn,
                cap: a.cap,
            })
        }
    }
}

/// [`icmd_create_qp`]'s extended write fallback: `IB_USER_VERBS_EX_CMD_CREATE_QP`, with the
/// create flags (and source QPN) and the indirection table the basic command cannot carry.
#[cold]
#[inline(never)]
fn write_create_qp_ex(
    ctx: Ctx<'_>,
    a: &QpInit,
    o: &TypeObjects,
    with_flags: bool,
    compat: &mut Compat<'_>,
) -> Result<QpCreated> {
    let (pd_handle, send_cq, recv_cq) =
        (o.pd_handle, o.send_cq.unwrap_or(0), o.recv_cq.unwrap_or(0));
    let r = compat.write_ex::<ibv_create_qp_ex>(ctx, |c| {
        create_qp_core!(c, ib_uverbs_ex_create_qp, &a, pd_handle, send_cq, recv_cq)?;
        if with_flags {
            put_field!(c, ib_uverbs_ex_create_qp, create_flags, a.create_flags)?;
            if a.create_flags & IBV_QP_CREATE_SOURCE_QPN as u32 != 0 {
                put_field!(c, ib_uverbs_ex_create_qp, source_qpn, a.source_qpn)?;
            }
        }
        if a.comp_mask & IBV_QP_INIT_ATTR_IND_TABLE as u32 != 0 {
            put_field!(
                c,
                ib_uverbs_ex_create_qp,
                rwq_ind_tbl_handle,
                need(a.ind_tbl_handle)?
            )?;
            put_field!(
                c,
                ib_uverbs_ex_create_qp,
                comp_mask,
                IB_UVERBS_CREATE_QP_MASK_IND_TABLE as u32
            )?;
        }
        Ok(())
    })?;
    Ok(QpCreated {
        handle: r.base.qp_handle,
        qp_num: r.base.qpn,
        cap: cap_of(&r.base),
    })
}

/// `ibv_cmd_create_qp`: an `ibv_qp_init_attr` on `pd_handle` (comp_mask PD). `req` is the
/// provider's `struct ibv_create_qp` plus driver data, `resp` its
/// `struct ib_uverbs_create_qp_resp` plus driver data. The caller copies the returned caps back
/// into `attr->cap`.
pub fn create_qp(ctx: Ctx<'_>, a: &QpInit, req: &mut [u8], resp: &mut [u8]) -> Result<QpCreated> {
    let mut c = Compat::new(
        req,
        size_of::<ibv_create_qp>(),
        resp,
        size_of::<ib_uverbs_create_qp_resp>(),
    )?;
    let a = QpInit {
        comp_mask: IBV_QP_INIT_ATTR_PD as u32,
        ..*a
    };
    icmd_create_qp(ctx, &a, &mut c)
}

/// `ibv_cmd_create_qp_ex`: `attr_ex` may only use PD, XRCD and SEND_OPS_FLAGS (else EINVAL);
/// buffers as [`create_qp`]. The caller stores the returned caps into `attr_ex->cap`.
pub fn create_qp_ex(
    ctx: Ctx<'_>,
    a: &QpInit,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<QpCreated> {
    let sizes = (
        size_of::<ibv_create_qp>(),
        size_of::<ib_uverbs_create_qp_resp>(),
    );
    create_qp_masked(ctx, a, (req, resp), sizes, CREATE_QP_EX_MASK)
}

/// `ibv_cmd_create_qp_ex2`: `attr_ex` may also use CREATE_FLAGS, MAX_TSO_HEADER, IND_TABLE and
/// RX_HASH; `req` is the provider's `struct ibv_create_qp_ex` plus driver data, `resp` its
/// `struct ib_uverbs_ex_create_qp_resp` plus driver data.
pub fn create_qp_ex2(
    ctx: Ctx<'_>,
    a: &QpInit,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<QpCreated> {
    let sizes = (
        size_of::<ibv_create_qp_ex>(),
        size_of::<ib_uverbs_ex_create_qp_resp>(),
    );
    create_qp_masked(ctx, a, (req, resp), sizes, CREATE_QP_EX2_MASK)
}

/// The provider's request and response buffers (whose core parts are `sizes`) checked, then
/// `attr_ex`'s comp_mask against `mask` (a bit outside it: EINVAL), then the command.
fn create_qp_masked(
    ctx: Ctx<'_>,
    a: &QpInit,
    (req, resp): (&mut [u8], &mut [u8]),
    (req_core, resp_core): (usize, usize),
    mask: u32,
) -> Result<QpCreated> {
    let mut c = Compat::new(req, req_core, resp, resp_core)?;
    if a.comp_mask & !mask != 0 {
        return Err(Errno::EINVAL);
    }
    icmd_create_qp(ctx, a, &mut c)
}

/// `ibv_cmd_destroy_qp`: `UVERBS_METHOD_QP_DESTROY`, falling back to
/// `IB_USER_VERBS_CMD_DESTROY_QP`. Returns the kernel's `events_reported` for the caller to
/// wait on; None when an EIO on a disassociated device was forgiven (no wait).
pub fn destroy_qp(
    ctx: Ctx<'_>,
    qp_handle: u32,
    allow_disassociate_destroy: bool,
) -> Result<Option<u32>> {
    let mut resp: ib_uverbs_destroy_qp_resp = pod::zeroed();
    let r = {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::QP_DESTROY);
        cmd.out_pod(UVERBS_ATTR_DESTROY_QP_RESP, &mut resp);
        cmd.in_obj(UVERBS_ATTR_DESTROY_QP_HANDLE, qp_handle);
        execute_ioctl_fallback(ctx, op::DESTROY_QP, &mut cmd)
    };
    let write = || {
        let mut req = [0u8; size_of::<ibv_destroy_qp>()];
        put_field!(&mut req, CMD_HDR_SIZE; ib_uverbs_destroy_qp, qp_handle, qp_handle)?;
        execute_cmd_write::<ibv_destroy_qp>(ctx, &mut req, pod::bytes_mut(&mut resp))
    };
    let answered = destroy_counted(r, write, allow_disassociate_destroy)?;
    Ok(answered.then_some(resp.events_reported))
}

/// `ibv_cmd_open_qp`: checks `attr->comp_mask` (unknown bits EOPNOTSUPP; XRCD, NUM and TYPE
/// required, else EINVAL), then `IB_USER_VERBS_CMD_OPEN_QP` with the XRCD handle as PD handle.
/// Returns `qp->handle`; the rest of the `ibv_qp` is the caller's.
#[allow(clippy::too_many_arguments)]
pub fn open_qp(
    ctx: Ctx<'_>,
    comp_mask: u32,
    xrcd_handle: u32,
    qp_num: u32,
    qp_type: u32,
    user_handle: u64,
    req: &mut [u8],
    resp: &mut [u8],
) -> Result<u32> {
    use crate::abi::verbs::ibv_qp_open_attr_mask::*;
    if comp_mask >= IBV_QP_OPEN_ATTR_RESERVED as u32 {
        return Err(Errno::EOPNOTSUPP);
    }
    let need =
        IBV_QP_OPEN_ATTR_XRCD as u32 | IBV_QP_OPEN_ATTR_NUM as u32 | IBV_QP_OPEN_ATTR_TYPE as u32;
    if comp_mask & need != need {
        return Err(Errno::EINVAL);
    }
    put_field!(req, CMD_HDR_SIZE; ib_uverbs_open_qp, user_handle, user_handle)?;
    put_field!(req, CMD_HDR_SIZE; ib_uverbs_open_qp, pd_handle, xrcd_handle)?;
    put_field!(req, CMD_HDR_SIZE; ib_uverbs_open_qp, qpn, qp_num)?;
    put_field!(req, CMD_HDR_SIZE; ib_uverbs_open_qp, qp_type, qp_type as u8)?;
    execute_cmd_write::<ibv_open_qp>(ctx, req, resp)?;
    Ok(pod::read::<ib_uverbs_create_qp_resp>(resp).qp_handle)
}
