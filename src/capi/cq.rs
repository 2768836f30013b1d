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
/// The C form of [`cq::create`]: NULL with errno on failure.
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
/// The C form of [`cq::resize`]: 0, or the positive errno.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_resize_cq(cq: Cq, cqe: c_int) -> Status {
    cq::resize(cq, cqe)
}

/// `int ibv_destroy_cq(struct ibv_cq *cq)`
///
/// The C form of [`cq::destroy`]: 0, or the positive errno.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_destroy_cq(cq: Cq) -> Status {
    cq::destroy(cq)
}

/// `int ibv_cmd_create_cq(struct ibv_context *context, int cqe, struct ibv_comp_channel *channel, int comp_vector, struct ibv_cq *cq, struct ibv_create_cq *cmd, size_t cmd_size, struct ib_uverbs_create_cq_resp *resp, size_t resp_size)`
///
/// The C form of [`cq::cmd_create`]: 0, or the positive errno.
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
/// The C form of [`cq::cmd_create_ex`]: 0, or the positive errno.
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
/// The C form of [`cq::cmd_create_ex`]: 0, or the positive errno.
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
/// The C form of [`cq::cmd_poll`]: the number of completions, or -1 with errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_poll_cq(cq: Cq, ne: c_int, wc: Option<Ptr<ibv_wc>>) -> MinusOne<c_int> {
    cq::cmd_poll(cq, ne, wc)
}

/// `int ibv_cmd_req_notify_cq(struct ibv_cq *cq, int solicited_only)`
///
/// The C form of [`cq::cmd_req_notify`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_req_notify_cq(cq: Cq, solicited_only: c_int) -> Errno {
    cq::cmd_req_notify(cq, solicited_only)
}

/// `int ibv_cmd_resize_cq(struct ibv_cq *cq, int cqe, struct ibv_resize_cq *cmd, size_t cmd_size, struct ib_uverbs_resize_cq_resp *resp, size_t resp_size)`
///
/// The C form of [`cq::cmd_resize`]: 0, or the positive errno.
///
/// Divergence: NULL or short buffers give EINVAL.
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
/// The C form of [`cq::cmd_modify`]: 0, or the positive errno.
///
/// Divergence: NULL or a short buffer gives EINVAL.
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
/// The C form of [`cq::cmd_destroy`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_cq(cq: Cq) -> Errno {
    cq::cmd_destroy(cq)
}
