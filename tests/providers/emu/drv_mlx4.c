/* uvemu: mlx4's kernel driver (drivers/infiniband/hw/mlx4) for a ConnectX-3 at uverbs ABI 4: the
 * ucontext with one blue-flame page, the UAR at mmap offset 0, blue flame at one page, the core
 * clock at three pages, and cqn/qpn/srqn/pdn. AHs on an InfiniBand port never reach the kernel.
 * Receive WQs, indirection tables, RSS QPs and flows as qp.c's mlx4_ib_create_wq (create_rq),
 * mlx4_ib_modify_wq, mlx4_ib_create_rwq_ind_table, _mlx4_ib_create_qp_rss and main.c's
 * mlx4_ib_create_flow read their driver data: minimum sizes, reserved bytes and what lies beyond
 * the struct zero (ib_is_udata_cleared), no driver response but the table's.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <rdma/mlx4-abi.h>
#include <string.h>
#include <sys/mman.h>

#define PAGE 4096
#define CLOCK_OFFSET 0x40

static int get_context(struct emu_req *r)
{
	struct mlx4_ib_alloc_ucontext_resp resp = {
		.dev_caps = 0, .qp_tab_size = 1 << 17, .bf_reg_size = 512, .bf_regs_per_page = 8,
		.cqe_size = 32,
	};

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int query_device(struct emu_req *r)
{
	struct mlx4_uverbs_ex_query_device_resp resp = {
		.comp_mask = MLX4_IB_QUERY_DEV_RESP_MASK_CORE_CLOCK_OFFSET,
		.hca_core_clock_offset = CLOCK_OFFSET,
		.max_inl_recv_sz = 64,
		.rss_caps = { .rx_hash_fields_mask = 0xff, .rx_hash_function = MLX4_IB_RX_HASH_FUNC_TOEPLITZ },
		.tso_caps = { .max_tso = 65536, .supported_qpts = 1 << 8 /* IB_QPT_RAW_PACKET */ },
	};

	resp.response_length = r->uout_len < sizeof(resp) ? r->uout_len : sizeof(resp);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int alloc_pd(struct emu_req *r, struct emu_obj *pd)
{
	struct mlx4_ib_alloc_pd_resp resp = { .pdn = pd->num };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct mlx4_ib_create_cq req = { 0 };
	struct mlx4_ib_create_cq_resp resp = { .cqn = cq->num };

	if (r->uin_len < sizeof(req))
		return EINVAL;
	memcpy(&req, r->uin, sizeof(req));
	if (!req.buf_addr || !req.db_addr)
		return EINVAL;
	cq->drv[0] = req.buf_addr;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

/* The device ends a resize with a RESIZE completion in the old buffer, which the provider
 * (mlx4_cq_resize_copy_cqes) copies entries up to: at the consumer index, 0 here (32-byte CQEs,
 * the opcode in the last byte). */
static int resize_cq(struct emu_req *r, struct emu_obj *cq, uint32_t cqe)
{
	struct mlx4_ib_resize_cq req;

	if (r->uin_len < sizeof(req))
		return EINVAL;
	memcpy(&req, r->uin, sizeof(req));
	if (!req.buf_addr)
		return EINVAL;
	((uint8_t *)(uintptr_t)cq->drv[0])[31] = 0x16; /* MLX4_CQE_OPCODE_RESIZE */
	cq->drv[0] = req.buf_addr;
	cq->cqe = cqe;
	return 0;
}

static int rss_qp(struct emu_req *r)
{
	struct mlx4_ib_create_qp_rss req = { 0 };

	if (r->uout_len)
		return EOPNOTSUPP;
	if (r->uin_len < sizeof(req))
		return EINVAL;
	memcpy(&req, r->uin, sizeof(req));
	for (size_t i = 0; i < sizeof(req.reserved); i++)
		if (req.reserved[i])
			return EOPNOTSUPP;
	if (req.comp_mask || req.reserved1 || !emu_udata_cleared(r, sizeof(req)))
		return EOPNOTSUPP;
	if (req.rx_hash_function != MLX4_IB_RX_HASH_FUNC_TOEPLITZ)
		return EOPNOTSUPP;
	return 0;
}

static int create_wq(struct emu_req *r, struct emu_obj *wq)
{
	struct mlx4_ib_create_wq req = { 0 };

	int e = emu_udata_in(r, &req, sizeof(req));

	(void)wq;
	if (e)
		return e;
	if (r->uout_len)
		return EOPNOTSUPP;
	if (req.comp_mask || req.reserved[0] || req.reserved[1] || req.reserved[2])
		return EOPNOTSUPP;
	if (req.log_range_size > 3) /* ilog2 of max_rss_tbl_sz: core_wq.c takes tables of up to 8 WQs */
		return EOPNOTSUPP;
	return req.buf_addr && req.db_addr ? 0 : EINVAL;
}

static int modify_wq(struct emu_req *r, struct emu_obj *wq)
{
	struct mlx4_ib_modify_wq req = { 0 };

	int e = emu_udata_in(r, &req, sizeof(req));

	(void)wq;
	if (e)
		return e;
	return req.comp_mask || req.reserved ? EOPNOTSUPP : 0;
}

static int create_rwq_ind_tbl(struct emu_req *r, struct emu_obj *tbl)
{
	struct mlx4_ib_create_rwq_ind_tbl_resp resp = { 0 };

	(void)tbl;
	if (!emu_udata_cleared(r, 0))
		return EOPNOTSUPP;
	if (r->uout_len && r->uout_len < sizeof(resp))
		return EINVAL;
	resp.response_length = sizeof(resp.response_length);
	if (r->uout_len)
		emu_udata_out(r, &resp, resp.response_length);
	return 0;
}

/* The provider sends no driver data; whatever comes must be zero. */
static int create_flow(struct emu_req *r, struct emu_obj *flow)
{
	(void)flow;
	return emu_udata_cleared(r, 0) ? 0 : EOPNOTSUPP;
}

static int create_qp(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init)
{
	struct mlx4_ib_create_qp req = { 0 };

	(void)qp;
	/* An XRC target QP has no queues of its own: the kernel gives its driver no udata. */
	if (init->qp_type == IB_UVERBS_QPT_XRC_TGT)
		return 0;
	if (init->rss)
		return rss_qp(r);
	if (r->uin_len < offsetof(struct mlx4_ib_create_qp, inl_recv_sz))
		return EINVAL;
	memcpy(&req, r->uin, r->uin_len < sizeof(req) ? r->uin_len : sizeof(req));
	if (!req.buf_addr || req.log_sq_stride < 6 || req.log_sq_stride > 11)
		return EINVAL;
	return 0;
}

static int create_srq(struct emu_req *r, struct emu_obj *srq, uint32_t *max_wr, uint32_t *max_sge)
{
	struct mlx4_ib_create_srq_resp resp = { .srqn = srq->num };

	(void)max_wr;
	(void)max_sge;
	if (r->uin_len < sizeof(struct mlx4_ib_create_srq))
		return EINVAL;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int mmap_check(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off)
{
	(void)c;
	if (len != PAGE)
		return EINVAL;
	if (off == 0 || off == PAGE)
		return 0;
	if (off == 3 * PAGE) {
		if (prot & PROT_WRITE)
			return EPERM;
		memset((char *)addr + CLOCK_OFFSET, 0, 8);
		return 0;
	}
	return EINVAL;
}

const struct emu_drv emu_drv_mlx4 = {
	.name = "mlx4",
	.get_context = get_context,
	.query_device = query_device,
	.alloc_pd = alloc_pd,
	.create_cq = create_cq,
	.resize_cq = resize_cq,
	.create_qp = create_qp,
	.create_srq = create_srq,
	.create_wq = create_wq,
	.modify_wq = modify_wq,
	.create_rwq_ind_tbl = create_rwq_ind_tbl,
	.create_flow = create_flow,
	.mmap = mmap_check,
};
