/* uvemu: iw_cxgb4 (drivers/infiniband/hw/cxgb4) as a T5 at uverbs ABI 3: the device status page
 * behind an mmap key, filled in as the kernel keeps it (the qid and cqid ranges the provider sizes
 * its tables by), queues and GTS/doorbell pages behind keys, 64-byte CQEs when asked. iWARP: RC
 * queue pairs only, no address handles.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <rdma/cxgb4-abi.h>
#include <string.h>

#define PAGE 4096u
#define ALIGN_PAGE(x) (((x) + PAGE - 1) & ~(uint64_t)(PAGE - 1))
#define STATUS_KEY 0 /* a = 1 marks the status page's key */

/* struct t4_dev_status_page (the provider's t4.h; the kernel's t4.h has the same) */
struct status_page {
	uint8_t db_off;
	uint8_t write_cmpl_supported;
	uint16_t pad2;
	uint32_t pad3;
	uint64_t qp_start, qp_size, cq_start, cq_size;
};

static uint32_t pow2(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static int get_context(struct emu_req *r)
{
	struct c4iw_alloc_ucontext_resp resp = { .status_page_size = PAGE };

	resp.status_page_key = emu_key_new(r->ctx, PAGE, 1, 0);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int alloc_pd(struct emu_req *r, struct emu_obj *pd)
{
	struct c4iw_alloc_pd_resp resp = { .pdid = pd->num };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct c4iw_create_cq req = { 0 };
	struct c4iw_create_cq_resp resp = { .cqid = cq->num };
	uint32_t entry;

	memcpy(&req, r->uin, r->uin_len < sizeof(req) ? r->uin_len : sizeof(req));
	entry = (req.flags & C4IW_64B_CQE) ? 64 : 32;
	resp.flags = req.flags & C4IW_64B_CQE;
	resp.size = pow2(cq->cqe + 1) * 2 - 1;
	resp.memsize = ALIGN_PAGE((uint64_t)(resp.size + 1) * entry + 64);
	resp.key = emu_key_new(r->ctx, resp.memsize, 0, 0);
	resp.gts_key = emu_key_new(r->ctx, PAGE, 0, 0);
	resp.qid_mask = 0;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_qp(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init)
{
	struct c4iw_create_qp_resp resp = { .sqid = qp->num, .rqid = qp->num + 0x400 };

	resp.sq_size = pow2(init->max_send_wr + 1);
	resp.rq_size = init->srq ? 0 : pow2(init->max_recv_wr + 1);
	resp.sq_memsize = ALIGN_PAGE((uint64_t)resp.sq_size * 64 * 5 + 16 * 8);
	resp.rq_memsize = init->srq ? 0 : ALIGN_PAGE((uint64_t)resp.rq_size * 64 + 64);
	resp.sq_key = emu_key_new(r->ctx, resp.sq_memsize, 0, 0);
	resp.sq_db_gts_key = emu_key_new(r->ctx, PAGE, 0, 0);
	if (!init->srq) {
		resp.rq_key = emu_key_new(r->ctx, resp.rq_memsize, 0, 0);
		resp.rq_db_gts_key = emu_key_new(r->ctx, PAGE, 0, 0);
	}
	resp.qid_mask = 0;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_srq(struct emu_req *r, struct emu_obj *srq, uint32_t *max_wr, uint32_t *max_sge)
{
	struct c4iw_create_srq_resp resp = { .srqid = srq->num + 0x800, .rqt_abs_idx = srq->num };

	(void)max_sge;
	resp.srq_size = pow2(*max_wr + 1);
	resp.srq_memsize = ALIGN_PAGE((uint64_t)resp.srq_size * 64 + 64);
	resp.srq_key = emu_key_new(r->ctx, resp.srq_memsize, 0, 0);
	resp.srq_db_gts_key = emu_key_new(r->ctx, PAGE, 0, 0);
	resp.flags = T4_SRQ_LIMIT_SUPPORT;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int mmap_check(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off)
{
	struct emu_key *k = emu_key_find(c, off);
	int ret = emu_key_check(c, len, off);

	(void)prot;
	if (!ret && k->a == 1) {
		struct status_page sp = { .db_off = 0, .write_cmpl_supported = 0, .qp_start = 0,
					  .qp_size = 0x1000, .cq_start = 0, .cq_size = 0x1000 };

		memcpy(addr, &sp, sizeof(sp));
	}
	return ret;
}

const struct emu_drv emu_drv_cxgb4 = {
	.name = "cxgb4",
	.get_context = get_context,
	.alloc_pd = alloc_pd,
	.create_cq = create_cq,
	.create_qp = create_qp,
	.create_srq = create_srq,
	.mmap = mmap_check,
};
