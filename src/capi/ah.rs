//! Address handles and L2 resolution (rdma-core: verbs.c).
//!
//! `ibv_resolve_eth_l2_from_gid` is implemented (its logic in `crate::device::neigh`); the others
//! are stubs, listed in `stubs.txt`: each doc names the C prototype and the return convention the
//! stub follows. The parameters keep their C names and stay unused until the behaviour comes.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::c_int;

use super::ret::ret_neg_errno;
use crate::abi::driver::verbs_query_gid_attr_mask::VERBS_QUERY_GID_ATTR_GID;
use crate::abi::verbs::{ibv_ah, ibv_ah_attr, ibv_context, ibv_gid_entry, ibv_grh, ibv_pd, ibv_wc};
use crate::device::neigh;
use crate::device::rtnl_io::KernelRouteIo;
use crate::errno::{CRet, Errno, unimplemented};

/// `struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_create_ah_1_1")]
pub unsafe extern "C" fn ibv_create_ah(pd: *mut ibv_pd, attr: *mut ibv_ah_attr) -> *mut ibv_ah {
    Err(unimplemented("ibv_create_ah")).ret_null()
}
super::symver!(ibv_create_ah, v1_1, "@@IBVERBS_1.1", ibv_create_ah);

/// `int ibv_destroy_ah(struct ibv_ah *ah)`
///
/// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[unsafe(export_name = "__ibv_destroy_ah_1_1")]
pub unsafe extern "C" fn ibv_destroy_ah(ah: *mut ibv_ah) -> c_int {
    Err::<(), _>(unimplemented("ibv_destroy_ah")).ret_errno()
}
super::symver!(ibv_destroy_ah, v1_1, "@@IBVERBS_1.1", ibv_destroy_ah);

/// `int ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num, struct ibv_wc *wc, struct ibv_grh *grh, struct ibv_ah_attr *ah_attr)`
///
/// Stub: returns -1 with errno EOPNOTSUPP (rdma-core: 0 or a value, or -1 and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_init_ah_from_wc(
    context: *mut ibv_context,
    port_num: u8,
    wc: *mut ibv_wc,
    grh: *mut ibv_grh,
    ah_attr: *mut ibv_ah_attr,
) -> c_int {
    Err(unimplemented("ibv_init_ah_from_wc")).ret_minus_one()
}

/// `struct ibv_ah *ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc, struct ibv_grh *grh, uint8_t port_num)`
///
/// Stub: NULL with errno EOPNOTSUPP (rdma-core: a pointer, or NULL and errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_create_ah_from_wc(
    pd: *mut ibv_pd,
    wc: *mut ibv_wc,
    grh: *mut ibv_grh,
    port_num: u8,
) -> *mut ibv_ah {
    Err(unimplemented("ibv_create_ah_from_wc")).ret_null()
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
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_resolve_eth_l2_from_gid(
    context: *mut ibv_context,
    attr: *mut ibv_ah_attr,
    eth_mac: *mut u8,
    vid: *mut u16,
) -> c_int {
    if context.is_null() || attr.is_null() || eth_mac.is_null() {
        return ret_neg_errno(Err(Errno::EINVAL));
    }
    // SAFETY: the caller's attribute struct.
    let (port, sgid_index, dgid) = unsafe { ((*attr).port_num, (*attr).grh.sgid_index, (*attr).grh.dgid.raw) };

    // rdma-core's ibv_query_gid through the kernel: an empty slot reads as the zero GID, with the
    // ioctl's ENODATA left in errno; any other failure is -1.
    let saved = crate::sys::errno();
    // SAFETY: zeroed plain data.
    let mut entry: ibv_gid_entry = unsafe { core::mem::zeroed() };
    // SAFETY: an open context; entry is ours.
    let q = unsafe {
        super::gid::query_gid_entry(
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
        unsafe { core::ptr::copy_nonoverlapping(mac.as_ptr(), eth_mac, mac.len().min(neigh::ETHERNET_LL_SIZE)) };
    }
    crate::sys::set_errno(out.errno);
    out.ret
}
