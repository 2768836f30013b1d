//! Work queues and RSS indirection tables, the provider's commands (rdma-core: cmd_wq.c,
//! cmd_rwq_ind.c, cmd.c), each a declaration over [`verbs::wq`](crate::verbs::wq). The public verbs
//! of both are inline in verbs.h and call the provider's ops.
//!
//! Divergence throughout: a NULL object, attribute record or buffer, a buffer shorter than its
//! core struct, or a NULL `context` inside an object, gives EINVAL where rdma-core would crash.
use crate::abi::kern_abi::{ibv_create_wq, ibv_modify_wq};
use crate::abi::uapi::{ib_uverbs_ex_create_rwq_ind_table_resp, ib_uverbs_ex_create_wq_resp};
use crate::abi::verbs::{
    ibv_rwq_ind_table, ibv_rwq_ind_table_init_attr, ibv_wq, ibv_wq_attr, ibv_wq_init_attr,
};
use crate::capi::export::{Buf, export};
use crate::verbs::handle::{Ctx, Ptr, RwqIndTable, Wq};
use crate::verbs::wq;

/// `int ibv_cmd_create_wq(struct ibv_context *context, struct ibv_wq_init_attr *wq_init_attr, struct ibv_wq *wq, struct ibv_create_wq *cmd, size_t cmd_size, struct ib_uverbs_ex_create_wq_resp *resp, size_t resp_size)`
///
/// The C form of [`wq::cmd_create`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_wq(
    context: Ctx,
    wq_init_attr: Ptr<ibv_wq_init_attr>,
    wq: Ptr<ibv_wq>,
    (cmd, cmd_size): Buf<ibv_create_wq>,
    (resp, resp_size): Buf<ib_uverbs_ex_create_wq_resp>,
) -> Errno {
    wq::cmd_create(context, wq_init_attr, wq, cmd.bytes(), resp.bytes())
}

/// `int ibv_cmd_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *attr, struct ibv_modify_wq *cmd, size_t cmd_size)`
///
/// The C form of [`wq::cmd_modify`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_modify_wq(wq: Wq, attr: Ptr<ibv_wq_attr>, (cmd, cmd_size): Buf<ibv_modify_wq>) -> Errno {
    wq::cmd_modify(wq, attr, cmd.bytes())
}

/// `int ibv_cmd_destroy_wq(struct ibv_wq *wq)`
///
/// The C form of [`wq::cmd_destroy`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_wq(wq: Wq) -> Errno {
    wq::cmd_destroy(wq)
}

/// `int ibv_cmd_create_rwq_ind_table(struct ibv_context *context, struct ibv_rwq_ind_table_init_attr *init_attr, struct ibv_rwq_ind_table *rwq_ind_table, struct ib_uverbs_ex_create_rwq_ind_table_resp *resp, size_t resp_size)`
///
/// The C form of [`wq::cmd_create_rwq_ind_table`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_create_rwq_ind_table(
    context: Ctx,
    init_attr: Ptr<ibv_rwq_ind_table_init_attr>,
    rwq_ind_table: Ptr<ibv_rwq_ind_table>,
    (resp, resp_size): Buf<ib_uverbs_ex_create_rwq_ind_table_resp>,
) -> Errno {
    wq::cmd_create_rwq_ind_table(context, init_attr, rwq_ind_table, resp.bytes())
}

/// `int ibv_cmd_destroy_rwq_ind_table(struct ibv_rwq_ind_table *rwq_ind_table)`
///
/// The C form of [`wq::cmd_destroy_rwq_ind_table`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_destroy_rwq_ind_table(rwq_ind_table: RwqIndTable) -> Errno {
    wq::cmd_destroy_rwq_ind_table(rwq_ind_table)
}
