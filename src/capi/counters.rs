//! Completion counters, IBVERBS_1.18 and IBVERBS_PRIVATE_65 (rdma-core v65: verbs.c;
//! cmd_comp_cntr.c, cmd_device.c): the public verbs and the provider's commands, each a
//! declaration over `verbs::counters`.
//!
//! rdma-core hands every public verb to a context op that only provider ABI 65 has: an ABI-65
//! provider's op (efa's, over the `ibv_cmd_*_comp_cntr` commands) is called as is; without one
//! (every ABI-34 provider) each answers as rdma-core's default op does: EOPNOTSUPP (NULL with
//! errno for `ibv_create_comp_cntr`; the positive value, errno untouched, for the others). The
//! commands are ioctl only (no write() fallback).
//!
//! Divergence throughout: a NULL object, or a NULL `context` inside one, gives EINVAL (errno
//! set) where rdma-core would crash.
use crate::abi::uapi::ib_uverbs_comp_cntr_entry::{
    IB_UVERBS_COMP_CNTR_ENTRY_COMP as COMP, IB_UVERBS_COMP_CNTR_ENTRY_ERR as ERR,
};
use crate::abi::uapi::ib_uverbs_comp_cntr_modify_op::{
    IB_UVERBS_COMP_CNTR_MODIFY_OP_INC as INC, IB_UVERBS_COMP_CNTR_MODIFY_OP_SET as SET,
};
use crate::abi::verbs::{
    ibv_comp_cntr, ibv_comp_cntr_caps, ibv_comp_cntr_init_attr, ibv_qp_attach_comp_cntr_attr,
};
use crate::capi::export::export;
use crate::errno::Errno;
use crate::verbs::cmdbuf::Chain;
use crate::verbs::counters;
use crate::verbs::handle::{CompCntr, Ctx, Ptr, Qp, Region};

/// `int _ibv_query_comp_cntr_caps(struct ibv_context *context, struct ibv_comp_cntr_caps *caps, size_t caps_size)`
///
/// Zeroes the first `caps_size` bytes of `caps`, then the provider's `query_comp_cntr_caps`
/// (ABI 65), else EOPNOTSUPP. Divergence: a NULL `context`, a NULL `caps` with a non-zero size,
/// or a size past isize::MAX, gives EINVAL (rdma-core's memset crashes).
#[export("IBVERBS_1.18")]
fn _ibv_query_comp_cntr_caps(
    context: Ctx,
    (caps, caps_size): Region<ibv_comp_cntr_caps>,
) -> Status {
    Ok(counters::query_caps(context, caps))
}

/// `struct ibv_comp_cntr *ibv_create_comp_cntr(struct ibv_context *context, struct ibv_comp_cntr_init_attr *cc_attr)`
///
/// The provider's `create_comp_cntr` (ABI 65), else NULL with errno EOPNOTSUPP. Divergence: a NULL
/// `context` gives EINVAL.
#[export("IBVERBS_1.18")]
fn ibv_create_comp_cntr(
    context: Ctx,
    cc_attr: *mut ibv_comp_cntr_init_attr,
) -> Null<*mut ibv_comp_cntr> {
    counters::create(context, cc_attr)
}

/// `int ibv_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)`
///
/// The provider's `destroy_comp_cntr` (ABI 65), else EOPNOTSUPP.
#[export("IBVERBS_1.18")]
fn ibv_destroy_comp_cntr(comp_cntr: CompCntr) -> Status {
    Ok(counters::destroy(comp_cntr))
}

/// `int ibv_set_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// The provider's `set_comp_cntr` (ABI 65), else EOPNOTSUPP.
#[export("IBVERBS_1.18")]
fn ibv_set_comp_cntr(comp_cntr: CompCntr, value: u64) -> Status {
    Ok(counters::set(comp_cntr, value))
}

/// `int ibv_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// The provider's `set_err_comp_cntr` (ABI 65), else EOPNOTSUPP.
#[export("IBVERBS_1.18")]
fn ibv_set_err_comp_cntr(comp_cntr: CompCntr, value: u64) -> Status {
    Ok(counters::set_err(comp_cntr, value))
}

/// `int ibv_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// The provider's `inc_comp_cntr` (ABI 65), else EOPNOTSUPP.
#[export("IBVERBS_1.18")]
fn ibv_inc_comp_cntr(comp_cntr: CompCntr, amount: u64) -> Status {
    Ok(counters::inc(comp_cntr, amount))
}

/// `int ibv_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// The provider's `inc_err_comp_cntr` (ABI 65), else EOPNOTSUPP.
#[export("IBVERBS_1.18")]
fn ibv_inc_err_comp_cntr(comp_cntr: CompCntr, amount: u64) -> Status {
    Ok(counters::inc_err(comp_cntr, amount))
}

/// `int ibv_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// The provider's `read_comp_cntr` (ABI 65), else EOPNOTSUPP; `*value` untouched.
#[export("IBVERBS_1.18")]
fn ibv_read_comp_cntr(comp_cntr: CompCntr, value: *mut u64) -> Status {
    Ok(counters::read(comp_cntr, value))
}

/// `int ibv_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// The provider's `read_err_comp_cntr` (ABI 65), else EOPNOTSUPP; `*value` untouched.
#[export("IBVERBS_1.18")]
fn ibv_read_err_comp_cntr(comp_cntr: CompCntr, value: *mut u64) -> Status {
    Ok(counters::read_err(comp_cntr, value))
}

/// `int ibv_qp_attach_comp_cntr(struct ibv_qp *qp, struct ibv_comp_cntr *comp_cntr, struct ibv_qp_attach_comp_cntr_attr *attr)`
///
/// The provider's `qp_attach_comp_cntr` (ABI 65), else EOPNOTSUPP. Divergence: a NULL `qp` or QP
/// context gives EINVAL.
#[export("IBVERBS_1.18")]
fn ibv_qp_attach_comp_cntr(
    qp: Qp,
    comp_cntr: *mut ibv_comp_cntr,
    attr: *mut ibv_qp_attach_comp_cntr_attr,
) -> Status {
    Ok(counters::qp_attach(qp, comp_cntr, attr))
}

/// `int ibv_cmd_create_comp_cntr(struct ibv_context *context, struct ibv_comp_cntr *comp_cntr, struct ibv_command_buffer *link)`
///
/// UVERBS_METHOD_COMP_CNTR_CREATE (ioctl only) with the provider's `link` chain: sets
/// `comp_cntr->context` (first, as rdma-core, whatever the outcome) and, on success,
/// `comp_cntr->handle`. 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_create_comp_cntr(context: Ctx, comp_cntr: Ptr<ibv_comp_cntr>, link: Chain) -> Errno {
    counters::cmd_create(context, comp_cntr, link)
}

/// `int ibv_cmd_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)`
///
/// UVERBS_METHOD_COMP_CNTR_DESTROY (ioctl only) by handle. 0, or the positive errno; EIO counts
/// as success on a disassociated device when allowed.
#[export(PRIVATE 65..)]
fn ibv_cmd_destroy_comp_cntr(comp_cntr: CompCntr) -> Errno {
    counters::cmd_destroy(comp_cntr)
}

/// `int ibv_cmd_set_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// Sets the completion count (COMP_CNTR_MODIFY, entry COMP, op SET). 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_set_comp_cntr(comp_cntr: CompCntr, value: u64) -> Errno {
    counters::cmd_modify(comp_cntr, COMP as u32, SET as u32, value)
}

/// `int ibv_cmd_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// Sets the error count (entry ERR, op SET). 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_set_err_comp_cntr(comp_cntr: CompCntr, value: u64) -> Errno {
    counters::cmd_modify(comp_cntr, ERR as u32, SET as u32, value)
}

/// `int ibv_cmd_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// Adds to the completion count (entry COMP, op INC). 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_inc_comp_cntr(comp_cntr: CompCntr, amount: u64) -> Errno {
    counters::cmd_modify(comp_cntr, COMP as u32, INC as u32, amount)
}

/// `int ibv_cmd_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// Adds to the error count (entry ERR, op INC). 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_inc_err_comp_cntr(comp_cntr: CompCntr, amount: u64) -> Errno {
    counters::cmd_modify(comp_cntr, ERR as u32, INC as u32, amount)
}

/// `int ibv_cmd_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// The completion count into `*value` (COMP_CNTR_READ, entry COMP). 0, or the positive errno.
/// Divergence: a NULL `value` gives EINVAL (rdma-core lets the kernel fail with EFAULT).
#[export(PRIVATE 65..)]
fn ibv_cmd_read_comp_cntr(comp_cntr: CompCntr, value: Ptr<u64>) -> Errno {
    counters::cmd_read(comp_cntr, COMP as u32, value)
}

/// `int ibv_cmd_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// The error count into `*value` (entry ERR). 0, or the positive errno. Divergence: a NULL
/// `value` gives EINVAL.
#[export(PRIVATE 65..)]
fn ibv_cmd_read_err_comp_cntr(comp_cntr: CompCntr, value: Ptr<u64>) -> Errno {
    counters::cmd_read(comp_cntr, ERR as u32, value)
}

/// `int ibv_cmd_qp_attach_comp_cntr(struct ibv_qp *qp, struct ibv_comp_cntr *comp_cntr, struct ibv_qp_attach_comp_cntr_attr *attr)`
///
/// UVERBS_METHOD_QP_ATTACH_COMP_CNTR (ioctl only): count the QP's operations of
/// `attr->op_mask` (`IBV_QP_ATTACH_COMP_CNTR_OP_*`; unknown bits are not sent) on the counter.
/// 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_qp_attach_comp_cntr(
    qp: Qp,
    comp_cntr: Ptr<ibv_comp_cntr>,
    attr: Ptr<ibv_qp_attach_comp_cntr_attr>,
) -> Errno {
    counters::cmd_qp_attach(qp, comp_cntr, attr)
}

/// `int ibv_cmd_query_comp_cntr_caps(struct ibv_context *context, struct ibv_comp_cntr_caps *caps, size_t caps_size)`
///
/// UVERBS_METHOD_QUERY_COMP_CNTR_CAPS (ioctl only) into `caps`: the maximum number of counters,
/// their maximum value and the `IBV_QP_ATTACH_COMP_CNTR_OP_*` a QP can count. 0, or the positive
/// errno; a `caps_size` below `sizeof(struct ibv_comp_cntr_caps)` is EINVAL with errno left
/// alone (as rdma-core, before it looks at anything else).
#[export(PRIVATE 65..)]
fn ibv_cmd_query_comp_cntr_caps(
    context: Option<Ctx>,
    caps: Option<Ptr<ibv_comp_cntr_caps>>,
    caps_size: usize,
) -> Errno {
    counters::check_caps_size(caps_size).map_err(Errno::quiet)?;
    counters::cmd_query_caps(context, caps)
}
