//! Address handles (rdma-core: verbs.c `ibv_create_ah`, `ibv_destroy_ah`,
//! `ibv_init_ah_from_wc`, `ibv_create_ah_from_wc`, `ibv_resolve_eth_l2_from_gid`; cmd.c and
//! cmd_ah.c for the provider's commands).
//!
//! The public verbs hand the call to the context's op and fill in what rdma-core's verb fills
//! in; `init_from_wc` rebuilds an address vector from a received completion and its GRH (RoCE v2
//! over IPv4 or IPv6, IB/RoCE v1), finding the local GID index the packet was sent to;
//! `resolve_eth_l2` has its logic in [`crate::device::neigh`]. The provider's commands go to
//! [`cmd::ah`](crate::cmd::ah). Called by [`capi::ah`](crate::capi::ah) (and the 1.0 twins).
use core::ffi::{c_int, c_uint};

use crate::abi::driver::ibv_gid_type_sysfs::{
    IBV_GID_TYPE_SYSFS_IB_ROCE_V1, IBV_GID_TYPE_SYSFS_ROCE_V2,
};
use crate::abi::driver::verbs_query_gid_attr_mask::{
    VERBS_QUERY_GID_ATTR_GID, VERBS_QUERY_GID_ATTR_TYPE,
};
use crate::abi::verbs::ibv_wc_flags::IBV_WC_GRH;
use crate::abi::verbs::{ibv_ah, ibv_ah_attr, ibv_context, ibv_gid_entry, ibv_grh, ibv_wc};
use crate::device::neigh;
use crate::device::rtnl_io::KernelRouteIo;
use crate::errno::{Errno, Result};
use crate::verbs::handle::{Ah, Ctx, Pd, Ptr, set};

/// `ibv_create_ah`: a new AH from the provider's `create_ah` on the caller's attributes (passed
/// as they are), its `context` and `pd` set; the provider's errno when it fails.
#[inline]
pub(crate) fn create(pd: Pd, attr: *mut ibv_ah_attr) -> Result<*mut ibv_ah> {
    let op = pd.ops().create_ah.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own PD and the caller's attributes.
    let ah = unsafe { op(pd.raw(), attr) };
    if ah.is_null() {
        return Err(Errno(crate::sys::errno()));
    }
    // SAFETY: the provider's new AH, not yet handed out.
    unsafe { (*ah).context = pd.context() };
    // SAFETY: the same new AH, not yet handed out; `pd` is a plain field of it.
    unsafe { (*ah).pd = pd.raw() };
    Ok(ah)
}

/// `ibv_destroy_ah`: the provider's `destroy_ah` status, errno as the provider left it; a missing
/// op answers EOPNOTSUPP with errno untouched, as rdma-core's default op does.
#[inline]
pub(crate) fn destroy(ah: Ah) -> c_int {
    match ah.ops().destroy_ah {
        // SAFETY: the provider's op on its own AH.
        Some(op) => unsafe { op(ah.raw()) },
        None => libc::EOPNOTSUPP,
    }
}

/// Byte offset of the IPv4 header inside the 40-byte GRH buffer of a RoCE v2 IPv4 packet.
const IP4_AT: usize = 20;
/// `next_hdr` of an IB/RoCE v1 GRH.
const IB_NEXT_HDR: u8 = 0x1b;
/// `next_hdr` of RoCE v2 over IPv6.
const NEXT_HDR_UDP: u8 = 17;

/// The IP version of a received GRH buffer (rdma-core's `get_grh_header_version`): an IPv6
/// header says 6, unless the bytes 20..40 hold an IPv4 header (IHL 5) with a valid checksum;
/// otherwise an IPv4 version nibble at byte 20 says 4; anything else is EPROTONOSUPPORT.
pub(crate) fn grh_version(grh: &[u8; 40]) -> Result<u8> {
    let ip6 = grh[0] >> 4;
    let ip4 = &grh[IP4_AT..];
    let (version, ihl) = (ip4[0] >> 4, ip4[0] & 0xf);
    if ip6 != 6 {
        return if version == 4 {
            Ok(4)
        } else {
            Err(Errno::EPROTONOSUPPORT)
        };
    }
    if ihl != 5 {
        return Ok(6);
    }
    // The header checksum as rdma-core computes it: native 16-bit words with the check field
    // zeroed, the carry folded once, complemented.
    let word = |i: usize| u32::from(u16::from_ne_bytes([ip4[2 * i], ip4[2 * i + 1]]));
    let sum: u32 = (0..10).filter(|&i| i != 5).map(word).sum();
    let sum = (sum & 0xffff) + (sum >> 16);
    let check = !sum as u16;
    Ok(if u16::from_ne_bytes([ip4[10], ip4[11]]) == check {
        4
    } else {
        6
    })
}

/// The IPv4-mapped IPv6 address `::ffff:a.b.c.d` as a GID.
fn v4_mapped(addr: &[u8]) -> [u8; 16] {
    let mut g = [0u8; 16];
    g[10] = 0xff;
    g[11] = 0xff;
    g[12..16].copy_from_slice(&addr[..4]);
    g
}

/// One GID table entry's `mask` part (`ibv_query_gid`/`ibv_query_gid_type` through the
/// kernel), or the kernel's error (ENODATA for an empty slot).
fn gid_entry(ctx: Ctx, port: u8, index: u32, mask: u32) -> Result<ibv_gid_entry> {
    let mut entry = crate::sys::pod::zeroed::<ibv_gid_entry>();
    let size = size_of::<ibv_gid_entry>();
    // SAFETY: an open context (the handle's contract); `entry` is ours, `size` bytes.
    unsafe {
        crate::verbs::gid::query_gid_entry(ctx.raw(), port.into(), index, &mut entry, size, 0, mask)
    }?;
    Ok(entry)
}

/// The first index of `port`'s GID table holding `gid` with sysfs GID type `gid_type`
/// (rdma-core's `ibv_find_gid_index`, over `ibv_query_gid` and `ibv_query_gid_type`): walks the
/// table until a query fails, whose error is returned. An empty slot reads as the zero GID of
/// type IB/RoCE v1, leaving errno at ENODATA as rdma-core's GID query does.
fn find_gid_index(ctx: Ctx, port: u8, gid: &[u8; 16], gid_type: u32) -> Result<u32> {
    // rdma-core counts in an int.
    for i in 0..=c_int::MAX as u32 {
        let sgid = match gid_entry(ctx, port, i, VERBS_QUERY_GID_ATTR_GID as u32) {
            // SAFETY: every bit pattern is a valid `raw` view of the GID union.
            Ok(e) => unsafe { e.gid.raw },
            Err(e) if e.0 == libc::ENODATA => {
                crate::sys::set_errno(libc::ENODATA);
                [0; 16]
            }
            Err(e) => return Err(e),
        };
        let sgid_type = match gid_entry(ctx, port, i, VERBS_QUERY_GID_ATTR_TYPE as u32) {
            Err(e) if e.0 == libc::ENODATA => 0,
            Err(e) => return Err(e),
            // IBV_GID_TYPE_IB and _ROCE_V1 are sysfs's "IB/RoCE v1" (0); _ROCE_V2 is 1.
            Ok(e) => u32::from(e.gid_type >= 2),
        };
        if sgid == *gid && sgid_type == gid_type {
            return Ok(i);
        }
    }
    Err(Errno::ENOENT)
}

/// `ibv_init_ah_from_wc`: the address vector that answers the sender of a received completion,
/// written into `ah_attr` (zeroed first): dlid (the source LID), sl, src_path_bits, port and the
/// GRH flow label; with `IBV_WC_GRH` also `is_global`, the destination GID (the packet's source
/// address), hop limit, traffic class and the source GID index (the local GID the packet was sent
/// to: RoCE v2 for UDP/IPv4, IB/RoCE v1 for an IB next header). The local GID the packet was sent
/// to is looked up on `context`, which is needed only for a completion with a GRH (a NULL one is
/// then EINVAL, a divergence: rdma-core crashes). EINVAL for a multicast destination,
/// EPROTONOSUPPORT for an unknown header, or the failing GID query's errno when no local GID
/// matches.
pub(crate) fn init_from_wc(
    ctx: Option<Ctx>,
    port: u8,
    wc: Ptr<ibv_wc>,
    grh: Ptr<ibv_grh>,
    attr: Ptr<ibv_ah_attr>,
) -> Result<()> {
    // SAFETY: the caller's attributes (`Ptr`), written in place as rdma-core does (what it
    // fills before a failure stays).
    let a = unsafe { &mut *attr.as_ptr() };
    fill_from_wc(ctx, port, &wc.read(), grh, a)
}

/// [`init_from_wc`] into `a`.
fn fill_from_wc(
    ctx: Option<Ctx>,
    port: u8,
    wc: &ibv_wc,
    grh: Ptr<ibv_grh>,
    a: &mut ibv_ah_attr,
) -> Result<()> {
    // SAFETY: the caller's GRH buffer (`Ptr`): 40 bytes.
    let g = unsafe { grh.as_ptr().cast::<[u8; 40]>().read() };
    // SAFETY: zeroed plain data.
    *a = unsafe { core::mem::zeroed() };
    let vtf = u32::from_be_bytes([g[0], g[1], g[2], g[3]]);
    a.grh.flow_label = vtf & 0xfffff;
    a.dlid = wc.slid;
    a.sl = wc.sl;
    a.src_path_bits = wc.dlid_path_bits;
    a.port_num = port;
    if wc.wc_flags & IBV_WC_GRH as c_uint == 0 {
        return Ok(());
    }
    a.is_global = 1;
    let ctx = ctx.ok_or(Errno::EINVAL)?;
    let version = grh_version(&g)?;
    let (sgid_want, gid_type) = if version == 4 {
        let ip4 = &g[IP4_AT..];
        let daddr = [ip4[16], ip4[17], ip4[18], ip4[19]];
        // No GID table holds a class D (multicast) address.
        if u32::from_be_bytes(daddr) & 0xf000_0000 == 0xe000_0000 {
            return Err(Errno::EINVAL);
        }
        (v4_mapped(&daddr), IBV_GID_TYPE_SYSFS_ROCE_V2 as u32)
    } else {
        let h = grh.read();
        // SAFETY: every bit pattern is a valid `raw` view of the GID union.
        let dgid = unsafe { h.dgid.raw };
        if dgid[0] == 0xff {
            return Err(Errno::EINVAL);
        }
        a.grh.dgid = h.sgid;
        let t = match h.next_hdr {
            NEXT_HDR_UDP => IBV_GID_TYPE_SYSFS_ROCE_V2,
            IB_NEXT_HDR => IBV_GID_TYPE_SYSFS_IB_ROCE_V1,
            _ => return Err(Errno::EPROTONOSUPPORT),
        };
        (dgid, t as u32)
    };
    a.grh.sgid_index = find_gid_index(ctx, port, &sgid_want, gid_type)? as u8;
    if version == 4 {
        let ip4 = &g[IP4_AT..];
        a.grh.dgid.raw = v4_mapped(&ip4[12..16]);
        a.grh.hop_limit = ip4[8];
        a.grh.traffic_class = ip4[1];
    } else {
        a.grh.hop_limit = g[7];
        a.grh.traffic_class = (vtf >> 20) as u8;
    }
    Ok(())
}

/// `ibv_create_ah_from_wc`: [`ibv_init_ah_from_wc`](init_from_wc) on the PD's context, then
/// [`ibv_create_ah`](create); the errno of the step that fails.
pub(crate) fn create_from_wc(
    pd: Pd,
    wc: Ptr<ibv_wc>,
    grh: Ptr<ibv_grh>,
    port: u8,
) -> Result<*mut ibv_ah> {
    // SAFETY: zeroed plain data.
    let mut attr: ibv_ah_attr = unsafe { core::mem::zeroed() };
    fill_from_wc(Some(pd.ctx()), port, &wc.read(), grh, &mut attr)?;
    create(pd, &mut attr)
}

/// The negated errno, with errno set to it: `ibv_resolve_eth_l2_from_gid`'s answer to the
/// library's own refusals.
fn neg_errno(e: Errno) -> c_int {
    crate::sys::set_errno(e.0);
    -e.0
}

/// `ibv_resolve_eth_l2_from_gid`: its C value, computed here, for the MAC (and, when `vid` is not
/// NULL, the VLAN id: 0xffff without VLAN) that reaches `attr->grh.dgid` from the net device
/// holding the GID at `attr->grh.sgid_index` of `attr->port_num`, from the kernel's route and
/// neighbour tables (asked over NETLINK_ROUTE: [`neigh`]; blocks up to 3 s
/// while a neighbour resolves). rdma-core's values: 0; -1 (errno from the query) when the source
/// GID cannot be read; -EINVAL when no interface holds the source address (an empty GID slot too);
/// -EHOSTUNREACH when there is no route or the neighbour does not resolve; errno as rdma-core
/// leaves it (often untouched; ENODATA after an empty slot; the failing call's errno; EDESTADDRREQ
/// after a timeout). Divergences: NULL `context`, `attr` or `eth_mac` give -EINVAL with errno
/// EINVAL (rdma-core crashes); a NETLINK_ROUTE socket that cannot be opened gives the negated errno
/// of socket(2) (rdma-core: a libnl error code).
///
/// # Safety
/// The C contract of `ibv_resolve_eth_l2_from_gid`: each pointer NULL or valid (`context` an
/// open context of this library, `eth_mac` 6 writable bytes, `vid` a writable `uint16_t`).
pub(crate) unsafe fn resolve_eth_l2(
    context: *mut ibv_context,
    attr: *mut ibv_ah_attr,
    eth_mac: *mut u8,
    vid: *mut u16,
) -> c_int {
    if attr.is_null() || eth_mac.is_null() {
        return neg_errno(Errno::EINVAL);
    }
    // SAFETY: the caller's contract: NULL or an open context.
    let Ok(ctx) = (unsafe { Ctx::from_raw(context) }) else {
        return neg_errno(Errno::EINVAL);
    };
    // SAFETY: the caller's attribute struct.
    let a = unsafe { attr.read() };
    // SAFETY: every bit pattern is a valid `raw` view of the GID union.
    let dgid = unsafe { a.grh.dgid.raw };

    // rdma-core's ibv_query_gid through the kernel: an empty slot reads as the zero GID, with the
    // ioctl's ENODATA left in errno; any other failure is -1.
    let saved = crate::sys::errno();
    let (sgid, errno0) = match gid_entry(
        ctx,
        a.port_num,
        a.grh.sgid_index.into(),
        VERBS_QUERY_GID_ATTR_GID as u32,
    ) {
        // SAFETY: every bit pattern is a valid `raw` view of the GID union.
        Ok(e) => (unsafe { e.gid.raw }, saved),
        Err(e) if e.0 == libc::ENODATA => ([0; 16], libc::ENODATA),
        Err(e) => {
            crate::sys::set_errno(e.0);
            return -1;
        }
    };

    let mut io = match KernelRouteIo::open() {
        Ok(io) => io,
        Err(e) => return neg_errno(e),
    };
    let out = neigh::resolve(&mut io, &sgid, &dgid, !vid.is_null(), errno0);
    drop(io);
    if let (Some(v), false) = (out.vid, vid.is_null()) {
        // SAFETY: the caller's VLAN id.
        unsafe { vid.write(v) };
    }
    if let Some(mac) = &out.mac {
        let n = mac.len().min(neigh::ETHERNET_LL_SIZE);
        // SAFETY: the caller's buffer holds ETHERNET_LL_SIZE bytes; `n` is at most that.
        unsafe { core::ptr::copy_nonoverlapping(mac.as_ptr(), eth_mac, n) };
    }
    crate::sys::set_errno(out.errno);
    out.ret
}

/// `ibv_cmd_create_ah`: CREATE_AH (write command:
/// [`cmd::ah::create_ah`](crate::cmd::ah::create_ah), the core request built here) on the PD with
/// the caller's attributes (the AH's address as its user handle) and the provider's response; sets
/// the AH's `handle` and `context` (the public verb sets `pd`).
pub(crate) fn cmd_create(
    pd: Pd,
    ah: Ptr<ibv_ah>,
    attr: Ptr<ibv_ah_attr>,
    resp: &mut [u8],
) -> Result<()> {
    // SAFETY: a live PD (the handle's contract).
    let pdh = unsafe { (*pd.raw()).handle };
    let p = ah.as_ptr();
    let c = pd.ctx().channel();
    let h = crate::cmd::ah::create_ah(c.cmd(), pdh, p as usize as u64, &attr.read(), resp)?;
    set!(ah.handle = h);
    set!(ah.context = pd.context());
    Ok(())
}

/// `ibv_cmd_destroy_ah`: the AH destroyed by handle (AH_DESTROY ioctl, else the DESTROY_AH write
/// command: [`cmd::ah::destroy_ah`](crate::cmd::ah::destroy_ah)); EIO counts as done on a
/// disassociated device when allowed
/// ([`allow_disassociate`](crate::verbs::disassoc::allow_disassociate)).
pub(crate) fn cmd_destroy(ah: Ah) -> Result<()> {
    // SAFETY: a live AH (the handle's contract).
    let h = unsafe { (*ah.raw()).handle };
    let c = ah.ctx().channel();
    crate::cmd::ah::destroy_ah(c.cmd(), h, crate::verbs::disassoc::allow_disassociate())
}

#[cfg(test)]
mod tests {
    use super::grh_version;
    use crate::errno::Errno;

    /// A 40-byte receive buffer: IP version nibble `v6` in byte 0, then an IPv4 header at 20.
    fn grh(v6: u8, ip4_first: u8, good_csum: bool) -> [u8; 40] {
        let mut g = [0u8; 40];
        g[0] = v6 << 4;
        let h = &mut g[20..];
        h[0] = ip4_first;
        h[1] = 0x10;
        h[3] = 60;
        h[8] = 7;
        h[9] = 17;
        h[12..16].copy_from_slice(&[10, 99, 0, 2]);
        h[16..20].copy_from_slice(&[10, 99, 0, 1]);
        // The Internet checksum in network order, stored as the wire has it.
        let mut s: u32 = (0..10)
            .map(|i| u32::from(u16::from_be_bytes([h[2 * i], h[2 * i + 1]])))
            .sum();
        while s >> 16 != 0 {
            s = (s & 0xffff) + (s >> 16);
        }
        let c = (!s as u16) ^ if good_csum { 0 } else { 0x0101 };
        h[10..12].copy_from_slice(&c.to_be_bytes());
        g
    }

    #[test]
    fn grh_versions() {
        assert_eq!(grh_version(&grh(0, 0x45, true)), Ok(4));
        assert_eq!(
            grh_version(&grh(0, 0x45, false)),
            Ok(4),
            "no IPv6 nibble: the checksum is not looked at"
        );
        assert_eq!(
            grh_version(&grh(6, 0x45, true)),
            Ok(4),
            "a valid IPv4 header wins over the nibble"
        );
        assert_eq!(grh_version(&grh(6, 0x45, false)), Ok(6));
        assert_eq!(
            grh_version(&grh(6, 0x46, true)),
            Ok(6),
            "IHL other than 5 is IPv6"
        );
        assert_eq!(
            grh_version(&grh(0, 0x65, true)),
            Err(Errno::EPROTONOSUPPORT)
        );
        assert_eq!(grh_version(&[0u8; 40]), Err(Errno::EPROTONOSUPPORT));
    }
}
