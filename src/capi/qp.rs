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
/// The provider's `create_qp`: a QP in state RESET with the granted capabilities written back
/// into `qp_init_attr->cap`, or NULL with errno.
#[export("IBVERBS_1.1")]
fn ibv_create_qp(pd: Pd, qp_init_attr: Ptr<ibv_qp_init_attr>) -> Null<*mut ibv_qp> {
    Ok(qp::create(pd, qp_init_attr))
}

/// `int ibv_query_qp(struct ibv_qp *qp, struct ibv_qp_attr *attr, int attr_mask, struct ibv_qp_init_attr *init_attr)`
///
/// The provider's `query_qp`; on success with IBV_QP_STATE in the mask, `qp->state` takes the
/// reported state. 0, or the provider's positive errno.
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
/// The provider's `modify_qp`; on success with IBV_QP_STATE in the mask, `qp->state` becomes
/// `attr->qp_state`. 0, or the provider's positive errno.
#[export("IBVERBS_1.1")]
fn ibv_modify_qp(qp: Qp, attr: Ptr<ibv_qp_attr>, attr_mask: c_int) -> Status {
    Ok(qp::modify(qp, attr, attr_mask))
}

/// `int ibv_destroy_qp(struct ibv_qp *qp)`
///
/// The provider's `destroy_qp` (which waits for the QP's async events to be acknowledged).
/// 0, or the provider's positive errno.
#[export("IBVERBS_1.1")]
fn ibv_destroy_qp(qp: Qp) -> Status {
    Ok(qp::destroy(qp))
}

/// `struct ibv_qp_ex *ibv_qp_to_qp_ex(struct ibv_qp *qp)`
///
/// The extended view of a QP its provider created with the extended interface (its
/// `verbs_qp` carries VERBS_QP_EX): the same address. NULL, errno untouched, for any other QP
/// (its `context` is not looked at). Within provider ABI 34 `verbs_qp` has two layouts; both
/// are understood.
#[export("IBVERBS_1.6")]
fn ibv_qp_to_qp_ex(qp: Ptr<ibv_qp>) -> Null<*mut ibv_qp_ex> {
    Ok(qp::to_qp_ex(qp))
}

/// `int ibv_query_qp_data_in_order(struct ibv_qp *qp, enum ibv_wr_opcode op, uint32_t flags)`
///
/// Whether data of operation `op` lands in memory in order (rdma-core v65 semantics): flags
/// other than RETURN_CAPS and DEVICE_ONLY give 0; otherwise the provider's answer, where a
/// whole-message guarantee implies the 128-byte one — returned as capability bits with
/// RETURN_CAPS, else as 1 (whole message in order) or 0. Providers without the op answer 0.
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
/// The provider's `set_ece`; a zero `vendor_id` is EOPNOTSUPP (errno set) without asking it.
/// 0, or the positive errno.
#[export("IBVERBS_1.10")]
fn ibv_set_ece(qp: Qp, ece: Ptr<ibv_ece>) -> Status {
    Ok(qp::set_ece(qp, ece))
}

/// `int ibv_query_ece(struct ibv_qp *qp, struct ibv_ece *ece)`
///
/// The provider's `query_ece`. 0, or the positive errno (EOPNOTSUPP, errno untouched, from a
/// provider without ECE).
#[export("IBVERBS_1.10")]
fn ibv_query_ece(qp: Qp, ece: Ptr<ibv_ece>) -> Status {
    Ok(qp::query_ece(qp, ece))
}

/// `int ibv_cmd_create_qp(struct ibv_pd *pd, struct ibv_qp *qp, struct ibv_qp_init_attr *attr, struct ibv_create_qp *cmd, size_t cmd_size, struct ib_uverbs_create_qp_resp *resp, size_t resp_size)`
///
/// Creates the QP on `pd` (QP_CREATE ioctl with the provider's driver data, else the legacy
/// write command of the kernel's ABI): sets `qp`'s context, handle, number, objects, type,
/// state RESET and event lock, and stores the granted capabilities into `attr->cap`. 0, or the
/// positive errno. Divergence: a NULL CQ where the type needs one, or buffers shorter than
/// their core structs, give EINVAL (rdma-core crashes or overruns).
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
/// As [`ibv_cmd_create_qp`] from an `ibv_qp_init_attr_ex` (comp_mask PD, XRCD and
/// SEND_OPS_FLAGS only, else EINVAL; XRC receive QPs on their XRCD), also setting the
/// `verbs_qp` XRCD fields; the granted capabilities go into `attr_ex->cap`. 0, or the positive
/// errno. Divergence: as for [`ibv_cmd_create_qp`].
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
/// As [`ibv_cmd_create_qp_ex`], also allowing CREATE_FLAGS (the supported ones; others EINVAL),
/// MAX_TSO_HEADER, IND_TABLE and RX_HASH; its write fallback is the extended command. 0, or the
/// positive errno.
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
/// Opens a shareable XRC QP by number on its XRCD (write command OPEN_QP) and fills in `qp`:
/// handle, context, number, type and user context from `attr`, no PD/CQs/SRQ, state UNKNOWN,
/// event lock, and the `verbs_qp` XRCD when `vqp_sz` covers it (`vqp_sz` also tells the v44
/// from the v45-v56 `verbs_qp` layout). 0, or the positive errno: unknown comp_mask bits
/// EOPNOTSUPP and a missing XRCD, NUM or TYPE EINVAL (errno left alone, as rdma-core).
/// Divergence: a NULL XRCD or a short response gives EINVAL; `comp_mask` is written only when
/// `vqp_sz` covers it.
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
/// The QP's attributes (write command QUERY_QP): fills `qp_attr` and, in `qp_init_attr`, the
/// capabilities and sq_sig_all from the kernel and the user context, CQs, SRQ and type from
/// `qp`. 0, or the positive errno; masks from IBV_QP_RATE_LIMIT up are EOPNOTSUPP (errno left
/// alone, as rdma-core, which refuses them before it looks at the QP's context).
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
/// Write command MODIFY_QP with the masked attributes in the provider's request. 0, or the
/// positive errno; masks from IBV_QP_RATE_LIMIT up are EOPNOTSUPP (errno left alone, as
/// rdma-core, before the QP's context is looked at). `qp->state` is the caller's
/// (`ibv_modify_qp`) to update.
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
/// Extended write command MODIFY_QP (any mask, `rate_limit` included when the request has room
/// for it, else EINVAL with errno left alone, as rdma-core). 0, or the positive errno.
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
/// QP_DESTROY (ioctl, else the write command), then waits, under `qp->mutex`/`qp->cond`, until
/// the application has acknowledged every async event the kernel reported for the QP
/// (`events_completed` reaching the kernel's `events_reported`). 0, or the positive errno; EIO
/// on a disassociated device counts as success when RDMAV_ALLOW_DISASSOC_DESTROY is set (then
/// without the wait).
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_qp(qp: Qp) -> Errno {
    qp::cmd_destroy(qp)
}

/// `int ibv_cmd_post_send(struct ibv_qp *ibqp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)`
///
/// Posts the send work request list through the kernel (write command POST_SEND, for providers
/// without a user-space send queue). 0, or the positive errno with `*bad_wr` the WR the kernel
/// named (the first one when it named none). Divergence: a WR with a negative SGE count, a NULL
/// SGE list or (UD) a NULL AH fails EINVAL before anything is sent, naming that WR; a NULL
/// `bad_wr` is not written.
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
/// Posts the receive work request list through the kernel (write command POST_RECV). 0, or the
/// positive errno with `*bad_wr` as for [`ibv_cmd_post_send`]. Divergence: as there.
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
