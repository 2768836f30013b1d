/* uvemu: ocrdma's kernel driver (drivers/infiniband/hw/ocrdma) as an Emulex OneConnect: the AH table
 * page behind a key in the ucontext (the kernel writes each AH's id into the slot the provider
 * passed as the AH's dlid), one-page queues and doorbell pages behind keys, no DPP.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <rdma/ocrdma-abi.h>
#include <string.h>

#define PAGE 4096u
#define ALIGN_PAGE(x) (((x) + PAGE - 1) & ~(uint64_t)(PAGE - 1))
#define AH_TBL drv[2] /* the AH table's address in this process, once mapped */
#define AH_TBL_LEN PAGE

static uint32_t pow2(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static int get_context(struct emu_req *r)
{
	struct ocrdma_alloc_ucontext_resp resp = {
		.dev_id = 0, .wqe_size = 128, .max_inline_data = 116, .dpp_wqe_size = 128,
		.ah_tbl_len = AH_TBL_LEN, .rqe_size = 128, .fw_ver = "11.0.1.0",
	};

	resp.ah_tbl_page = emu_key_new(r->ctx, AH_TBL_LEN, 1, 0);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static void canon_uhw(uint16_t obj, uint16_t meth, uint32_t wcmd, uint8_t *buf, size_t len)
{
	(void)obj;
	(void)meth;
	if (wcmd == IB_USER_VERBS_CMD_ALLOC_PD && len >= sizeof(struct ocrdma_alloc_pd_ureq))
		memset(buf, 0, sizeof(struct ocrdma_alloc_pd_ureq));
	if (wcmd == IB_USER_VERBS_CMD_CREATE_CQ && len >= sizeof(struct ocrdma_create_cq_ureq))
		((struct ocrdma_create_cq_ureq *)buf)->rsvd = 0;
	if (wcmd == IB_USER_VERBS_CMD_CREATE_QP && len >= sizeof(struct ocrdma_create_qp_ureq)) {
		((struct ocrdma_create_qp_ureq *)buf)->rsvd = 0;
		((struct ocrdma_create_qp_ureq *)buf)->rsvd1 = 0;
	}
}

static int alloc_pd(struct emu_req *r, struct emu_obj *pd)
{
	struct ocrdma_alloc_pd_uresp resp = { .id = pd->num, .dpp_enabled = 0 };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct ocrdma_create_cq_uresp resp = { .cq_id = cq->num, .num_pages = 1, .phase_change = 1 };

	resp.max_hw_cqe = pow2(cq->cqe + 1);
	resp.page_size = ALIGN_PAGE(resp.max_hw_cqe * 16);
	resp.page_addr[0] = emu_key_new(r->ctx, resp.page_size, 0, 0);
	resp.db_page_size = PAGE;
	resp.db_page_addr = emu_key_new(r->ctx, PAGE, 0, 0);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_qp(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init)
{
	struct ocrdma_create_qp_uresp resp = { .qp_id = qp->num, .sq_dbid = qp->num, .rq_dbid = qp->num };

	resp.num_wqe_allocated = pow2(init->max_send_wr + 1);
	resp.sq_page_size = ALIGN_PAGE(resp.num_wqe_allocated * 128);
	resp.num_sq_pages = 1;
	resp.sq_page_addr[0] = emu_key_new(r->ctx, resp.sq_page_size, 0, 0);
	if (!init->srq) {
		resp.num_rqe_allocated = pow2(init->max_recv_wr + 1);
		resp.rq_page_size = ALIGN_PAGE(resp.num_rqe_allocated * 128);
		resp.num_rq_pages = 1;
		resp.rq_page_addr[0] = emu_key_new(r->ctx, resp.rq_page_size, 0, 0);
	}
	resp.db_page_size = PAGE;
	resp.db_page_addr = emu_key_new(r->ctx, PAGE, 0, 0);
	resp.db_sq_offset = 0x60;
	resp.db_rq_offset = 0xa0;
	resp.db_shift = 16;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_srq(struct emu_req *r, struct emu_obj *srq, uint32_t *max_wr, uint32_t *max_sge)
{
	struct ocrdma_create_srq_uresp resp = { .rq_dbid = srq->num, .num_rq_pages = 1 };

	(void)max_sge;
	resp.num_rqe_allocated = pow2(*max_wr + 1);
	resp.rq_page_size = ALIGN_PAGE(resp.num_rqe_allocated * 128);
	resp.rq_page_addr[0] = emu_key_new(r->ctx, resp.rq_page_size, 0, 0);
	resp.db_page_size = PAGE;
	resp.db_page_addr = emu_key_new(r->ctx, PAGE, 0, 0);
	resp.db_rq_offset = 0xa0;
	resp.db_shift = 16;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_ah(struct emu_req *r, struct emu_obj *ah)
{
	const struct ib_uverbs_create_ah *c = (const void *)r->in;
	uint32_t slot = c->attr.dlid;

	if (!r->ctx->AH_TBL || slot >= AH_TBL_LEN / 4)
		return EINVAL;
	((uint32_t *)(uintptr_t)r->ctx->AH_TBL)[slot] = ah->num & 0x3ff;
	return 0;
}

static int mmap_check(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off)
{
	struct emu_key *k = emu_key_find(c, off);
	int ret = emu_key_check(c, len, off);

	(void)prot;
	if (!ret && k->a == 1)
		c->AH_TBL = (uintptr_t)addr;
	return ret;
}

const struct emu_drv emu_drv_ocrdma = {
	.name = "ocrdma",
	.get_context = get_context,
	.alloc_pd = alloc_pd,
	.create_cq = create_cq,
	.create_qp = create_qp,
	.create_srq = create_srq,
	.create_ah = create_ah,
	.canon_uhw = canon_uhw,
	.mmap = mmap_check,
};
