/* uvemu: mlx5's kernel driver for receive WQs, indirection tables, RSS QPs and flows
 * (drivers/infiniband/hw/mlx5/qp.c: mlx5_ib_create_wq, mlx5_ib_modify_wq,
 * mlx5_ib_create_rwq_ind_table, create_rss_raw_qp_tir; fs.c: mlx5_ib_create_flow and its counters
 * data), as drv_mlx5.c answers the rest: the driver data read with the kernel's minimum sizes and
 * reserved-bytes checks, and answered.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <rdma/mlx5-abi.h>
#include <string.h>

int emu_mlx5_create_wq(struct emu_req *r, struct emu_obj *wq)
{
	struct mlx5_ib_create_wq req = { 0 };
	struct mlx5_ib_create_wq_resp resp = { 0 };

	if (r->uin_len < offsetof(struct mlx5_ib_create_wq, single_wqe_log_num_of_strides))
		return EINVAL;
	if (r->uin_len > sizeof(req) && !emu_udata_cleared(r, sizeof(req)))
		return EOPNOTSUPP;
	memcpy(&req, r->uin, r->uin_len < sizeof(req) ? r->uin_len : sizeof(req));
	if (req.comp_mask & ~(uint32_t)MLX5_IB_CREATE_WQ_STRIDING_RQ)
		return EOPNOTSUPP;
	if (r->uout_len && r->uout_len < sizeof(resp))
		return EINVAL;
	if (!req.buf_addr || !req.db_addr || !req.rq_wqe_count || req.rq_wqe_shift > 16)
		return EINVAL;
	wq->drv[0] = req.user_index;
	resp.response_length = offsetof(struct mlx5_ib_create_wq_resp, reserved);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

int emu_mlx5_modify_wq(struct emu_req *r, struct emu_obj *wq)
{
	struct mlx5_ib_modify_wq req = { 0 };

	int e = emu_udata_in(r, &req, sizeof(req));

	(void)wq;
	if (e)
		return e;
	return req.comp_mask || req.reserved ? EOPNOTSUPP : 0;
}

int emu_mlx5_create_rwq_ind_tbl(struct emu_req *r, struct emu_obj *tbl)
{
	struct mlx5_ib_create_rwq_ind_tbl_resp resp = { 0 };

	(void)tbl;
	if (!emu_udata_cleared(r, 0))
		return EOPNOTSUPP;
	if (r->uout_len && r->uout_len < sizeof(resp))
		return EINVAL;
	resp.response_length = offsetof(struct mlx5_ib_create_rwq_ind_tbl_resp, reserved);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

/* An RSS QP: a TIR over the table, hashed as the driver data says (Toeplitz only). */
int emu_mlx5_rss_qp(struct emu_req *r, struct emu_obj *qp)
{
	struct mlx5_ib_create_qp_rss req = { 0 };
	struct mlx5_ib_create_qp_resp resp = { 0 };
	int e;

	if (r->uout_len < offsetof(struct mlx5_ib_create_qp_resp, ece_options))
		return EINVAL;
	e = emu_udata_in(r, &req, sizeof(req));
	if (e)
		return e;
	if (req.comp_mask || (req.flags & ~(uint32_t)(MLX5_QP_FLAG_TUNNEL_OFFLOADS | MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_UC |
							MLX5_QP_FLAG_TIR_ALLOW_SELF_LB_MC)))
		return EOPNOTSUPP;
	for (size_t i = 0; i < sizeof(req.reserved); i++)
		if (req.reserved[i])
			return EOPNOTSUPP;
	if (req.rx_hash_function != MLX5_RX_HASH_FUNC_TOEPLITZ || req.rx_key_len > sizeof(req.rx_hash_key))
		return EOPNOTSUPP;
	resp.comp_mask = MLX5_IB_CREATE_QP_RESP_MASK_TIRN;
	resp.tirn = 0x100 + qp->num;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

/* The flow's driver data: at most one counters data, whose descriptions bind the counters (the
 * first flow using them; later ones send none). Each description and index is logged. */
int emu_mlx5_create_flow(struct emu_req *r, struct emu_obj *flow)
{
	struct mlx5_ib_create_flow hdr = { 0 };
	struct mlx5_ib_flow_counters_data data = { 0 };
	struct emu_obj *c = emu_obj_get(r->ctx, UVERBS_OBJECT_COUNTERS, (uint32_t)flow->drv[1]);
	const struct mlx5_ib_flow_counters_desc *desc;
	size_t need = sizeof(hdr);

	if (r->uin_len) {
		if (r->uin_len < sizeof(hdr))
			return EOPNOTSUPP;
		memcpy(&hdr, r->uin, sizeof(hdr));
		if (hdr.ncounters_data > 1)
			return EINVAL;
		need += hdr.ncounters_data * sizeof(data);
		if (r->uin_len < need)
			return EINVAL;
		if (!emu_udata_cleared(r, need))
			return EOPNOTSUPP;
		if (hdr.ncounters_data)
			memcpy(&data, r->uin + sizeof(hdr), sizeof(data));
	}
	if (!c || c->cqe)
		return hdr.ncounters_data && !c ? EINVAL : 0;
	/* counters not bound yet: the descriptions are needed now */
	if (!hdr.ncounters_data || !data.ncounters || data.ncounters > 8 || !data.counters_data)
		return EINVAL;
	desc = (const void *)(uintptr_t)data.counters_data;
	for (uint32_t i = 0; i < data.ncounters; i++) {
		if (desc[i].description > 1 /* IB_COUNTER_BYTES */ || desc[i].index >= 8)
			return EINVAL;
	}
	for (uint32_t i = 0; i < data.ncounters; i++) {
		emu_log("  counters desc=%u index=%u\n", desc[i].description, desc[i].index);
		c->drv[i] = (uint64_t)desc[i].description << 32 | desc[i].index;
	}
	c->cqe = data.ncounters;
	return 0;
}
