//! Address handles and L2 resolution (rdma-core: verbs.c; cmd.c, cmd_ah.c): the public verbs
//! and the provider's commands, each a declaration over `verbs::ah`.
//!
//! Divergence throughout: a NULL object, or a NULL `context` inside one, gives EINVAL where
//! rdma-core would crash.
use core::ffi::c_int;

use crate::abi::uapi::ib_uverbs_create_ah_resp;
use crate::abi::verbs::{ibv_ah, ibv_ah_attr, ibv_context, ibv_grh, ibv_wc};
use crate::capi::export::{Buf, export};
use crate::verbs::ah;
use crate::verbs::handle::{Ah, Ctx, Pd, Ptr};

/// `struct ibv_ah *ibv_create_ah(struct ibv_pd *pd, struct ibv_ah_attr *attr)`
///
/// A new AH from the provider's `create_ah`, its `context` and `pd` set. NULL with errno on
/// failure. `attr` goes to the provider as it is.
#[export("IBVERBS_1.1")]
fn ibv_create_ah(pd: Pd, attr: *mut ibv_ah_attr) -> Null<*mut ibv_ah> {
    ah::create(pd, attr)
}

/// `int ibv_destroy_ah(struct ibv_ah *ah)`
///
/// The provider's `destroy_ah`: 0, or the positive errno it returns (errno as it left it).
#[export("IBVERBS_1.1")]
fn ibv_destroy_ah(ah: Ah) -> Status {
    Ok(ah::destroy(ah))
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
    context: Option<Ctx>,
    port_num: u8,
    wc: Ptr<ibv_wc>,
    grh: Ptr<ibv_grh>,
    ah_attr: Ptr<ibv_ah_attr>,
) -> MinusOne<c_int> {
    ah::init_from_wc(context, port_num, wc, grh, ah_attr).map(|()| 0)
}

/// `struct ibv_ah *ibv_create_ah_from_wc(struct ibv_pd *pd, struct ibv_wc *wc, struct ibv_grh *grh, uint8_t port_num)`
///
/// [`ibv_init_ah_from_wc`] on `pd`'s context, then [`ibv_create_ah`]. NULL with errno on
/// failure.
#[export("IBVERBS_1.1")]
fn ibv_create_ah_from_wc(
    pd: Pd,
    wc: Ptr<ibv_wc>,
    grh: Ptr<ibv_grh>,
    port_num: u8,
) -> Null<*mut ibv_ah> {
    ah::create_from_wc(pd, wc, grh, port_num)
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
///
/// `Raw`: the C value mixes -1 (errno set) and negated errnos; the core computes it.
#[export("IBVERBS_1.1")]
fn ibv_resolve_eth_l2_from_gid(
    context: *mut ibv_context,
    attr: *mut ibv_ah_attr,
    eth_mac: *mut u8,
    vid: *mut u16,
) -> Raw<c_int> {
    // SAFETY: the C contract, forwarded.
    unsafe { ah::resolve_eth_l2(context, attr, eth_mac, vid) }
}

/// `int ibv_cmd_create_ah(struct ibv_pd *pd, struct ibv_ah *ah, struct ibv_ah_attr *attr, struct ib_uverbs_create_ah_resp *resp, size_t resp_size)`
///
/// CREATE_AH (write command; the core request is built here, `ah`'s address as its user
/// handle) with the provider's response buffer. On success sets `ah->handle` and
/// `ah->context` (the public verb sets `pd`). 0, or the positive errno. Divergence: a NULL
/// `resp`, or `resp_size` below the core response, gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_ah(
    pd: Pd,
    ah: Ptr<ibv_ah>,
    attr: Ptr<ibv_ah_attr>,
    (resp, resp_size): Buf<ib_uverbs_create_ah_resp>,
) -> Errno {
    ah::cmd_create(pd, ah, attr, resp.bytes())
}

/// `int ibv_cmd_destroy_ah(struct ibv_ah *ah)`
///
/// Destroys the AH by handle (AH_DESTROY ioctl, else the DESTROY_AH write command). 0, or the
/// positive errno; EIO counts as success on a disassociated device when allowed.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_ah(ah: Ah) -> Errno {
    ah::cmd_destroy(ah)
}
