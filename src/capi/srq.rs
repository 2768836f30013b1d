//! Shared receive queues (rdma-core: verbs.c; cmd_srq.c, cmd.c for the provider's commands): the
//! public verbs and the provider's commands, each a declaration over
//! [`verbs::srq`](crate::verbs::srq).
//!
//! The verbs go to the context's op table; a provider's return value (and its errno) passes
//! through untouched. `ibv_create_srq` adds the core fields of the new SRQ.
//!
//! Divergence throughout: a NULL object, attribute record or buffer, or a NULL `context` inside
//! an object, gives EINVAL where rdma-core would crash.
use core::ffi::c_int;

use crate::abi::driver::verbs_srq;
use crate::abi::kern_abi::{ibv_create_srq, ibv_create_xsrq, ibv_modify_srq, ibv_query_srq};
use crate::abi::uapi::ib_uverbs_create_srq_resp;
use crate::abi::verbs::{
    ibv_recv_wr, ibv_srq, ibv_srq_attr, ibv_srq_init_attr, ibv_srq_init_attr_ex,
};
use crate::capi::export::{Buf, export};
use crate::verbs::handle::{Ctx, Pd, Ptr, Srq};
use crate::verbs::srq;

/// `struct ibv_srq *ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *srq_init_attr)`
///
/// The C form of [`srq::create`]: NULL with errno on failure.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_create_srq(pd: Pd, srq_init_attr: Ptr<ibv_srq_init_attr>) -> Null<*mut ibv_srq> {
    srq::create(pd, srq_init_attr)
}

/// `int ibv_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask)`
///
/// The C form of [`srq::modify`]: 0, or the provider's positive errno.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_modify_srq(srq: Srq, srq_attr: Ptr<ibv_srq_attr>, srq_attr_mask: c_int) -> Status {
    srq::modify(srq, srq_attr, srq_attr_mask)
}

/// `int ibv_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr)`
///
/// The C form of [`srq::query`]: 0, or the provider's positive errno.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_query_srq(srq: Srq, srq_attr: Ptr<ibv_srq_attr>) -> Status {
    srq::query(srq, srq_attr)
}

/// `int ibv_destroy_srq(struct ibv_srq *srq)`
///
/// The C form of [`srq::destroy`]: 0, or the provider's positive errno.
///
/// Default version IBVERBS_1.1; the IBVERBS_1.0 half is in `compat_1_0`.
#[export("IBVERBS_1.1")]
fn ibv_destroy_srq(srq: Srq) -> Status {
    srq::destroy(srq)
}

/// `int ibv_cmd_create_srq(struct ibv_pd *pd, struct ibv_srq *srq, struct ibv_srq_init_attr *attr, struct ibv_create_srq *cmd, size_t cmd_size, struct ib_uverbs_create_srq_resp *resp, size_t resp_size)`
///
/// The C form of [`srq::cmd_create`]: 0, or the positive errno.
///
/// Divergence: buffers shorter than their core structs give EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_srq(
    pd: Pd,
    srq: Ptr<ibv_srq>,
    attr: Ptr<ibv_srq_init_attr>,
    (cmd, cmd_size): Buf<ibv_create_srq>,
    (resp, resp_size): Buf<ib_uverbs_create_srq_resp>,
) -> Errno {
    srq::cmd_create(pd, srq, attr, cmd.bytes(), resp.bytes())
}

/// `int ibv_cmd_create_srq_ex(struct ibv_context *context, struct verbs_srq *srq, struct ibv_srq_init_attr_ex *attr_ex, struct ibv_create_xsrq *cmd, size_t cmd_size, struct ib_uverbs_create_srq_resp *resp, size_t resp_size)`
///
/// The C form of [`srq::cmd_create_ex`]: 0, or the positive errno.
///
/// Divergence: a buffer shorter than its core struct gives EINVAL.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_srq_ex(
    _context: Ctx,
    srq: Ptr<verbs_srq>,
    attr_ex: Ptr<ibv_srq_init_attr_ex>,
    (cmd, cmd_size): Buf<ibv_create_xsrq>,
    (resp, resp_size): Buf<ib_uverbs_create_srq_resp>,
) -> Errno {
    srq::cmd_create_ex(srq, attr_ex, cmd.bytes(), resp.bytes())
}

/// `int ibv_cmd_modify_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, int srq_attr_mask, struct ibv_modify_srq *cmd, size_t cmd_size)`
///
/// The C form of [`srq::cmd_modify`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_modify_srq(
    srq: Srq,
    srq_attr: Ptr<ibv_srq_attr>,
    srq_attr_mask: c_int,
    (cmd, cmd_size): Buf<ibv_modify_srq>,
) -> Errno {
    srq::cmd_modify(srq, srq_attr, srq_attr_mask, cmd.bytes())
}

/// `int ibv_cmd_query_srq(struct ibv_srq *srq, struct ibv_srq_attr *srq_attr, struct ibv_query_srq *cmd, size_t cmd_size)`
///
/// The C form of [`srq::cmd_query`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_query_srq(
    srq: Srq,
    srq_attr: Ptr<ibv_srq_attr>,
    (cmd, cmd_size): Buf<ibv_query_srq>,
) -> Errno {
    srq::cmd_query(srq, srq_attr, cmd.bytes())
}

/// `int ibv_cmd_destroy_srq(struct ibv_srq *srq)`
///
/// The C form of [`srq::cmd_destroy`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_srq(srq: Srq) -> Errno {
    srq::cmd_destroy(srq)
}

/// `int ibv_cmd_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)`
///
/// The C form of [`srq::cmd_post_recv`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_post_srq_recv(
    srq: Srq,
    wr: Option<Ptr<ibv_recv_wr>>,
    bad_wr: Option<Ptr<*mut ibv_recv_wr>>,
) -> Errno {
    srq::cmd_post_recv(srq, wr, bad_wr)
}
