//! Completion queues (rdma-core: verbs.c; cmd_cq.c, cmd.c for the provider's commands): the
//! public verbs and the provider's commands, each a declaration over `verbs::cq`.
//!
//! The provider makes, resizes and destroys the CQ; the library fills in the core fields
//! (`verbs_init_cq`) and keeps the completion channel's use count, under the context's mutex,
//! which `ibv_destroy_comp_channel` checks. The provider's commands land the kernel's answer in
//! the provider's `ibv_cq`.
//!
//! Divergence throughout: a NULL object, or a NULL `context` inside one, gives EINVAL where
//! rdma-core would crash.
use core::ffi::{c_int, c_void};

use crate::abi::driver::verbs_cq;
use crate::abi::kern_abi::{ibv_command_buffer, ibv_modify_cq, ibv_resize_cq};
use crate::abi::uapi::ib_uverbs_resize_cq_resp;
use crate::abi::verbs::{
    ibv_comp_channel, ibv_cq, ibv_cq_init_attr_ex, ibv_modify_cq_attr, ibv_wc,
};
use crate::capi::export::{Buf, Bytes, export};
use crate::verbs::cq;
use crate::verbs::handle::{Cq, Ctx, Ptr};

/// `struct ibv_cq *ibv_create_cq(struct ibv_context *context, int cqe, void *cq_context, struct ibv_comp_channel *channel, int comp_vector)`
///
/// A CQ of at least `cqe` entries from the provider's `create_cq` op, its completion events going
/// to `channel` (optional; its use count goes up) on vector `comp_vector`. NULL with errno on
/// failure (the provider's or kernel's: EINVAL for a `cqe` below 1 or above the device's
/// `max_cqe` on rxe; EOPNOTSUPP without the op).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_create_cq(
    context: Ctx,
    cqe: c_int,
    cq_context: *mut c_void,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
) -> Null<*mut ibv_cq> {
    cq::create(context, cqe, cq_context, channel, comp_vector)
}

/// `int ibv_resize_cq(struct ibv_cq *cq, int cqe)`
///
/// Resizes a CQ to at least `cqe` entries (the provider's `resize_cq` op; `cq->cqe` becomes the
/// new size). 0, or the positive errno.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_resize_cq(cq: Cq, cqe: c_int) -> Status {
    cq::resize(cq, cqe)
}

/// `int ibv_destroy_cq(struct ibv_cq *cq)`
///
/// Destroys a CQ through the provider's `destroy_cq` op (which waits until every completion and
/// asynchronous event the kernel reported for it was acknowledged); on success its channel's use
/// count goes down. 0, or the positive errno (the CQ then stays).
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_destroy_cq(cq: Cq) -> Status {
    cq::destroy(cq)
}

/// `int ibv_cmd_create_cq(struct ibv_context *context, int cqe, struct ibv_comp_channel *channel, int comp_vector, struct ibv_cq *cq, struct ibv_create_cq *cmd, size_t cmd_size, struct ib_uverbs_create_cq_resp *resp, size_t resp_size)`
///
/// CQ_CREATE (ioctl, else the write command) with the provider's driver data (a `cmd` or `resp`
/// no longer than its core part, or NULL, has none: rxe passes `NULL, 0`); sets `cq->context`,
/// then on success `cq->handle` and `cq->cqe`. 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_cq(
    context: Ctx,
    cqe: c_int,
    channel: *mut ibv_comp_channel,
    comp_vector: c_int,
    cq: Ptr<ibv_cq>,
    (cmd, cmd_size): Bytes,
    (resp, resp_size): Bytes,
) -> Errno {
    cq::cmd_create(context, cqe, channel, comp_vector, cq, cmd, resp)
}

/// `int ibv_cmd_create_cq_ex(struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr, struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size, uint32_t cmd_flags)`
///
/// CQ_CREATE from extended attributes (completion timestamps and IGNORE_OVERRUN become kernel
/// flags; the extended write command when the kernel must see them). Sets `cq->context`, then on
/// success `cq->handle` and `cq->cqe`. 0, or the positive errno (EOPNOTSUPP for comp_mask bits
/// other than FLAGS and PD, errno untouched as in rdma-core). `cmd`/`resp` as for
/// `ibv_cmd_create_cq` (rxe passes `NULL, 0`).
///
/// Provider ABI 34 signature (v44-v56). Provider ABI 59 (v59) inserted `struct
/// verbs_create_cq_prov_attr *prov_attr` after `cq_attr` (`capi::pabi::forms`).
#[export(PRIVATE 34..59)]
fn ibv_cmd_create_cq_ex(
    context: Ctx,
    cq_attr: Ptr<ibv_cq_init_attr_ex>,
    cq: Ptr<verbs_cq>,
    (cmd, cmd_size): Bytes,
    (resp, resp_size): Bytes,
    cmd_flags: u32,
) -> Errno {
    cq::cmd_create_ex(context, cq_attr, cq, cmd, resp, cmd_flags, None, None)
}

/// `int ibv_cmd_create_cq_ex2(struct ibv_context *context, const struct ibv_cq_init_attr_ex *cq_attr, struct verbs_cq *cq, struct ibv_create_cq_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_cq_resp *resp, size_t resp_size, uint32_t cmd_flags, struct ibv_command_buffer *driver)`
///
/// As `ibv_cmd_create_cq_ex`, with the provider's `driver` attribute chain (NULL: none) linked
/// after its driver data (and written back). 0, or the positive errno.
///
/// Provider ABI 34 signature of v53-v56 (the name is not in v44); provider ABI 59 (v59) inserted
/// `struct verbs_create_cq_prov_attr *prov_attr` after `cq_attr`.
#[export(PRIVATE 34..59)]
fn ibv_cmd_create_cq_ex2(
    context: Ctx,
    cq_attr: Ptr<ibv_cq_init_attr_ex>,
    cq: Ptr<verbs_cq>,
    (cmd, cmd_size): Bytes,
    (resp, resp_size): Bytes,
    cmd_flags: u32,
    driver: Option<Ptr<ibv_command_buffer>>,
) -> Errno {
    cq::cmd_create_ex(context, cq_attr, cq, cmd, resp, cmd_flags, driver, None)
}

/// `int ibv_cmd_poll_cq(struct ibv_cq *cq, int ne, struct ibv_wc *wc)`
///
/// Polls up to `ne` completions through the kernel (POLL_CQ write command) into `wc`. The number
/// of completions, or -1 with errno. Divergence: a NULL `wc` with `ne` > 0, or a negative `ne`,
/// gives -1 with errno EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_poll_cq(cq: Cq, ne: c_int, wc: Option<Ptr<ibv_wc>>) -> MinusOne<c_int> {
    cq::cmd_poll(cq, ne, wc)
}

/// `int ibv_cmd_req_notify_cq(struct ibv_cq *cq, int solicited_only)`
///
/// Arms the CQ (REQ_NOTIFY_CQ write command): its next completion (or next solicited one) sends
/// a completion event to its channel. 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_req_notify_cq(cq: Cq, solicited_only: c_int) -> Errno {
    cq::cmd_req_notify(cq, solicited_only)
}

/// `int ibv_cmd_resize_cq(struct ibv_cq *cq, int cqe, struct ibv_resize_cq *cmd, size_t cmd_size, struct ib_uverbs_resize_cq_resp *resp, size_t resp_size)`
///
/// RESIZE_CQ write command with the provider's buffers; on success `cq->cqe` is the new size.
/// 0, or the positive errno. Divergence: NULL or short buffers give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_resize_cq(
    cq: Cq,
    cqe: c_int,
    (cmd, cmd_size): Buf<ibv_resize_cq>,
    (resp, resp_size): Buf<ib_uverbs_resize_cq_resp>,
) -> Errno {
    cq::cmd_resize(cq, cqe, cmd.bytes(), resp.bytes())
}

/// `int ibv_cmd_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr, struct ibv_modify_cq *cmd, size_t cmd_size)`
///
/// Changes the CQ's moderation (extended MODIFY_CQ write command). 0, or the positive errno
/// (EINVAL for an `attr_mask` at or above `IBV_CQ_ATTR_RESERVED`, errno untouched as in
/// rdma-core). Divergence: NULL or a short buffer gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_modify_cq(
    cq: Cq,
    attr: Ptr<ibv_modify_cq_attr>,
    (cmd, cmd_size): Buf<ibv_modify_cq>,
) -> Errno {
    cq::cmd_modify(cq, attr, cmd.bytes())
}

/// `int ibv_cmd_destroy_cq(struct ibv_cq *cq)`
///
/// CQ_DESTROY (ioctl, else the write command), then waits, under `cq->mutex`/`cq->cond`, until
/// `ibv_ack_cq_events` and `ibv_ack_async_event` have acknowledged as many completion and
/// asynchronous events as the kernel says it reported for this CQ. 0, or the positive errno (no
/// wait then). EIO from a disassociated device counts as success, without the wait, when
/// `verbs_allow_disassociate_destroy` is set.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_cq(cq: Cq) -> Errno {
    cq::cmd_destroy(cq)
}
