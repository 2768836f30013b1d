//! Address handles and L2 resolution (rdma-core: verbs.c).
//!
//! `ibv_create_ah`/`ibv_destroy_ah` hand the call to the context's op; `ibv_init_ah_from_wc`
//! rebuilds an address vector from a received completion and its GRH (RoCE v2 over IPv4 or
//! IPv6, IB/RoCE v1), finding the local GID index the packet was sent to;
//! `ibv_resolve_eth_l2_from_gid` has its logic in `crate::device::neigh`. Divergence throughout:
//! a NULL object, or a NULL `context` inside one, gives EINVAL where rdma-core would crash.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(clippy::missing_safety_doc)]

use crate::capi::export::export;
use core::ffi::{c_int, c_uint};

use super::ret::ret_neg_errno;
use crate::abi::driver::ibv_gid_type_sysfs::{
    IBV_GID_TYPE_SYSFS_IB_ROCE_V1, IBV_GID_TYPE_SYSFS_ROCE_V2,
};
use crate::abi::driver::verbs_query_gid_attr_mask::VERBS_QUERY_GID_ATTR_GID;
use crate::abi::verbs::ibv_wc_flags::IBV_WC_GRH;
use crate::abi::verbs::{
    ibv_ah, ibv_ah_attr, ibv_context, ibv_gid, ibv_gid_entry, ibv_grh, ibv_pd, ibv_wc,
};
use crate::cret::CRet;
use crate::cret::ret_status;
use crate::device::neigh;
use crate::device::rtnl_io::KernelRouteIo;
use crate::errno::Errno;

/// `struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)`
///
/// A new AH from the provider's `create_ah`, its `context` and `pd` set. NULL with errno on
/// failure.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_create_ah(pd: *mut ibv_pd, attr: *mut ibv_ah_attr) -> Raw<*mut ibv_ah> {
    // SAFETY: the caller's PD (of an open context) and attributes, or NULL (refused).
    unsafe { crate::verbs::objects::create_ah(pd, attr) }.ret_null()
}

/// `int ibv_destroy_ah(struct ibv_ah *ah)`
///
/// The provider's `destroy_ah`: 0, or the positive errno it returns (errno as it left it).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_destroy_ah(ah: *mut ibv_ah) -> Raw<c_int> {
    // SAFETY: the caller's AH, or NULL (refused).
    ret_status(unsafe { crate::verbs::objects::destroy_ah(ah) })
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
pub(crate) fn grh_version(grh: &[u8; 40]) -> Result<u8, Errno> {
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

/// The first index of `port`'s GID table holding `gid` with sysfs GID type `gid_type`
/// (rdma-core's `ibv_find_gid_index`): walks the table until a query fails, whose -1 (errno
/// set) is returned.
///
/// # Safety
/// `ctx` is an open context of this library.
unsafe fn find_gid_index(ctx: *mut ibv_context, port: u8, gid: &[u8; 16], gid_type: u32) -> c_int {
    let mut i: c_int = 0;
    loop {
        // SAFETY: zeroed plain data.
        let mut sgid: ibv_gid = unsafe { core::mem::zeroed() };
        let mut sgid_type = crate::abi::ctype::CEnum::new(0);
        // SAFETY: the caller's context; our buffers.
        let mut ret = unsafe { crate::verbs::gid::query_gid_raw(ctx, port, i, &mut sgid) };
        if ret == 0 {
            // SAFETY: as above.
            ret = unsafe {
                super::driver::query_gid_type_edge(ctx, port, i as c_uint, &mut sgid_type)
            };
        }
        i += 1;
        // SAFETY: every bit pattern is a valid `raw` view of the GID union.
        if ret != 0 || (unsafe { sgid.raw } == *gid && sgid_type.raw() == gid_type) {
            return if ret != 0 { ret } else { i - 1 };
        }
    }
}

/// `int ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num, struct ibv_wc *wc, struct ibv_grh *grh, struct ibv_ah_attr *ah_attr)`
///
/// The address vector that answers the sender of a received completion: zeroes `ah_attr`, then
/// sets dlid (the source LID), sl, src_path_bits, port and the GRH flow label; with
/// `IBV_WC_GRH` also `is_global`, the destination GID (the packet's source address), hop limit,
/// traffic class and the source GID index (the local GID the packet was sent to: RoCE v2 for
/// UDP/IPv4, IB/RoCE v1 for an IB next header). 0; -1 with errno EINVAL for a multicast
/// destination, EPROTONOSUPPORT for an unknown header, or the failing GID query's errno when no
/// local GID matches. Divergence: NULL `wc`, `grh` or `ah_attr`, or a NULL `context` with a GRH,
/// give -1 with EINVAL.
#[export("IBVERBS_1.1")]
fn ibv_init_ah_from_wc(
    context: *mut ibv_context,
    port_num: u8,
    wc: *mut ibv_wc,
    grh: *mut ibv_grh,
    ah_attr: *mut ibv_ah_attr,
) -> Raw<c_int> {
    // SAFETY: the C contract, forwarded.
    unsafe { init_ah_from_wc(context, port_num, wc, grh, ah_attr) }
}

/// The body of `ibv_init_ah_from_wc`, also the first half of `ibv_create_ah_from_wc`.
///
/// # Safety
/// As for the export.
pub(crate) unsafe fn init_ah_from_wc(
    context: *mut ibv_context,
    port_num: u8,
    wc: *mut ibv_wc,
    grh: *mut ibv_grh,
    ah_attr: *mut ibv_ah_attr,
) -> c_int {
    if wc.is_null() || grh.is_null() || ah_attr.is_null() {
        return Err(Errno::EINVAL).ret_minus_one();
    }
    // SAFETY: the caller's completion, 40-byte GRH buffer and attribute struct.
    let (wc, g, a) = unsafe { (&*wc, &*grh.cast::<[u8; 40]>(), &mut *ah_attr) };
    // SAFETY: zeroed plain data.
    *a = unsafe { core::mem::zeroed() };
    let vtf = u32::from_be_bytes([g[0], g[1], g[2], g[3]]);
    a.grh.flow_label = vtf & 0xfffff;
    a.dlid = wc.slid;
    a.sl = wc.sl;
    a.src_path_bits = wc.dlid_path_bits;
    a.port_num = port_num;
    if wc.wc_flags & IBV_WC_GRH as c_uint == 0 {
        return 0;
    }
    a.is_global = 1;
    if context.is_null() {
        return Err(Errno::EINVAL).ret_minus_one();
    }
    let version = match grh_version(g) {
        Ok(v) => v,
        Err(e) => return Err(e).ret_minus_one(),
    };
    let (sgid_want, gid_type) = if version == 4 {
        let ip4 = &g[IP4_AT..];
        let daddr = [ip4[16], ip4[17], ip4[18], ip4[19]];
        // No GID table holds a class D (multicast) address.
        if u32::from_be_bytes(daddr) & 0xf000_0000 == 0xe000_0000 {
            return Err(Errno::EINVAL).ret_minus_one();
        }
        (v4_mapped(&daddr), IBV_GID_TYPE_SYSFS_ROCE_V2 as u32)
    } else {
        // SAFETY: the caller's GRH; every bit pattern is a valid `raw` view.
        let (dgid, sgid, next_hdr) = unsafe { ((*grh).dgid.raw, (*grh).sgid, (*grh).next_hdr) };
        if dgid[0] == 0xff {
            return Err(Errno::EINVAL).ret_minus_one();
        }
        a.grh.dgid = sgid;
        let t = match next_hdr {
            NEXT_HDR_UDP => IBV_GID_TYPE_SYSFS_ROCE_V2,
            IB_NEXT_HDR => IBV_GID_TYPE_SYSFS_IB_ROCE_V1,
            _ => return Err(Errno::EPROTONOSUPPORT).ret_minus_one(),
        };
        (dgid, t as u32)
    };
    // SAFETY: the caller's open context.
    let ret = unsafe { find_gid_index(context, port_num, &sgid_want, gid_type) };
    if ret < 0 {
        return ret;
    }
    a.grh.sgid_index = ret as u8;
    if version == 4 {
        let ip4 = &g[IP4_AT..];
        a.grh.dgid.raw = v4_mapped(&ip4[12..16]);
        a.grh.hop_limit = ip4[8];
        a.grh.traffic_class = ip4[1];
    } else {
        a.grh.hop_limit = g[7];
        a.grh.traffic_class = (vtf >> 20) as u8;
    }
    0
}

/// `struct ibv_ah *ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc, struct ibv_grh *grh, uint8_t port_num)`
///
/// [`ibv_init_ah_from_wc`] on `pd`'s context, then [`ibv_create_ah`]. NULL with errno on
/// failure.
#[export("IBVERBS_1.1")]
fn ibv_create_ah_from_wc(
    pd: *mut ibv_pd,
    wc: *mut ibv_wc,
    grh: *mut ibv_grh,
    port_num: u8,
) -> Raw<*mut ibv_ah> {
    // SAFETY: the caller's PD (checked for NULL); the rest is the callee's contract.
    unsafe {
        if pd.is_null() || (*pd).context.is_null() {
            return Err(Errno::EINVAL).ret_null();
        }
        // SAFETY: zeroed plain data.
        let mut attr: ibv_ah_attr = core::mem::zeroed();
        if init_ah_from_wc((*pd).context, port_num, wc, grh, &mut attr) != 0 {
            return core::ptr::null_mut();
        }
        crate::verbs::objects::create_ah(pd, &mut attr).ret_null()
    }
}

/// `int ibv_resolve_eth_l2_from_gid(struct ibv_context *context, struct ibv_ah_attr *attr, uint8_t eth_mac[ETHERNET_LL_SIZE], uint16_t *vid)`
///
/// The MAC (and, when `vid` is not NULL, the VLAN id: 0xffff without VLAN) that reaches
/// `attr->grh.dgid` from the net device holding the GID at `attr->grh.sgid_index` of
/// `attr->port_num`, from the kernel's route and neighbour tables. Blocks up to 3 s while a
/// neighbour resolves. Returns rdma-core's values: 0; -1 when the source GID cannot be read (errno from
/// the query); -EINVAL when no interface holds the source address (an empty GID slot too);
/// -EHOSTUNREACH when there is no route or the neighbour does not resolve. errno is left as
/// rdma-core leaves it (often untouched; ENODATA after an empty slot; the failing call's errno;
/// EDESTADDRREQ after a timeout). Divergences: NULL `context`, `attr` or `eth_mac` give -EINVAL
/// with errno EINVAL (rdma-core crashes); a NETLINK_ROUTE socket that cannot be opened gives the
/// negated errno of socket(2) (rdma-core: a libnl error code).
#[export("IBVERBS_1.1")]
fn ibv_resolve_eth_l2_from_gid(
    context: *mut ibv_context,
    attr: *mut ibv_ah_attr,
    eth_mac: *mut u8,
    vid: *mut u16,
) -> Raw<c_int> {
    if context.is_null() || attr.is_null() || eth_mac.is_null() {
        return ret_neg_errno(Err(Errno::EINVAL));
    }
    // SAFETY: the caller's attribute struct.
    let (port, sgid_index, dgid) = unsafe {
        (
            (*attr).port_num,
            (*attr).grh.sgid_index,
            (*attr).grh.dgid.raw,
        )
    };

    // rdma-core's ibv_query_gid through the kernel: an empty slot reads as the zero GID, with the
    // ioctl's ENODATA left in errno; any other failure is -1.
    let saved = crate::sys::errno();
    // SAFETY: zeroed plain data.
    let mut entry: ibv_gid_entry = unsafe { core::mem::zeroed() };
    // SAFETY: an open context; entry is ours.
    let q = unsafe {
        crate::verbs::gid::query_gid_entry(
            context,
            port.into(),
            sgid_index.into(),
            &mut entry,
            size_of::<ibv_gid_entry>(),
            0,
            VERBS_QUERY_GID_ATTR_GID as u32,
        )
    };
    let errno0 = match q {
        Ok(()) => saved,
        Err(e) if e.0 == libc::ENODATA => {
            // SAFETY: zeroed plain data (the zero GID).
            entry = unsafe { core::mem::zeroed() };
            libc::ENODATA
        }
        Err(e) => return Err(e).ret_minus_one(),
    };
    // SAFETY: every bit pattern is a valid `raw` view of the GID union.
    let sgid = unsafe { entry.gid.raw };

    let mut io = match KernelRouteIo::open() {
        Ok(io) => io,
        Err(e) => return ret_neg_errno(Err(e)),
    };
    let out = neigh::resolve(&mut io, &sgid, &dgid, !vid.is_null(), errno0);
    drop(io);
    if let (Some(v), false) = (out.vid, vid.is_null()) {
        // SAFETY: the caller's VLAN id.
        unsafe { *vid = v };
    }
    if let Some(mac) = &out.mac {
        // SAFETY: the caller's buffer holds ETHERNET_LL_SIZE bytes; mac is at most that long.
        unsafe {
            core::ptr::copy_nonoverlapping(
                mac.as_ptr(),
                eth_mac,
                mac.len().min(neigh::ETHERNET_LL_SIZE),
            )
        };
    }
    crate::sys::set_errno(out.errno);
    out.ret
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
