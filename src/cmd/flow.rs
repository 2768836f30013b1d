//! Flow steering commands (rdma-core: `libibverbs/cmd.c`: `ibv_cmd_create_flow` with its spec
//! conversion `ib_spec_to_kern_spec`; `cmd_flow.c`: `ibv_cmd_destroy_flow`;
//! `cmd_flow_action.c`: the ESP flow action commands).
#![forbid(unsafe_code)]

use core::mem::offset_of;

use super::Ctx;
use super::fallback::{Fallback, destroy_result, execute_ioctl_fallback, op};
use super::ioctl::{Driver, IoctlArg, IoctlCmd, execute_ioctl, execute_linked};
use super::methods;
use super::wire::{end_of, get, put, put_field, size_of_field};
use super::write::{EX_HDR_SIZE, execute_cmd_write_ex_full, execute_cmd_write_ex_req};
use crate::abi::kern_abi::{ibv_create_flow, ibv_destroy_flow, ibv_kern_spec_ipv4};
use crate::abi::uapi::*;
use crate::abi::verbs::ibv_flow_spec_type::{self, *};
use crate::abi::verbs::{
    ibv_flow_spec_action_drop, ibv_flow_spec_action_handle, ibv_flow_spec_action_tag,
    ibv_flow_spec_counter_action, ibv_flow_spec_esp, ibv_flow_spec_eth, ibv_flow_spec_gre,
    ibv_flow_spec_ipv4, ibv_flow_spec_mpls, ibv_flow_spec_tcp_udp,
};
use crate::errno::{Errno, Result};

/// `ibv_cmd_destroy_flow`: `UVERBS_METHOD_FLOW_DESTROY`, falling back to
/// `IB_USER_VERBS_EX_CMD_DESTROY_FLOW` (rdma-core files it under the destroy_ah bit).
pub fn destroy_flow(
    ctx: Ctx<'_>,
    flow_handle: u32,
    allow_disassociate_destroy: bool,
) -> Result<()> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::FLOW_DESTROY);
    cmd.in_obj(UVERBS_ATTR_DESTROY_FLOW_HANDLE, flow_handle);
    let r = match execute_ioctl_fallback(ctx, op::DESTROY_AH, &mut cmd) {
        Ok(Fallback::TryWrite) => {
            let mut req = [0u8; size_of::<ibv_destroy_flow>()];
            put_field!(&mut req, EX_HDR_SIZE; ib_uverbs_destroy_flow, flow_handle, flow_handle)?;
            execute_cmd_write_ex_req::<ibv_destroy_flow>(ctx, &mut req)
        }
        Ok(Fallback::Success) => Ok(()),
        Ok(Fallback::TryWriteEx) => Err(Errno::EOPNOTSUPP),
        Err(e) => Err(e),
    };
    destroy_result(r, allow_disassociate_destroy)
}

/// `ibv_cmd_destroy_flow_action`: `UVERBS_METHOD_FLOW_ACTION_DESTROY` (ioctl only).
pub fn destroy_flow_action(
    ctx: Ctx<'_>,
    handle: u32,
    allow_disassociate_destroy: bool,
) -> Result<()> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::FLOW_ACTION_DESTROY);
    cmd.in_obj(UVERBS_ATTR_DESTROY_FLOW_ACTION_HANDLE, handle);
    destroy_result(execute_ioctl(ctx, &mut cmd), allow_disassociate_destroy)
}

/// The objects a flow spec may name by address, for the caller to turn into kernel handles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecObj {
    /// `ibv_flow_spec_action_handle.action`: a `verbs_flow_action`'s `action` member.
    FlowAction,
    /// `ibv_flow_spec_counter_action.counters`: a `verbs_counters`' `counters` member.
    Counters,
}

/// Size of the header `ibv_flow_spec` and `ib_uverbs_flow_spec_hdr` start with.
const SPEC_HDR: usize = 8;
const INNER: u32 = IBV_FLOW_SPEC_INNER as u32;

/// The spec type without the inner bit, for the types that may carry it.
fn base_type(t: u32) -> u32 {
    let b = t & !INNER;
    let may_be_inner = [
        IBV_FLOW_SPEC_ETH,
        IBV_FLOW_SPEC_IPV4,
        IBV_FLOW_SPEC_IPV4_EXT,
        IBV_FLOW_SPEC_IPV6,
        IBV_FLOW_SPEC_ESP,
        IBV_FLOW_SPEC_TCP,
        IBV_FLOW_SPEC_UDP,
        IBV_FLOW_SPEC_MPLS,
    ];
    if t & INNER != 0 && may_be_inner.iter().any(|&x| x as u32 == b) {
        b
    } else {
        t
    }
}

/// How many bytes of an application spec of type `t` and declared `size` the conversion reads
/// (its fixed struct, or `size` for the variable-length filters; just the header for an
/// unknown type).
pub fn ib_spec_read_len(t: u32, size: u16) -> usize {
    let t = base_type(t);
    let is = |x: ibv_flow_spec_type| t == x as u32;
    if is(IBV_FLOW_SPEC_ETH) {
        size_of::<ibv_flow_spec_eth>()
    } else if is(IBV_FLOW_SPEC_IPV4) {
        size_of::<ibv_flow_spec_ipv4>()
    } else if is(IBV_FLOW_SPEC_IPV4_EXT) || is(IBV_FLOW_SPEC_IPV6) || is(IBV_FLOW_SPEC_VXLAN_TUNNEL)
    {
        usize::from(size).max(SPEC_HDR)
    } else if is(IBV_FLOW_SPEC_ESP) {
        size_of::<ibv_flow_spec_esp>()
    } else if is(IBV_FLOW_SPEC_TCP) || is(IBV_FLOW_SPEC_UDP) {
        size_of::<ibv_flow_spec_tcp_udp>()
    } else if is(IBV_FLOW_SPEC_GRE) {
        size_of::<ibv_flow_spec_gre>()
    } else if is(IBV_FLOW_SPEC_MPLS) {
        size_of::<ibv_flow_spec_mpls>()
    } else if is(IBV_FLOW_SPEC_ACTION_TAG) {
        size_of::<ibv_flow_spec_action_tag>()
    } else if is(IBV_FLOW_SPEC_ACTION_DROP) {
        size_of::<ibv_flow_spec_action_drop>()
    } else if is(IBV_FLOW_SPEC_ACTION_HANDLE) {
        size_of::<ibv_flow_spec_action_handle>()
    } else if is(IBV_FLOW_SPEC_ACTION_COUNT) {
        size_of::<ibv_flow_spec_counter_action>()
    } else {
        SPEC_HDR
    }
}

/// A kernel spec of `size` bytes: header (`type`, `size`), zeroes after it.
fn kern(t: u32, size: usize) -> Result<Vec<u8>> {
    let mut k = vec![0u8; size];
    put(&mut k, 0, t)?;
    put(&mut k, 4, size as u16)?;
    Ok(k)
}

/// Copy `len` bytes of `ib` at `from` into `k` at `to`.
fn copy(k: &mut [u8], to: usize, ib: &[u8], from: usize, len: usize) -> Result<()> {
    let src = ib.get(from..from + len).ok_or(Errno::EINVAL)?;
    k.get_mut(to..to + len)
        .ok_or(Errno::EINVAL)?
        .copy_from_slice(src);
    Ok(())
}

/// A value/mask spec whose filters are copied whole: `val` and `mask` of `ib` (at `ib_val`,
/// `ib_mask`) into a kernel spec of `ksize` bytes with `val` at 8 and `mask` right after it.
fn fixed(
    t: u32,
    ib: &[u8],
    ib_val: usize,
    ib_mask: usize,
    flen: usize,
    ksize: usize,
) -> Result<Vec<u8>> {
    let mut k = kern(t, ksize)?;
    copy(&mut k, SPEC_HDR, ib, ib_val, flen)?;
    copy(&mut k, SPEC_HDR + flen, ib, ib_mask, flen)?;
    Ok(k)
}

/// rdma-core's `get_filters_size` + copy for the variable-length filters (IPv4 extended, IPv6,
/// VXLAN): the application's filter size is half of what follows the header; the kernel takes
/// up to `kern_len` bytes of each half, which must be at least `min_len`; mask bytes beyond
/// what the kernel takes must be zero (else EOPNOTSUPP).
fn variable(
    t: u32,
    ib: &[u8],
    min_len: usize,
    kern_len: usize,
    ksize: usize,
    kval_len: usize,
) -> Result<Vec<u8>> {
    let size: u16 = get(ib, 4)?;
    let ib_len = usize::from(size)
        .checked_sub(SPEC_HDR)
        .ok_or(Errno::EINVAL)?
        / 2;
    if ib_len < min_len {
        return Err(Errno::EINVAL);
    }
    let mask_at = SPEC_HDR + ib_len;
    if ib_len > kern_len {
        let rest = ib
            .get(mask_at + kern_len..mask_at + ib_len)
            .ok_or(Errno::EINVAL)?;
        if rest.iter().any(|&b| b != 0) {
            return Err(Errno::EOPNOTSUPP);
        }
    }
    let n = kern_len.min(ib_len);
    let mut k = kern(t, ksize)?;
    copy(&mut k, SPEC_HDR, ib, SPEC_HDR, n)?;
    copy(&mut k, SPEC_HDR + kval_len, ib, mask_at, n)?;
    Ok(k)
}

/// rdma-core's `ib_spec_to_kern_spec`: one application flow spec (`ib`, at least
/// [`ib_spec_read_len`] bytes) as the kernel spec bytes (their length is the kernel header's
/// `size`). `resolve` turns an object address named by an action spec into its handle.
/// Unknown types, and filters too short, are EINVAL.
pub fn kern_spec(
    ib: &[u8],
    resolve: &mut dyn FnMut(SpecObj, u64) -> Result<u32>,
) -> Result<Vec<u8>> {
    let t: u32 = get(ib, 0)?;
    filter_spec(t, ib, resolve)
}

/// [`kern_spec`] of a filter spec (its type `t` without the inner bit names the header it
/// matches); any other type goes on to [`action_spec`].
fn filter_spec(
    t: u32,
    ib: &[u8],
    resolve: &mut dyn FnMut(SpecObj, u64) -> Result<u32>,
) -> Result<Vec<u8>> {
    let b = base_type(t);
    let is = |x: ibv_flow_spec_type| b == x as u32;
    macro_rules! fixed_spec {
        ($ib:ty, $k:ty) => {
            fixed(
                t,
                ib,
                offset_of!($ib, val),
                offset_of!($ib, mask),
                size_of_field(|x: $ib| x.val),
                size_of::<$k>(),
            )
        };
    }
    if is(IBV_FLOW_SPEC_ETH) {
        fixed_spec!(ibv_flow_spec_eth, ib_uverbs_flow_spec_eth)
    } else if is(IBV_FLOW_SPEC_IPV4) {
        fixed_spec!(ibv_flow_spec_ipv4, ibv_kern_spec_ipv4)
    } else if is(IBV_FLOW_SPEC_IPV4_EXT) {
        // Sent as an IPv4 spec (the extended filter in the kernel's IPv4 layout).
        let min = end_of!(ib_uverbs_flow_ipv4_filter, flags);
        let kt = IBV_FLOW_SPEC_IPV4 as u32 | (t & INNER);
        let kval = size_of::<ib_uverbs_flow_ipv4_filter>();
        variable(
            kt,
            ib,
            min,
            min,
            size_of::<ib_uverbs_flow_spec_ipv4>(),
            kval,
        )
    } else if is(IBV_FLOW_SPEC_IPV6) {
        let min = end_of!(ib_uverbs_flow_ipv6_filter, hop_limit);
        let kval = size_of::<ib_uverbs_flow_ipv6_filter>();
        variable(t, ib, min, min, size_of::<ib_uverbs_flow_spec_ipv6>(), kval)
    } else if is(IBV_FLOW_SPEC_ESP) {
        fixed(
            t,
            ib,
            offset_of!(ibv_flow_spec_esp, val),
            offset_of!(ibv_flow_spec_esp, mask),
            size_of::<ib_uverbs_flow_spec_esp_filter>(),
            size_of::<ib_uverbs_flow_spec_esp>(),
        )
    } else if is(IBV_FLOW_SPEC_TCP) || is(IBV_FLOW_SPEC_UDP) {
        fixed_spec!(ibv_flow_spec_tcp_udp, ib_uverbs_flow_spec_tcp_udp)
    } else if t == IBV_FLOW_SPEC_GRE as u32 {
        fixed_spec!(ibv_flow_spec_gre, ib_uverbs_flow_spec_gre)
    } else if is(IBV_FLOW_SPEC_MPLS) {
        fixed_spec!(ibv_flow_spec_mpls, ib_uverbs_flow_spec_mpls)
    } else if t == IBV_FLOW_SPEC_VXLAN_TUNNEL as u32 {
        let min = end_of!(ib_uverbs_flow_tunnel_filter, tunnel_id);
        let kval = size_of::<ib_uverbs_flow_tunnel_filter>();
        variable(
            t,
            ib,
            min,
            min,
            size_of::<ib_uverbs_flow_spec_tunnel>(),
            kval,
        )
    } else {
        action_spec(t, ib, resolve)
    }
}

/// [`kern_spec`] of an action spec (tag, drop, a flow action's or counters' handle); EINVAL
/// for any other type.
fn action_spec(
    t: u32,
    ib: &[u8],
    resolve: &mut dyn FnMut(SpecObj, u64) -> Result<u32>,
) -> Result<Vec<u8>> {
    if t == IBV_FLOW_SPEC_ACTION_TAG as u32 {
        let mut k = kern(t, size_of::<ib_uverbs_flow_spec_action_tag>())?;
        let tag: u32 = get(ib, offset_of!(ibv_flow_spec_action_tag, tag_id))?;
        put(
            &mut k,
            offset_of!(ib_uverbs_flow_spec_action_tag, tag_id),
            tag,
        )?;
        Ok(k)
    } else if t == IBV_FLOW_SPEC_ACTION_DROP as u32 {
        kern(t, size_of::<ib_uverbs_flow_spec_action_drop>())
    } else if t == IBV_FLOW_SPEC_ACTION_HANDLE as u32 {
        let mut k = kern(t, size_of::<ib_uverbs_flow_spec_action_handle>())?;
        let p: u64 = get(ib, offset_of!(ibv_flow_spec_action_handle, action))?;
        put(
            &mut k,
            offset_of!(ib_uverbs_flow_spec_action_handle, handle),
            resolve(SpecObj::FlowAction, p)?,
        )?;
        Ok(k)
    } else if t == IBV_FLOW_SPEC_ACTION_COUNT as u32 {
        let mut k = kern(t, size_of::<ib_uverbs_flow_spec_action_count>())?;
        let p: u64 = get(ib, offset_of!(ibv_flow_spec_counter_action, counters))?;
        put(
            &mut k,
            offset_of!(ib_uverbs_flow_spec_action_count, handle),
            resolve(SpecObj::Counters, p)?,
        )?;
        Ok(k)
    } else {
        Err(Errno::EINVAL)
    }
}

/// The rule fields of `ibv_flow_attr` the kernel takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FlowAttr {
    pub r#type: u32,
    pub priority: u16,
    pub num_of_specs: u8,
    pub port: u8,
    pub flags: u32,
}

/// `ibv_cmd_create_flow`: `IB_USER_VERBS_EX_CMD_CREATE_FLOW` with the converted `specs` (each
/// from [`kern_spec`]) after the rule header, then the provider's `ucmd` as driver data.
/// Returns the flow handle.
pub fn create_flow(
    ctx: Ctx<'_>,
    qp_handle: u32,
    attr: &FlowAttr,
    specs: &[Vec<u8>],
    ucmd: &[u8],
) -> Result<u32> {
    type C = ib_uverbs_create_flow;
    let specs_len: usize = specs.iter().map(Vec::len).sum();
    let core = size_of::<ibv_create_flow>()
        .checked_add(specs_len)
        .ok_or(Errno::ENOMEM)?;
    // The provider's `ucmd_size` sizes this: fallible.
    let mut req = Vec::new();
    req.try_reserve_exact(core.checked_add(ucmd.len()).ok_or(Errno::ENOMEM)?)
        .map_err(|_| Errno::ENOMEM)?;
    req.resize(size_of::<ibv_create_flow>(), 0);
    put_field!(&mut req, EX_HDR_SIZE; C, qp_handle, qp_handle)?;
    put_field!(&mut req, EX_HDR_SIZE; C, flow_attr.r#type, attr.r#type)?;
    put_field!(&mut req, EX_HDR_SIZE; C, flow_attr.size, specs_len as u16)?;
    put_field!(&mut req, EX_HDR_SIZE; C, flow_attr.priority, attr.priority)?;
    put_field!(&mut req, EX_HDR_SIZE; C, flow_attr.num_of_specs, attr.num_of_specs)?;
    put_field!(&mut req, EX_HDR_SIZE; C, flow_attr.port, attr.port)?;
    put_field!(&mut req, EX_HDR_SIZE; C, flow_attr.flags, attr.flags)?;
    for s in specs {
        req.extend_from_slice(s);
    }
    req.extend_from_slice(ucmd);
    let mut resp = [0u8; size_of::<ib_uverbs_create_flow_resp>()];
    execute_cmd_write_ex_full::<ibv_create_flow>(
        ctx,
        &mut req,
        core,
        Some(&mut resp),
        size_of::<ib_uverbs_create_flow_resp>(),
    )?;
    get(&resp, offset_of!(ib_uverbs_create_flow_resp, flow_handle))
}

/// The optional attributes of an ESP flow action (`ibv_flow_action_esp_attr`), as the caller's
/// bytes: each present one becomes an ioctl attribute (up to 8 bytes inline, else by address).
#[derive(Clone, Copy, Debug, Default)]
pub struct EspAttrs<'a> {
    /// `esn`, with `IBV_FLOW_ACTION_ESP_MASK_ESN`.
    pub esn: Option<u32>,
    /// `keymat_proto` (as the enum element) and the key material.
    pub keymat: Option<(u8, &'a [u8])>,
    /// `replay_proto` and the replay state.
    pub replay: Option<(u8, &'a [u8])>,
    /// The `ib_uverbs_flow_action_esp_encap` record.
    pub encap: Option<&'a [u8]>,
    /// The `ib_uverbs_flow_action_esp` record.
    pub attrs: Option<&'a [u8]>,
}

/// rdma-core's `copy_flow_action_esp`.
fn fill_esp<'a>(cmd: &mut IoctlCmd<'a>, e: &EspAttrs<'a>) {
    if let Some(esn) = e.esn {
        cmd.in_u32(UVERBS_ATTR_FLOW_ACTION_ESP_ESN, esn);
    }
    if let Some((proto, k)) = e.keymat {
        cmd.in_enum(UVERBS_ATTR_FLOW_ACTION_ESP_KEYMAT, proto, k);
    }
    if let Some((proto, r)) = e.replay {
        cmd.in_enum(UVERBS_ATTR_FLOW_ACTION_ESP_REPLAY, proto, r);
    }
    if let Some(b) = e.encap {
        cmd.in_bytes(UVERBS_ATTR_FLOW_ACTION_ESP_ENCAP, b);
    }
    if let Some(b) = e.attrs {
        cmd.in_bytes(UVERBS_ATTR_FLOW_ACTION_ESP_ATTRS, b);
    }
}

/// `ibv_cmd_create_flow_action_esp`: `UVERBS_METHOD_FLOW_ACTION_ESP_CREATE` (ioctl only) with
/// the provider's `driver` chain. Returns the action handle.
pub fn create_flow_action_esp(
    ctx: Ctx<'_>,
    e: &EspAttrs<'_>,
    driver: &mut dyn Driver,
) -> Result<u32> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::FLOW_ACTION_ESP_CREATE);
    let h = cmd.out_obj(UVERBS_ATTR_CREATE_FLOW_ACTION_ESP_HANDLE);
    fill_esp(&mut cmd, e);
    execute_linked(ctx, &mut cmd, driver)?;
    Ok(cmd.attr(h).map_or(0, |a| a.data as u32))
}

/// `ibv_cmd_modify_flow_action_esp`: `UVERBS_METHOD_FLOW_ACTION_ESP_MODIFY` (ioctl only).
pub fn modify_flow_action_esp(
    ctx: Ctx<'_>,
    handle: u32,
    e: &EspAttrs<'_>,
    driver: &mut dyn Driver,
) -> Result<()> {
    let mut arg = IoctlArg::new();
    let mut cmd = IoctlCmd::of(&mut arg, methods::FLOW_ACTION_ESP_MODIFY);
    cmd.in_obj(UVERBS_ATTR_MODIFY_FLOW_ACTION_ESP_HANDLE, handle);
    fill_esp(&mut cmd, e);
    execute_linked(ctx, &mut cmd, driver)
}

const _: () = {
    use crate::abi::verbs::{ibv_flow_spec_ipv4_ext, ibv_flow_spec_ipv6, ibv_flow_spec_tunnel};
    // The variable-length filters start right after the header, on both sides.
    assert!(offset_of!(ibv_flow_spec_ipv4_ext, val) == SPEC_HDR);
    assert!(offset_of!(ibv_flow_spec_ipv6, val) == SPEC_HDR);
    assert!(offset_of!(ibv_flow_spec_tunnel, val) == SPEC_HDR);
    assert!(offset_of!(ib_uverbs_flow_spec_ipv4, val) == SPEC_HDR);
    assert!(offset_of!(ib_uverbs_flow_spec_ipv6, val) == SPEC_HDR);
    assert!(offset_of!(ib_uverbs_flow_spec_tunnel, val) == SPEC_HDR);
    // The fixed ones: the kernel's value right after the header, its mask right after the
    // value, each as long as the application's filter.
    assert!(
        offset_of!(ib_uverbs_flow_spec_eth, mask)
            == SPEC_HDR + size_of::<crate::abi::verbs::ibv_flow_eth_filter>()
    );
    assert!(
        offset_of!(ibv_kern_spec_ipv4, mask)
            == SPEC_HDR + size_of::<crate::abi::verbs::ibv_flow_ipv4_filter>()
    );
    assert!(
        offset_of!(ib_uverbs_flow_spec_tcp_udp, mask)
            == SPEC_HDR + size_of::<crate::abi::verbs::ibv_flow_tcp_udp_filter>()
    );
    assert!(
        offset_of!(ib_uverbs_flow_spec_gre, mask)
            == SPEC_HDR + size_of::<crate::abi::verbs::ibv_flow_gre_filter>()
    );
    assert!(
        offset_of!(ib_uverbs_flow_spec_mpls, mask)
            == SPEC_HDR + size_of::<crate::abi::verbs::ibv_flow_mpls_filter>()
    );
    assert!(
        offset_of!(ib_uverbs_flow_spec_esp, mask)
            == SPEC_HDR + size_of::<ib_uverbs_flow_spec_esp_filter>()
    );
};
