/* uvemu: efa's kernel driver (drivers/infiniband/hw/efa): UD and SRD queue pairs only (an RC QP is
 * EOPNOTSUPP), one sub-CQ per CQ, LLQ send queues, and every queue and doorbell page behind an
 * mmap key with the size the driver computes; the AH number comes back in the AH's driver data.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <rdma/efa-abi.h>
#include <string.h>

#define PAGE 4096u
#define ALIGN_PAGE(x) (((x) + PAGE - 1) & ~(uint64_t)(PAGE - 1))

static int get_context(struct emu_req *r)
{
	struct efa_ibv_alloc_ucontext_resp resp = {
		.cmds_supp_udata_mask = EFA_USER_CMDS_SUPP_UDATA_QUERY_DEVICE | EFA_USER_CMDS_SUPP_UDATA_CREATE_AH,
		.sub_cqs_per_cq = 1, .inline_buf_size = 32, .max_llq_size = 1 << 22, .max_tx_batch = 16,
		.min_sq_wr = 1,
	};

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int query_device(struct emu_req *r)
{
	struct efa_ibv_ex_query_device_resp resp = {
		.max_sq_wr = 4096, .max_rq_wr = 32768, .max_sq_sge = 2, .max_rq_sge = 3,
		.max_rdma_size = 1 << 30,
		.device_caps = EFA_QUERY_DEVICE_CAPS_RDMA_READ | EFA_QUERY_DEVICE_CAPS_RNR_RETRY |
			       EFA_QUERY_DEVICE_CAPS_CQ_NOTIFICATIONS,
	};

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int alloc_pd(struct emu_req *r, struct emu_obj *pd)
{
	struct efa_ibv_alloc_pd_resp resp = { .pdn = pd->num };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct efa_ibv_create_cq req = { 0 };
	struct efa_ibv_create_cq_resp resp = { .cq_idx = cq->num };

	if (r->uin_len < offsetof(struct efa_ibv_create_cq, flags))
		return EINVAL;
	memcpy(&req, r->uin, r->uin_len < sizeof(req) ? r->uin_len : sizeof(req));
	if (req.comp_mask || req.num_sub_cqs != 1 || !req.cq_entry_size)
		return EINVAL;
	resp.q_mmap_size = ALIGN_PAGE((uint64_t)cq->cqe * req.cq_entry_size * req.num_sub_cqs);
	resp.q_mmap_key = emu_key_new(r->ctx, resp.q_mmap_size, 0, 0);
	if (req.flags & EFA_CREATE_CQ_WITH_COMPLETION_CHANNEL) {
		resp.comp_mask |= EFA_CREATE_CQ_RESP_DB_OFF;
		resp.db_off = 0x40;
		resp.db_mmap_key = emu_key_new(r->ctx, PAGE, 0, 0);
	}
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_qp(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init)
{
	struct efa_ibv_create_qp req = { 0 };
	struct efa_ibv_create_qp_resp resp = { 0 };

	if (init->qp_type != IB_UVERBS_QPT_UD && init->qp_type != IB_UVERBS_QPT_DRIVER)
		return EOPNOTSUPP;
	if (r->uin_len < sizeof(req))
		return EINVAL;
	memcpy(&req, r->uin, sizeof(req));
	if (req.comp_mask)
		return EINVAL;
	(void)qp;
	resp.sq_db_offset = 0x100;
	resp.rq_db_offset = 0x200;
	resp.llq_desc_offset = 0;
	resp.sq_db_mmap_key = emu_key_new(r->ctx, PAGE, 0, 0);
	resp.llq_desc_mmap_key = emu_key_new(r->ctx, ALIGN_PAGE(req.sq_ring_size), 0, 0);
	if (req.rq_ring_size) {
		resp.rq_db_mmap_key = emu_key_new(r->ctx, PAGE, 0, 0);
		resp.rq_mmap_size = ALIGN_PAGE(req.rq_ring_size);
		resp.rq_mmap_key = emu_key_new(r->ctx, resp.rq_mmap_size, 0, 0);
	}
	resp.send_sub_cq_idx = 0;
	resp.recv_sub_cq_idx = 0;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_ah(struct emu_req *r, struct emu_obj *ah)
{
	struct efa_ibv_create_ah_resp resp = { .efa_address_handle = ah->num };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int mmap_check(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off)
{
	(void)addr;
	(void)prot;
	return emu_key_check(c, len, off);
}

const struct emu_drv emu_drv_efa = {
	.name = "efa",
	.get_context = get_context,
	.query_device = query_device,
	.alloc_pd = alloc_pd,
	.create_cq = create_cq,
	.create_qp = create_qp,
	.create_ah = create_ah,
	.mmap = mmap_check,
};
