/* uvemu: irdma's kernel driver (drivers/infiniband/hw/irdma) as an E810 (GEN_2, RoCEv2) answers:
 * raw attributes in the ucontext, the doorbell page behind its mmap key, queue memory registered
 * first as an MR of type QP or CQ (irdma_mem_reg_req in the REG_MR's driver data) and then named
 * by its address in the QP or CQ it backs (not registered first: EINVAL), no push mode.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <rdma/irdma-abi.h>
#include <string.h>

#define PAGE 4096u

static int get_context(struct emu_req *r)
{
	struct irdma_alloc_ucontext_req req = { 0 };
	struct irdma_alloc_ucontext_resp resp = { 0 };

	if (r->uin_len < offsetof(struct irdma_alloc_ucontext_req, rsvd8))
		return EINVAL;
	memcpy(&req, r->uin, r->uin_len < sizeof(req) ? r->uin_len : sizeof(req));
	if (req.userspace_ver < 4 || req.userspace_ver > 5)
		return EINVAL;
	resp.max_pds = 1 << 18;
	resp.max_qps = 1 << 18;
	resp.wq_size = 4096;
	resp.kernel_ver = req.userspace_ver;
	resp.feature_flags = 2; /* IRDMA_FEATURE_CQ_RESIZE */
	resp.db_mmap_key = emu_key_new(r->ctx, PAGE, 0, 0);
	resp.max_hw_wq_frags = 13;
	resp.max_hw_read_sges = 13;
	resp.max_hw_inline = 101;
	resp.max_hw_rq_quanta = 32768;
	resp.max_hw_wq_quanta = 32768;
	resp.min_hw_cq_size = 8;
	resp.max_hw_cq_size = 1048575;
	resp.max_hw_sq_chunk = 8;
	resp.hw_rev = 2;
	if (r->uin_len >= sizeof(req) && (req.comp_mask & IRDMA_ALLOC_UCTX_USE_RAW_ATTR))
		resp.comp_mask = IRDMA_ALLOC_UCTX_USE_RAW_ATTR;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static void canon_uhw(uint16_t obj, uint16_t meth, uint32_t wcmd, uint8_t *buf, size_t len)
{
	(void)obj;
	(void)meth;
	if (wcmd == IB_USER_VERBS_CMD_GET_CONTEXT && len >= offsetof(struct irdma_alloc_ucontext_req, comp_mask)) {
		struct irdma_alloc_ucontext_req *q = (void *)buf;

		q->rsvd32 = 0;
		memset(q->rsvd8, 0, sizeof(q->rsvd8));
	}
	/* irdma_reg_user_mr reads the page counts only for QP and CQ memory: rdma-core 65's
	 * irdma_ureg_mr leaves them uninitialised on its stack for plain memory. */
	if (wcmd == IB_USER_VERBS_CMD_REG_MR && len >= sizeof(struct irdma_mem_reg_req)) {
		struct irdma_mem_reg_req *q = (void *)buf;

		if (q->reg_type == IRDMA_MEMREG_TYPE_MEM)
			q->cq_pages = q->rq_pages = q->sq_pages = 0;
	}
}

static int alloc_pd(struct emu_req *r, struct emu_obj *pd)
{
	struct irdma_alloc_pd_resp resp = { .pd_id = pd->num };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

/* A registered queue memory of a type: the MR whose driver data said so, by address. */
static bool queue_mem(struct emu_ctx *c, uint16_t type, uint64_t va)
{
	for (unsigned h = 0; h < EMU_MAX_OBJ; h++)
		if (c->obj[h].live && c->obj[h].type == UVERBS_OBJECT_MR && c->obj[h].drv[0] == type &&
		    c->obj[h].drv[1] == va)
			return true;
	return false;
}

static int reg_mr(struct emu_req *r, struct emu_obj *mr)
{
	struct irdma_mem_reg_req req = { 0 };
	const struct ib_uverbs_reg_mr *c = (const void *)r->in;

	if (r->uin_len < sizeof(req))
		return EINVAL;
	memcpy(&req, r->uin, sizeof(req));
	if (req.reg_type > IRDMA_MEMREG_TYPE_CQ)
		return EINVAL;
	mr->drv[0] = req.reg_type;
	mr->drv[1] = r->in ? c->start : 0;
	return 0;
}

static int create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct irdma_create_cq_req req = { 0 };
	struct irdma_create_cq_resp resp = { .cq_id = cq->num, .cq_size = cq->cqe };

	if (r->uin_len < sizeof(req))
		return EINVAL;
	memcpy(&req, r->uin, sizeof(req));
	if (!queue_mem(r->ctx, IRDMA_MEMREG_TYPE_CQ, req.user_cq_buf))
		return EINVAL;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int resize_cq(struct emu_req *r, struct emu_obj *cq, uint32_t cqe)
{
	struct irdma_resize_cq_req req = { 0 };

	if (r->uin_len < sizeof(req))
		return EINVAL;
	memcpy(&req, r->uin, sizeof(req));
	if (!queue_mem(r->ctx, IRDMA_MEMREG_TYPE_CQ, req.user_cq_buffer))
		return EINVAL;
	cq->cqe = cqe;
	return 0;
}

static int create_qp(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init)
{
	struct irdma_create_qp_req req = { 0 };
	struct irdma_create_qp_resp resp = { .qp_id = qp->num };

	if (r->uin_len < sizeof(req))
		return EINVAL;
	memcpy(&req, r->uin, sizeof(req));
	if (!queue_mem(r->ctx, IRDMA_MEMREG_TYPE_QP, req.user_wqe_bufs))
		return EINVAL;
	resp.actual_sq_size = init->max_send_wr + 1;
	resp.actual_rq_size = init->max_recv_wr + 1;
	resp.lsmm = 1;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int modify_qp(struct emu_req *r, struct emu_obj *qp)
{
	struct irdma_modify_qp_resp resp = { 0 };

	(void)qp;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_ah(struct emu_req *r, struct emu_obj *ah)
{
	struct irdma_create_ah_resp resp = { .ah_id = ah->num };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int mmap_check(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off)
{
	(void)addr;
	(void)prot;
	return emu_key_check(c, len, off);
}

const struct emu_drv emu_drv_irdma = {
	.name = "irdma",
	.get_context = get_context,
	.alloc_pd = alloc_pd,
	.reg_mr = reg_mr,
	.create_cq = create_cq,
	.resize_cq = resize_cq,
	.create_qp = create_qp,
	.modify_qp = modify_qp,
	.create_ah = create_ah,
	.canon_uhw = canon_uhw,
	.mmap = mmap_check,
};
