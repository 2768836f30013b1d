//! Context, device, port and GID commands (rdma-core: `libibverbs/cmd_device.c`:
//! `ibv_cmd_get_context`, `ibv_cmd_query_context`, `ibv_cmd_alloc_async_fd`,
//! `ibv_cmd_query_port`, `ibv_cmd_query_device_any`, `__ibv_query_gid_ex`,
//! `_ibv_query_gid_table`).
//!
//! Provider request and response structs arrive as byte slices of the provider's own sizes
//! (`cmd`/`cmd_size`, `resp`/`resp_size`): the core part the kernel defines, then driver data.
#![forbid(unsafe_code)]

use super::Ctx;
use super::compat::Compat;
use super::fallback::{Fallback, execute_ioctl_fallback, op};
use super::ioctl::{Driver, IoctlArg, IoctlCmd, execute_ioctl, execute_linked};
use super::methods;
use super::wire::{end_of, get, put_field, zero};
use super::write::{CMD_HDR_SIZE, execute_cmd_write, execute_cmd_write_ex};
use crate::abi::ctype::Be64;
use crate::abi::kern_abi::{
    ibv_get_context, ibv_query_device, ibv_query_device_ex, ibv_query_port,
};
use crate::abi::uapi::*;
use crate::abi::verbs::{ibv_device_attr, ibv_device_attr_ex, ibv_port_attr};
use crate::errno::{Errno, Result};
use crate::sys::pod::{self, bytes_mut};

/// Where a command's fallback-only outcome has no write command (TRY_WRITE_EX for a command
/// with only a legacy write): rdma-core returns its leftover `ret`; we say EOPNOTSUPP.
const NO_EX_FALLBACK: Errno = Errno::EOPNOTSUPP;

/// Result of [`get_context`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GetContext {
    /// `context->num_comp_vectors`.
    pub num_comp_vectors: u32,
    /// The async event fd (write path only; after the ioctl path the caller still has none and
    /// allocates one with [`alloc_async_fd`]).
    pub async_fd: Option<i32>,
    /// `verbs_device->core_support` (ioctl path only).
    pub core_support: Option<u64>,
}

/// `ibv_cmd_get_context`: `UVERBS_METHOD_GET_CONTEXT` with the provider's driver data as UHW
/// attributes, falling back to `IB_USER_VERBS_CMD_GET_CONTEXT`. `req` is the provider's
/// `struct ibv_get_context` plus driver data (`cmd_size` bytes), `resp` its
/// `struct ib_uverbs_get_context_resp` plus driver data (`resp_size` bytes). `fds` (provider ABI
/// 57 on: the bytes of an `ibv_fd_arr`'s `int` array, when the provider gave one) goes to the
/// kernel as `UVERBS_ATTR_GET_CONTEXT_FD_ARR`; the write command has no room for it.
pub fn get_context(
    ctx: Ctx<'_>,
    req: &mut [u8],
    resp: &mut [u8],
    fds: Option<&[u8]>,
) -> Result<GetContext> {
    let mut c = Compat::new(
        req,
        size_of::<ibv_get_context>(),
        resp,
        size_of::<ib_uverbs_get_context_resp>(),
    )?;
    let mut num_comp_vectors: u32 = 0;
    let mut core_support: u64 = 0;
    let via = {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::GET_CONTEXT);
        cmd.out_pod(
            UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS,
            &mut num_comp_vectors,
        );
        cmd.out_pod(UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, &mut core_support);
        if let Some(fds) = fds {
            cmd.in_bytes(UVERBS_ATTR_GET_CONTEXT_FD_ARR, fds);
        }
        c.link(&mut cmd);
        // rdma-core files this under the free_context bit: alloc_context has no ops slot.
        execute_ioctl_fallback(ctx, op::FREE_CONTEXT, &mut cmd)?
    };
    match via {
        Fallback::Success => Ok(GetContext {
            num_comp_vectors,
            async_fd: None,
            core_support: Some(core_support),
        }),
        Fallback::TryWrite => {
            let r = c.write::<ibv_get_context>(ctx, |_| Ok(()))?;
            Ok(GetContext {
                num_comp_vectors: r.num_comp_vectors,
                async_fd: Some(r.async_fd as i32),
                core_support: None,
            })
        }
        Fallback::TryWriteEx => Err(NO_EX_FALLBACK),
    }
}

/// Result of [`query_context`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QueryContext {
    /// `context->num_comp_vectors`.
    pub num_comp_vectors: u32,
    /// `verbs_device->core_support`.
    pub core_support: u64,
}

/// `ibv_cmd_query_context`: `UVERBS_METHOD_QUERY_CONTEXT`, ioctl only, with the provider's
/// `driver` chain linked after our two attributes (given the kernel's answers on success).
pub fn query_context(ctx: Ctx<'_>, driver: &mut dyn Driver) -> Result<QueryContext> {
    let mut num_comp_vectors: u32 = 0;
    let mut core_support: u64 = 0;
    {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::QUERY_CONTEXT);
        cmd.out_pod(
            UVERBS_ATTR_QUERY_CONTEXT_NUM_COMP_VECTORS,
            &mut num_comp_vectors,
        );
        cmd.out_pod(UVERBS_ATTR_QUERY_CONTEXT_CORE_SUPPORT, &mut core_support);
        execute_linked(ctx, &mut cmd, driver)?;
    }
    Ok(QueryContext {
        num_comp_vectors,
        core_support,
    })
}

/// `ibv_cmd_query_port_speed` (rdma-core v65): `UVERBS_METHOD_QUERY_PORT_SPEED` (ioctl only); the
/// port's effective speed as the kernel reports it.
pub fn query_port_speed(ctx: Ctx<'_>, port_num: u32) -> Result<u64> {
    let mut speed: u64 = 0;
    {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::QUERY_PORT_SPEED);
        cmd.in_u64(UVERBS_ATTR_QUERY_PORT_SPEED_PORT_NUM, port_num.into());
        cmd.out_pod(UVERBS_ATTR_QUERY_PORT_SPEED_RESP, &mut speed);
        execute_ioctl(ctx, &mut cmd)?;
    }
    Ok(speed)
}

/// `ibv_cmd_alloc_async_fd`: `UVERBS_METHOD_ASYNC_EVENT_ALLOC`; returns the new fd. Called when
/// the context came up without one (the ioctl GET_CONTEXT path, or an imported context).
pub fn alloc_async_fd(ctx: Ctx<'_>) -> Result<i32> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::ASYNC_EVENT_ALLOC);
    let h = cmd.out_fd(UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE);
    execute_ioctl(ctx, &mut cmd)?;
    Ok(cmd.attr(h).map_or(0, |a| a.data as i32))
}

/// The legacy port fields of a kernel port answer into `ibv_port_attr`
/// (`copy_query_port_resp_to_port_attr`); `port_cap_flags2` and `active_speed_ex` are not
/// touched.
fn port_resp_to_attr(a: &mut ibv_port_attr, r: &ib_uverbs_query_port_resp) {
    a.state = r.state.into();
    a.max_mtu = r.max_mtu.into();
    a.active_mtu = r.active_mtu.into();
    a.gid_tbl_len = r.gid_tbl_len as i32;
    a.port_cap_flags = r.port_cap_flags;
    a.max_msg_sz = r.max_msg_sz;
    a.bad_pkey_cntr = r.bad_pkey_cntr;
    a.qkey_viol_cntr = r.qkey_viol_cntr;
    a.pkey_tbl_len = r.pkey_tbl_len;
    a.lid = r.lid;
    a.sm_lid = r.sm_lid;
    a.lmc = r.lmc;
    a.max_vl_num = r.max_vl_num;
    a.sm_sl = r.sm_sl;
    a.subnet_timeout = r.subnet_timeout;
    a.init_type_reply = r.init_type_reply;
    a.active_width = r.active_width;
    a.active_speed = r.active_speed;
    a.phys_state = r.phys_state;
    a.link_layer = r.link_layer;
    a.flags = r.flags;
}

/// `ibv_cmd_query_port`: `UVERBS_METHOD_QUERY_PORT` (answer `ib_uverbs_query_port_resp_ex`:
/// the legacy fields plus `port_cap_flags2` and `active_speed_ex`), falling back to
/// `IB_USER_VERBS_CMD_QUERY_PORT` with the provider's `req` (`struct ibv_query_port` plus driver
/// data, `cmd_size` bytes), which fills only the legacy fields. Fields not answered keep the
/// caller's values.
pub fn query_port(
    ctx: Ctx<'_>,
    port_num: u8,
    attr: &mut ibv_port_attr,
    req: &mut [u8],
) -> Result<()> {
    let mut resp_ex: ib_uverbs_query_port_resp_ex = pod::zeroed();
    let via = {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::QUERY_PORT);
        cmd.in_u64(UVERBS_ATTR_QUERY_PORT_PORT_NUM, port_num.into());
        cmd.out_pod(UVERBS_ATTR_QUERY_PORT_RESP, &mut resp_ex);
        execute_ioctl_fallback(ctx, op::QUERY_PORT, &mut cmd)?
    };
    match via {
        Fallback::Success => {
            port_resp_to_attr(attr, &resp_ex.legacy_resp);
            attr.port_cap_flags2 = resp_ex.port_cap_flags2;
            attr.active_speed_ex = resp_ex.active_speed_ex;
            Ok(())
        }
        Fallback::TryWrite => {
            put_field!(req, CMD_HDR_SIZE; ib_uverbs_query_port, port_num, port_num)?;
            put_field!(req, CMD_HDR_SIZE; ib_uverbs_query_port, reserved, [0u8; 7])?;
            let mut resp: ib_uverbs_query_port_resp = pod::zeroed();
            execute_cmd_write::<ibv_query_port>(ctx, req, bytes_mut(&mut resp))?;
            port_resp_to_attr(attr, &resp);
            Ok(())
        }
        Fallback::TryWriteEx => Err(NO_EX_FALLBACK),
    }
}

/// `ibv_cmd_query_device_any`: the device attributes over the extended write command
/// (`IB_USER_VERBS_EX_CMD_QUERY_DEVICE`) when the caller's `attr` is larger than
/// `struct ibv_device_attr`, else (or if the kernel answers EOPNOTSUPP/ENOSYS) over the legacy
/// `IB_USER_VERBS_CMD_QUERY_DEVICE`. Returns the new `*resp_size` (the kernel's
/// `response_length`; the size of the legacy answer after a legacy query).
///
/// - `input_comp_mask`: `input->comp_mask` (0 for a NULL input); nonzero is EINVAL.
/// - `attr`: the caller's `ibv_device_attr_ex`, `attr_size` bytes: zeroed, then the legacy
///   fields, then each extended field that both `attr` and the kernel's answer are long enough
///   for. `comp_mask`, `fw_ver`, `tso_caps`, `packet_pacing_caps` and `pci_atomic_caps` stay
///   zero (providers fill them).
/// - `resp`: the provider's `ib_uverbs_ex_query_device_resp` plus driver data (`*resp_size`
///   bytes), or None for rdma-core's internal one.
/// - `num_ports`: the device's sysfs port count (`verbs_sysfs_dev.num_ports`), 0 if unknown;
///   asked only when `attr` has room for `phys_port_cnt_ex`.
///
/// Inlined into the export, its only caller (bench rows "mlx5 (emulated): ibv_query_device_ex"
/// 2,944 -> 2,928 instructions, "ibv_query_device" 1,993 -> 1,962).
#[inline(always)]
pub fn query_device_any(
    ctx: Ctx<'_>,
    input_comp_mask: u32,
    attr: &mut [u8],
    resp: Option<&mut [u8]>,
    num_ports: impl FnOnce() -> u32,
) -> Result<usize> {
    const ORIG: usize = size_of::<ibv_device_attr>();
    const RESP: usize = size_of::<ib_uverbs_ex_query_device_resp>();
    if input_comp_mask != 0 || attr.len() < ORIG {
        return Err(Errno::EINVAL);
    }
    let mut internal;
    let resp = match resp {
        Some(r) => r,
        None => {
            internal = [0u8; RESP];
            &mut internal
        }
    };
    zero(attr, 0, attr.len())?;

    let mut attr_size = attr.len();
    if attr_size > ORIG {
        let mut cmd = [0u8; size_of::<ibv_query_device_ex>()];
        match execute_cmd_write_ex::<ibv_query_device_ex>(ctx, &mut cmd, Some(resp)) {
            Ok(()) => {}
            Err(Errno::EOPNOTSUPP | Errno::ENOSYS) => attr_size = ORIG,
            Err(e) => return Err(e),
        }
    }
    if attr_size == ORIG {
        let mut cmd = [0u8; size_of::<ibv_query_device>()];
        let base = resp
            .get_mut(..size_of::<ib_uverbs_query_device_resp>())
            .ok_or(Errno::EINVAL)?;
        execute_cmd_write::<ibv_query_device>(ctx, &mut cmd, base)?;
        put_field!(
            resp,
            ib_uverbs_ex_query_device_resp,
            response_length,
            size_of::<ib_uverbs_query_device_resp>() as u32
        )?;
    }

    fill_device_attr(attr, attr_size, resp, num_ports)
}

/// The copy part of `ibv_cmd_query_device_any` (its `CAN_COPY` rule: the field must fit both
/// the caller's `attr_size` and the kernel's `response_length`): the legacy attributes
/// ([`fill_orig_attr`]), then the extended ones ([`fill_ex_caps`], [`fill_ex_limits`]) and
/// `phys_port_cnt_ex`. Returns the kernel's `response_length`.
#[inline(always)]
fn fill_device_attr(
    attr: &mut [u8],
    attr_size: usize,
    resp: &[u8],
    num_ports: impl FnOnce() -> u32,
) -> Result<usize> {
    // Cut `attr` to `attr_size` once: each `can_copy!` below then also proves its stores in
    // bounds, and the compiler drops their own checks (one comparison per field, not two).
    let attr = attr.get_mut(..attr_size).ok_or(Errno::EINVAL)?;
    // The legacy part first, read on its own: a legacy-sized `attr` (`ibv_query_device`) is
    // done after it, without loading any extended field.
    let b: ib_uverbs_query_device_resp = pod::read(resp);
    fill_orig_attr(attr, &b)?;
    // (A response too short for a field reads it as zero, as the record read below.)
    let len =
        get::<u32>(resp, core::mem::offset_of!(ExResp, response_length)).unwrap_or(0) as usize;
    if attr.len() <= size_of::<ibv_device_attr>() {
        return Ok(len);
    }
    let r: ExResp = pod::read(resp);
    fill_ex_caps(attr, len, &r)?;
    fill_ex_limits(attr, len, &r)?;
    if attr.len() >= end_of!(AttrEx, phys_port_cnt_ex) {
        let n = match num_ports() {
            0 => b.phys_port_cnt.into(),
            n => n,
        };
        put_field!(attr, AttrEx, phys_port_cnt_ex, n)?;
    }
    Ok(len)
}

type AttrEx = ibv_device_attr_ex;
type ExResp = ib_uverbs_ex_query_device_resp;

/// rdma-core's `CAN_COPY`: field `$a` of the caller's `attr` and field `$u` of the kernel's
/// `len` bytes of response are both there.
macro_rules! can_copy {
    ($attr:ident, $len:ident, $($a:ident).+, $($u:ident).+) => {
        $attr.len() >= end_of!(AttrEx, $($a).+) && $len >= end_of!(ExResp, $($u).+)
    };
}

/// [`fill_device_attr`]'s legacy part: `orig_attr` from the legacy response `b`.
#[inline(always)]
fn fill_orig_attr(attr: &mut [u8], b: &ib_uverbs_query_device_resp) -> Result<()> {
    type A = AttrEx;
    macro_rules! orig {
        ($($f:ident),* $(,)?) => {$(
            put_field!(attr, A, orig_attr.$f, b.$f as _)?;
        )*};
    }
    put_field!(attr, A, orig_attr.node_guid, Be64(b.node_guid))?;
    put_field!(attr, A, orig_attr.sys_image_guid, Be64(b.sys_image_guid))?;
    put_field!(attr, A, orig_attr.max_mr_size, b.max_mr_size)?;
    put_field!(attr, A, orig_attr.page_size_cap, b.page_size_cap)?;
    put_field!(attr, A, orig_attr.vendor_id, b.vendor_id)?;
    put_field!(attr, A, orig_attr.vendor_part_id, b.vendor_part_id)?;
    put_field!(attr, A, orig_attr.hw_ver, b.hw_ver)?;
    orig!(
        max_qp,
        max_qp_wr,
        max_sge,
        max_sge_rd,
        max_cq,
        max_cqe,
        max_mr,
        max_pd,
        max_qp_rd_atom,
        max_ee_rd_atom,
        max_res_rd_atom,
        max_qp_init_rd_atom,
        max_ee_init_rd_atom,
        max_ee,
        max_rdd,
        max_mw,
        max_raw_ipv6_qp,
        max_raw_ethy_qp,
        max_mcast_grp,
        max_mcast_qp_attach,
        max_total_mcast_qp_attach,
        max_ah,
        max_fmr,
        max_map_per_fmr,
        max_srq,
        max_srq_wr,
        max_srq_sge,
    );
    put_field!(attr, A, orig_attr.device_cap_flags, b.device_cap_flags)?;
    put_field!(attr, A, orig_attr.atomic_cap, b.atomic_cap.into())?;
    put_field!(attr, A, orig_attr.max_pkeys, b.max_pkeys)?;
    put_field!(attr, A, orig_attr.local_ca_ack_delay, b.local_ca_ack_delay)?;
    put_field!(attr, A, orig_attr.phys_port_cnt, b.phys_port_cnt)?;
    Ok(())
}

/// [`fill_device_attr`]'s first extended fields: ODP caps, timestamp mask, core clock,
/// extended capability flags and RSS caps, each where it can be copied.
#[inline(always)]
fn fill_ex_caps(attr: &mut [u8], len: usize, r: &ExResp) -> Result<()> {
    type A = AttrEx;
    if can_copy!(attr, len, odp_caps, odp_caps) {
        let o = &r.odp_caps;
        put_field!(attr, A, odp_caps.general_caps, o.general_caps)?;
        let t = &o.per_transport_caps;
        put_field!(
            attr,
            A,
            odp_caps.per_transport_caps.rc_odp_caps,
            t.rc_odp_caps
        )?;
        put_field!(
            attr,
            A,
            odp_caps.per_transport_caps.uc_odp_caps,
            t.uc_odp_caps
        )?;
        put_field!(
            attr,
            A,
            odp_caps.per_transport_caps.ud_odp_caps,
            t.ud_odp_caps
        )?;
    }
    if can_copy!(attr, len, completion_timestamp_mask, timestamp_mask) {
        put_field!(attr, A, completion_timestamp_mask, r.timestamp_mask)?;
    }
    if can_copy!(attr, len, hca_core_clock, hca_core_clock) {
        put_field!(attr, A, hca_core_clock, r.hca_core_clock)?;
    }
    if can_copy!(attr, len, device_cap_flags_ex, device_cap_flags_ex) {
        put_field!(attr, A, device_cap_flags_ex, r.device_cap_flags_ex)?;
    }
    if can_copy!(attr, len, rss_caps, rss_caps) {
        let c = &r.rss_caps;
        put_field!(attr, A, rss_caps.supported_qpts, c.supported_qpts)?;
        put_field!(
            attr,
            A,
            rss_caps.max_rwq_indirection_tables,
            c.max_rwq_indirection_tables
        )?;
        put_field!(
            attr,
            A,
            rss_caps.max_rwq_indirection_table_size,
            c.max_rwq_indirection_table_size
        )?;
    }
    Ok(())
}

/// [`fill_device_attr`]'s later extended fields: WQ, raw packet, tag matching, CQ moderation,
/// device memory and XRC ODP limits, each where it can be copied.
#[inline(always)]
fn fill_ex_limits(attr: &mut [u8], len: usize, r: &ExResp) -> Result<()> {
    type A = AttrEx;
    if can_copy!(attr, len, max_wq_type_rq, max_wq_type_rq) {
        put_field!(attr, A, max_wq_type_rq, r.max_wq_type_rq)?;
    }
    if can_copy!(attr, len, raw_packet_caps, raw_packet_caps) {
        put_field!(attr, A, raw_packet_caps, r.raw_packet_caps)?;
    }
    if can_copy!(attr, len, tm_caps, tm_caps) {
        let c = &r.tm_caps;
        put_field!(attr, A, tm_caps.max_rndv_hdr_size, c.max_rndv_hdr_size)?;
        put_field!(attr, A, tm_caps.max_num_tags, c.max_num_tags)?;
        put_field!(attr, A, tm_caps.flags, c.flags)?;
        put_field!(attr, A, tm_caps.max_ops, c.max_ops)?;
        put_field!(attr, A, tm_caps.max_sge, c.max_sge)?;
    }
    if can_copy!(attr, len, cq_mod_caps, cq_moderation_caps) {
        let c = &r.cq_moderation_caps;
        put_field!(attr, A, cq_mod_caps.max_cq_count, c.max_cq_moderation_count)?;
        put_field!(
            attr,
            A,
            cq_mod_caps.max_cq_period,
            c.max_cq_moderation_period
        )?;
    }
    if can_copy!(attr, len, max_dm_size, max_dm_size) {
        put_field!(attr, A, max_dm_size, r.max_dm_size)?;
    }
    if can_copy!(attr, len, xrc_odp_caps, xrc_odp_caps) {
        put_field!(attr, A, xrc_odp_caps, r.xrc_odp_caps)?;
    }
    Ok(())
}

/// Who answered a GID query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GidVia {
    /// The kernel filled the entry (or table) by ioctl.
    Kernel,
    /// The kernel has no GID ioctls: read sysfs instead (rdma-core's fallback, done by the caller).
    Sysfs,
}

/// `__ibv_query_gid_ex`, kernel part: `UVERBS_METHOD_QUERY_GID_ENTRY` into the caller's
/// `entry` (`entry_size` bytes). Nonzero `flags` cannot fall back: EOPNOTSUPP.
pub fn query_gid_entry(
    ctx: Ctx<'_>,
    port_num: u32,
    gid_index: u32,
    flags: u32,
    entry: &mut [u8],
) -> Result<GidVia> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::QUERY_GID_ENTRY);
    cmd.in_u64(UVERBS_ATTR_QUERY_GID_ENTRY_PORT, port_num.into());
    cmd.in_u64(UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, gid_index.into());
    cmd.in_u32(UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, flags);
    cmd.out(UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, entry);
    // rdma-core files both GID queries under the async_event bit (no ops slot of their own).
    match execute_ioctl_fallback(ctx, op::ASYNC_EVENT, &mut cmd)? {
        Fallback::Success => Ok(GidVia::Kernel),
        Fallback::TryWrite if flags != 0 => Err(Errno::EOPNOTSUPP),
        Fallback::TryWrite => Ok(GidVia::Sysfs),
        Fallback::TryWriteEx => Err(NO_EX_FALLBACK),
    }
}

/// `_ibv_query_gid_table`, kernel part: `UVERBS_METHOD_QUERY_GID_TABLE` into the caller's
/// `entries` (`max_entries * entry_size` bytes; None when that product overflows, which fails
/// like rdma-core's SIZE_MAX length). Returns the number of entries the kernel wrote.
pub fn query_gid_table(
    ctx: Ctx<'_>,
    flags: u32,
    entry_size: usize,
    entries: Option<&mut [u8]>,
) -> Result<(GidVia, u64)> {
    let mut num_entries: u64 = 0;
    let via = {
        let mut arg = IoctlArg::new();
        let mut cmd = IoctlCmd::of(&mut arg, methods::QUERY_GID_TABLE);
        cmd.in_u64(UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, entry_size as u64);
        cmd.in_u32(UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, flags);
        match entries {
            Some(e) => cmd.out(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, e),
            None => cmd.out_addr(UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES, 0, usize::MAX),
        };
        cmd.out_pod(
            UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES,
            &mut num_entries,
        );
        execute_ioctl_fallback(ctx, op::ASYNC_EVENT, &mut cmd)?
    };
    match via {
        Fallback::Success => Ok((GidVia::Kernel, num_entries)),
        Fallback::TryWrite if flags != 0 => Err(Errno::EOPNOTSUPP),
        Fallback::TryWrite => Ok((GidVia::Sysfs, 0)),
        Fallback::TryWriteEx => Err(NO_EX_FALLBACK),
    }
}
