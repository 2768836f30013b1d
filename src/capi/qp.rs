//! Queue pairs and their ECE (rdma-core: verbs.c), and the provider's QP commands (cmd_qp.c,
//! cmd.c: create, open, query, modify, destroy, and posting through the kernel): each a
//! declaration over [`verbs::qp`](crate::verbs::qp) (posting: [`verbs::post`](crate::verbs::post)).
//!
//! The public verbs go to the context's op table, whose slots hold the provider's op or the
//! default that fails EOPNOTSUPP; a provider's return value (and its errno) passes through
//! untouched. What the library adds is its bookkeeping: `qp->state` after a modify or query
//! that covers the state. The IBVERBS_1.0 twins of create, query, modify and destroy are in
//! `compat_1_0`.
//!
//! Divergence throughout: a NULL object, a NULL `context` inside one, or a NULL attribute record
//! or provider buffer gives EINVAL (errno set) where rdma-core would crash.
use core::ffi::c_int;

use crate::abi::ctype::CEnum;
use crate::abi::driver::verbs_qp;
use crate::abi::kern_abi::{
    ibv_create_qp, ibv_create_qp_ex, ibv_modify_qp, ibv_modify_qp_ex, ibv_open_qp, ibv_query_qp,
};
use crate::abi::uapi::{
    ib_uverbs_create_qp_resp, ib_uverbs_ex_create_qp_resp, ib_uverbs_ex_modify_qp_resp,
};
use crate::abi::verbs::{
    ibv_ece, ibv_qp, ibv_qp_attr, ibv_qp_ex, ibv_qp_init_attr, ibv_qp_init_attr_ex,
    ibv_qp_open_attr, ibv_recv_wr, ibv_send_wr, ibv_wr_opcode,
};
use crate::capi::export::{BufAny, export};
use crate::capi::ret::ret_or;
use crate::verbs::handle::{Ctx, Pd, Ptr, Qp};
use crate::verbs::{post, qp};

/// `struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *qp_init_attr)`
///
/// The C form of [`qp::create`]: NULL with errno on failure.
#[export("IBVERBS_1.1")]
fn ibv_create_qp(pd: Pd, qp_init_attr: Ptr<ibv_qp_init_attr>) -> Null<*mut ibv_qp> {
    Ok(qp::create(pd, qp_init_attr))
}

/// `int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr *init_attr)`
///
/// The C form of [`qp::query`]: 0, or the provider's positive errno.
#[export("IBVERBS_1.1")]
fn ibv_query_qp(
    qp: Qp,
    attr: Ptr<ibv_qp_attr>,
    attr_mask: c_int,
    init_attr: Ptr<ibv_qp_init_attr>,
) -> Status {
    Ok(qp::query(qp, attr, attr_mask, init_attr))
}

/// `int ibv_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask)`
///
/// The C form of [`qp::modify`]: 0, or the provider's positive errno.
#[export("IBVERBS_1.1")]
fn ibv_modify_qp(qp: Qp, attr: Ptr<ibv_qp_attr>, attr_mask: c_int) -> Status {
    Ok(qp::modify(qp, attr, attr_mask))
}

/// `int ibv_destroy_qp(struct ibv_qp *qp)`
///
/// The C form of [`qp::destroy`]: 0, or the provider's positive errno.
#[export("IBVERBS_1.1")]
fn ibv_destroy_qp(qp: Qp) -> Status {
    Ok(qp::destroy(qp))
}

/// `struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp)`
///
/// The C form of [`qp::to_qp_ex`]: the same address, or NULL with errno untouched.
#[export("IBVERBS_1.6")]
fn ibv_qp_to_qp_ex(qp: Ptr<ibv_qp>) -> Null<*mut ibv_qp_ex> {
    Ok(qp::to_qp_ex(qp))
}

/// `int ibv_query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op, uint32_t flags)`
///
/// The C form of [`qp::data_in_order`]: its answer, as it is (the verb has no error value).
///
/// Divergence: NULL gives 0 with errno EINVAL.
#[export("IBVERBS_1.14")]
fn ibv_query_qp_data_in_order(qp: *mut ibv_qp, op: CEnum<ibv_wr_opcode>, flags: u32) -> Raw<c_int> {
    // Raw: the verb has no error channel (NULL answers 0 with errno set): no convention says so.
    // SAFETY: the C contract: NULL or a live QP of an open context.
    let qp = unsafe { Qp::from_raw(qp) };
    ret_or(qp.map(|qp| qp::data_in_order(qp, op.raw(), flags)), 0)
}

/// `int ibv_set_ece(struct ibv_qp *qp, struct ibv_ece *ece)`
///
/// The C form of [`qp::set_ece`]: 0, or the positive errno.
#[export("IBVERBS_1.10")]
fn ibv_set_ece(qp: Qp, ece: Ptr<ibv_ece>) -> Status {
    Ok(qp::set_ece(qp, ece))
}

/// `int ibv_query_ece(struct ibv_qp *qp, struct ibv_ece *ece)`
///
/// The C form of [`qp::query_ece`]: 0, or the positive errno.
#[export("IBVERBS_1.10")]
fn ibv_query_ece(qp: Qp, ece: Ptr<ibv_ece>) -> Status {
    Ok(qp::query_ece(qp, ece))
}

/// `int ibv_cmd_create_qp(struct ibv_pd *pd, struct ibv_qp *qp, struct ibv_qp_init_attr *attr, struct ibv_create_qp *cmd, size_t cmd_size, struct ib_uverbs_create_qp_resp *resp, size_t resp_size)`
///
/// The C form of [`crate::verbs::qp::create::cmd_create`]: 0, or the positive errno.
///
/// Divergence: a NULL `cmd` or `resp` gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_qp(
    pd: Pd,
    qp: Ptr<ibv_qp>,
    attr: Ptr<ibv_qp_init_attr>,
    (cmd, cmd_size): BufAny<ibv_create_qp>,
    (resp, resp_size): BufAny<ib_uverbs_create_qp_resp>,
) -> Errno {
    qp::cmd_create(pd, qp, attr, cmd.bytes(), resp.bytes())
}

/// `int ibv_cmd_create_qp_ex(struct ibv_context *context, struct verbs_qp *qp, struct ibv_qp_init_attr_ex *attr_ex, struct ibv_create_qp *cmd, size_t cmd_size, struct ib_uverbs_create_qp_resp *resp, size_t resp_size)`
///
/// The C form of [`crate::verbs::qp::create::cmd_create_ex`]: 0, or the positive errno.
///
/// This entry allows comp_mask PD, XRCD and SEND_OPS_FLAGS (others EINVAL); its write fallback is
/// the command CREATE_QP.
///
/// Divergence: a NULL `cmd` or `resp` gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_qp_ex(
    context: Ctx,
    qp: Ptr<verbs_qp>,
    attr_ex: Ptr<ibv_qp_init_attr_ex>,
    (cmd, cmd_size): BufAny<ibv_create_qp>,
    (resp, resp_size): BufAny<ib_uverbs_create_qp_resp>,
) -> Errno {
    let (req, rsp, mask) = (cmd.bytes(), resp.bytes(), crate::cmd::qp::CREATE_QP_EX_MASK);
    qp::cmd_create_ex(
        context,
        qp,
        attr_ex,
        req,
        rsp,
        mask,
        crate::cmd::qp::create_qp_ex,
    )
}

/// `int ibv_cmd_create_qp_ex2(struct ibv_context *context, struct verbs_qp *qp, struct ibv_qp_init_attr_ex *qp_attr, struct ibv_create_qp_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_create_qp_resp *resp, size_t resp_size)`
///
/// The C form of [`crate::verbs::qp::create::cmd_create_ex`]: 0, or the positive errno.
///
/// This entry allows comp_mask PD, XRCD, SEND_OPS_FLAGS, CREATE_FLAGS (the supported ones; others
/// EINVAL), MAX_TSO_HEADER, IND_TABLE and RX_HASH; its write fallback is the extended command.
///
/// Divergence: a NULL `cmd` or `resp` gives EINVAL.
///
/// The form of the provider ABIs before 64, which appended `struct ibv_command_buffer *driver`
/// (`pabi::forms`).
#[export(PRIVATE 34..64)]
fn ibv_cmd_create_qp_ex2(
    context: Ctx,
    qp: Ptr<verbs_qp>,
    qp_attr: Ptr<ibv_qp_init_attr_ex>,
    (cmd, cmd_size): BufAny<ibv_create_qp_ex>,
    (resp, resp_size): BufAny<ib_uverbs_ex_create_qp_resp>,
) -> Errno {
    let (req, rsp, mask) = (
        cmd.bytes(),
        resp.bytes(),
        crate::cmd::qp::CREATE_QP_EX2_MASK,
    );
    qp::cmd_create_ex(
        context,
        qp,
        qp_attr,
        req,
        rsp,
        mask,
        crate::cmd::qp::create_qp_ex2,
    )
}

/// `int ibv_cmd_open_qp(struct ibv_context *context, struct verbs_qp *qp, int vqp_sz, struct ibv_qp_open_attr *attr, struct ibv_open_qp *cmd, size_t cmd_size, struct ib_uverbs_create_qp_resp *resp, size_t resp_size)`
///
/// The C form of [`crate::verbs::qp::create::cmd_open`]: 0, or the positive errno.
///
/// Divergence: a NULL `cmd` or `resp` gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_open_qp(
    context: Ctx,
    qp: Ptr<verbs_qp>,
    vqp_sz: c_int,
    attr: Ptr<ibv_qp_open_attr>,
    (cmd, cmd_size): BufAny<ibv_open_qp>,
    (resp, resp_size): BufAny<ib_uverbs_create_qp_resp>,
) -> Errno {
    qp::cmd_open(context, qp, vqp_sz, attr, cmd.bytes(), resp.bytes())
}

/// `int ibv_cmd_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *qp_attr, int attr_mask, struct ibv_qp_init_attr *qp_init_attr, struct ibv_query_qp *cmd, size_t cmd_size)`
///
/// The C form of [`qp::cmd_query`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_query_qp(
    qp: Qp,
    qp_attr: Ptr<ibv_qp_attr>,
    attr_mask: c_int,
    qp_init_attr: Ptr<ibv_qp_init_attr>,
    (cmd, cmd_size): BufAny<ibv_query_qp>,
) -> Errno {
    qp::cmd_query(qp, qp_attr, attr_mask, qp_init_attr, cmd.bytes())
}

/// `int ibv_cmd_modify_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_modify_qp *cmd, size_t cmd_size)`
///
/// The C form of [`qp::cmd_modify`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_modify_qp(
    qp: Qp,
    attr: Ptr<ibv_qp_attr>,
    attr_mask: c_int,
    (cmd, cmd_size): BufAny<ibv_modify_qp>,
) -> Errno {
    qp::cmd_modify(qp, attr, attr_mask, cmd.bytes())
}

/// `int ibv_cmd_modify_qp_ex(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_modify_qp_ex *cmd, size_t cmd_size, struct ib_uverbs_ex_modify_qp_resp *resp, size_t resp_size)`
///
/// The C form of [`qp::cmd_modify_ex`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_modify_qp_ex(
    qp: Qp,
    attr: Ptr<ibv_qp_attr>,
    attr_mask: c_int,
    (cmd, cmd_size): BufAny<ibv_modify_qp_ex>,
    (resp, resp_size): BufAny<ib_uverbs_ex_modify_qp_resp>,
) -> Errno {
    qp::cmd_modify_ex(qp, attr, attr_mask, cmd.bytes(), resp.bytes())
}

/// `int ibv_cmd_destroy_qp(struct ibv_qp *qp)`
///
/// The C form of [`qp::cmd_destroy`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_qp(qp: Qp) -> Errno {
    qp::cmd_destroy(qp)
}

/// `int ibv_cmd_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)`
///
/// The C form of [`post::cmd_post_send`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_post_send(
    ibqp: Qp,
    wr: Option<Ptr<ibv_send_wr>>,
    bad_wr: Option<Ptr<*mut ibv_send_wr>>,
) -> Errno {
    post::cmd_post_send(ibqp, wr, bad_wr)
}

/// `int ibv_cmd_post_recv(struct ibv_qp *ibqp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)`
///
/// The C form of [`post::cmd_post_recv`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_post_recv(
    ibqp: Qp,
    wr: Option<Ptr<ibv_recv_wr>>,
    bad_wr: Option<Ptr<*mut ibv_recv_wr>>,
) -> Errno {
    post::cmd_post_recv(ibqp, wr, bad_wr)
}

#[cfg(test)]
#[path = "qp_tests.rs"]
mod tests;
