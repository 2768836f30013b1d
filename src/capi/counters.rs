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
/// The C form of [`counters::query_caps`]: 0, or the positive errno.
///
/// Divergence: a NULL `context`, a NULL `caps` with a non-zero size, or a size past isize::MAX,
/// gives EINVAL (rdma-core's memset crashes).
#[export("IBVERBS_1.18")]
fn _ibv_query_comp_cntr_caps(
    context: Ctx,
    (caps, caps_size): Region<ibv_comp_cntr_caps>,
) -> Status {
    Ok(counters::query_caps(context, caps))
}

/// `struct ibv_comp_cntr *ibv_create_comp_cntr(struct ibv_context *context, struct ibv_comp_cntr_init_attr *cc_attr)`
///
/// The C form of [`counters::create`]: NULL with errno on failure.
///
/// Divergence: a NULL `context` gives EINVAL.
#[export("IBVERBS_1.18")]
fn ibv_create_comp_cntr(
    context: Ctx,
    cc_attr: *mut ibv_comp_cntr_init_attr,
) -> Null<*mut ibv_comp_cntr> {
    counters::create(context, cc_attr)
}

/// `int ibv_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)`
///
/// The C form of [`counters::destroy`]: 0, or the positive errno.
#[export("IBVERBS_1.18")]
fn ibv_destroy_comp_cntr(comp_cntr: CompCntr) -> Status {
    Ok(counters::destroy(comp_cntr))
}

/// `int ibv_set_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// The C form of [`counters::set`]: 0, or the positive errno.
#[export("IBVERBS_1.18")]
fn ibv_set_comp_cntr(comp_cntr: CompCntr, value: u64) -> Status {
    Ok(counters::set(comp_cntr, value))
}

/// `int ibv_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// The C form of [`counters::set_err`]: 0, or the positive errno.
#[export("IBVERBS_1.18")]
fn ibv_set_err_comp_cntr(comp_cntr: CompCntr, value: u64) -> Status {
    Ok(counters::set_err(comp_cntr, value))
}

/// `int ibv_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// The C form of [`counters::inc`]: 0, or the positive errno.
#[export("IBVERBS_1.18")]
fn ibv_inc_comp_cntr(comp_cntr: CompCntr, amount: u64) -> Status {
    Ok(counters::inc(comp_cntr, amount))
}

/// `int ibv_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// The C form of [`counters::inc_err`]: 0, or the positive errno.
#[export("IBVERBS_1.18")]
fn ibv_inc_err_comp_cntr(comp_cntr: CompCntr, amount: u64) -> Status {
    Ok(counters::inc_err(comp_cntr, amount))
}

/// `int ibv_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// The C form of [`counters::read`]: 0, or the positive errno.
#[export("IBVERBS_1.18")]
fn ibv_read_comp_cntr(comp_cntr: CompCntr, value: *mut u64) -> Status {
    Ok(counters::read(comp_cntr, value))
}

/// `int ibv_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// The C form of [`counters::read_err`]: 0, or the positive errno.
#[export("IBVERBS_1.18")]
fn ibv_read_err_comp_cntr(comp_cntr: CompCntr, value: *mut u64) -> Status {
    Ok(counters::read_err(comp_cntr, value))
}

/// `int ibv_qp_attach_comp_cntr(struct ibv_qp *qp, struct ibv_comp_cntr *comp_cntr, struct ibv_qp_attach_comp_cntr_attr *attr)`
///
/// The C form of [`counters::qp_attach`]: 0, or the positive errno.
///
/// Divergence: a NULL `qp` or QP context gives EINVAL.
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
/// The C form of [`counters::cmd_create`]: 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_create_comp_cntr(context: Ctx, comp_cntr: Ptr<ibv_comp_cntr>, link: Chain) -> Errno {
    counters::cmd_create(context, comp_cntr, link)
}

/// `int ibv_cmd_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)`
///
/// The C form of [`counters::cmd_destroy`]: 0, or the positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_destroy_comp_cntr(comp_cntr: CompCntr) -> Errno {
    counters::cmd_destroy(comp_cntr)
}

/// `int ibv_cmd_set_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// The C form of [`counters::cmd_modify`] on the completion count (entry COMP) by op SET: 0, or the
/// positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_set_comp_cntr(comp_cntr: CompCntr, value: u64) -> Errno {
    counters::cmd_modify(comp_cntr, COMP as u32, SET as u32, value)
}

/// `int ibv_cmd_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
///
/// The C form of [`counters::cmd_modify`] on the error count (entry ERR) by op SET: 0, or the
/// positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_set_err_comp_cntr(comp_cntr: CompCntr, value: u64) -> Errno {
    counters::cmd_modify(comp_cntr, ERR as u32, SET as u32, value)
}

/// `int ibv_cmd_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// The C form of [`counters::cmd_modify`] on the completion count (entry COMP) by op INC: 0, or the
/// positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_inc_comp_cntr(comp_cntr: CompCntr, amount: u64) -> Errno {
    counters::cmd_modify(comp_cntr, COMP as u32, INC as u32, amount)
}

/// `int ibv_cmd_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
///
/// The C form of [`counters::cmd_modify`] on the error count (entry ERR) by op INC: 0, or the
/// positive errno.
#[export(PRIVATE 65..)]
fn ibv_cmd_inc_err_comp_cntr(comp_cntr: CompCntr, amount: u64) -> Errno {
    counters::cmd_modify(comp_cntr, ERR as u32, INC as u32, amount)
}

/// `int ibv_cmd_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// The C form of [`counters::cmd_read`] of the completion count (entry COMP): 0, or the positive
/// errno.
///
/// Divergence: a NULL `value` gives EINVAL (rdma-core lets the kernel fail with EFAULT).
#[export(PRIVATE 65..)]
fn ibv_cmd_read_comp_cntr(comp_cntr: CompCntr, value: Ptr<u64>) -> Errno {
    counters::cmd_read(comp_cntr, COMP as u32, value)
}

/// `int ibv_cmd_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
///
/// The C form of [`counters::cmd_read`] of the error count (entry ERR): 0, or the positive errno.
///
/// Divergence: a NULL `value` gives EINVAL (rdma-core lets the kernel fail with EFAULT).
#[export(PRIVATE 65..)]
fn ibv_cmd_read_err_comp_cntr(comp_cntr: CompCntr, value: Ptr<u64>) -> Errno {
    counters::cmd_read(comp_cntr, ERR as u32, value)
}

/// `int ibv_cmd_qp_attach_comp_cntr(struct ibv_qp *qp, struct ibv_comp_cntr *comp_cntr, struct ibv_qp_attach_comp_cntr_attr *attr)`
///
/// The C form of [`counters::cmd_qp_attach`]: 0, or the positive errno.
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
/// The C form of [`counters::cmd_query_caps`]: 0, or the positive errno.
///
/// Before it looks at anything else, a `caps_size` below `sizeof(struct ibv_comp_cntr_caps)` is
/// EINVAL with errno left alone, as rdma-core ([`counters::check_caps_size`], made quiet here).
#[export(PRIVATE 65..)]
fn ibv_cmd_query_comp_cntr_caps(
    context: Option<Ctx>,
    caps: Option<Ptr<ibv_comp_cntr_caps>>,
    caps_size: usize,
) -> Errno {
    counters::check_caps_size(caps_size).map_err(Errno::quiet)?;
    counters::cmd_query_caps(context, caps)
}
