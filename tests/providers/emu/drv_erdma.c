/* uvemu: erdma's kernel driver (drivers/infiniband/hw/erdma), an iWARP device: three doorbell pages
 * (SQ, RQ, CQ) behind mmap keys in the ucontext, queue buffers the provider allocates and names,
 * depths rounded up to powers of two with the RQ after the SQ in the QP's buffer.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <rdma/erdma-abi.h>
#include <string.h>

#define PAGE 4096u

static uint32_t pow2(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static int get_context(struct emu_req *r)
{
	struct erdma_uresp_alloc_ctx resp = { .dev_id = 1, .sdb_type = 0, .sdb_offset = 0 };

	resp.sdb = emu_key_new(r->ctx, PAGE, 0, 0);
	resp.rdb = emu_key_new(r->ctx, PAGE, 0, 0);
	resp.cdb = emu_key_new(r->ctx, PAGE, 0, 0);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct erdma_ureq_create_cq req = { 0 };
	struct erdma_uresp_create_cq resp = { .cq_id = cq->num, .num_cqe = cq->cqe };

	if (r->uin_len < sizeof(req))
		return EINVAL;
	memcpy(&req, r->uin, sizeof(req));
	if (!req.qbuf_va || !req.db_record_va || req.qbuf_len < cq->cqe * 32)
		return EINVAL;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_qp(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init)
{
	struct erdma_ureq_create_qp req = { 0 };
	struct erdma_uresp_create_qp resp = { .qp_id = qp->num };

	if (r->uin_len < sizeof(req))
		return EINVAL;
	memcpy(&req, r->uin, sizeof(req));
	resp.num_sqe = pow2(init->max_send_wr * 4 /* ERDMA_MAX_WQEBB_PER_SQE */);
	resp.num_rqe = pow2(init->max_recv_wr);
	resp.rq_offset = (resp.num_sqe * 32 + PAGE - 1) & ~(PAGE - 1);
	if (!req.qbuf_va || req.qbuf_len < resp.rq_offset + resp.num_rqe * 32)
		return EINVAL;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int mmap_check(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off)
{
	(void)addr;
	(void)prot;
	return emu_key_check(c, len, off);
}

const struct emu_drv emu_drv_erdma = {
	.name = "erdma",
	.get_context = get_context,
	.create_cq = create_cq,
	.create_qp = create_qp,
	.mmap = mmap_check,
};
