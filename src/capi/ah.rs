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
/// The C form of [`ah::create`]: NULL with errno on failure.
#[export("IBVERBS_1.1")]
fn ibv_create_ah(pd: Pd, attr: *mut ibv_ah_attr) -> Null<*mut ibv_ah> {
    ah::create(pd, attr)
}

/// `int ibv_destroy_ah(struct ibv_ah *ah)`
///
/// The C form of [`ah::destroy`]: 0, or the positive errno.
#[export("IBVERBS_1.1")]
fn ibv_destroy_ah(ah: Ah) -> Status {
    Ok(ah::destroy(ah))
}

/// `int ibv_init_ah_from_wc(struct ibv_context *context, uint8_t port_num, struct ibv_wc *wc, struct ibv_grh *grh, struct ibv_ah_attr *ah_attr)`
///
/// The C form of [`ah::init_from_wc`]: 0, or -1 with errno.
///
/// Divergence: NULL `wc`, `grh` or `ah_attr` give -1 with EINVAL.
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
/// The C form of [`ah::create_from_wc`]: NULL with errno on failure.
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
/// The C form of [`ah::resolve_eth_l2`]: the value it computes, as it is.
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
/// The C form of [`ah::cmd_create`]: 0, or the positive errno.
///
/// Divergence: a NULL `resp`, or `resp_size` below the core response, gives EINVAL.
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
/// The C form of [`ah::cmd_destroy`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_ah(ah: Ah) -> Errno {
    ah::cmd_destroy(ah)
}
