/* uvemu: hns's kernel driver (drivers/infiniband/hw/hns) as a HIP09 (hardware version 3): 64-byte
 * CQEs, record doorbells, direct WQE pages behind per-QP mmap keys, the UAR at mmap offset 0.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <rdma/hns-abi.h>
#include <string.h>

#define PAGE 4096u
#define DWQE_SIZE 65536u

static int get_context(struct emu_req *r)
{
	struct hns_roce_ib_alloc_ucontext_resp resp = {
		.qp_tab_size = 1 << 18, .cqe_size = 64, .srq_tab_size = 1 << 16, .max_inline_data = 1024,
	};

	r->ctx->next_key = 16 * PAGE;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int alloc_pd(struct emu_req *r, struct emu_obj *pd)
{
	struct hns_roce_ib_alloc_pd_resp resp = { .pdn = pd->num };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct hns_roce_ib_create_cq req = { 0 };
	struct hns_roce_ib_create_cq_resp resp = { .cqn = cq->num, .cap_flags = HNS_ROCE_CQ_FLAG_RECORD_DB };

	if (r->uin_len < offsetof(struct hns_roce_ib_create_cq, cqe_size))
		return EINVAL;
	memcpy(&req, r->uin, r->uin_len < sizeof(req) ? r->uin_len : sizeof(req));
	if (!req.buf_addr)
		return EINVAL;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_qp(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init)
{
	struct hns_roce_ib_create_qp_resp resp = { 0 };

	(void)qp;
	/* An XRC target QP has no queues of its own: the kernel gives its driver no udata. */
	if (init->qp_type == IB_UVERBS_QPT_XRC_TGT)
		return 0;
	if (r->uin_len < offsetof(struct hns_roce_ib_create_qp, sdb_addr))
		return EINVAL;
	resp.cap_flags = HNS_ROCE_QP_CAP_SQ_RECORD_DB | HNS_ROCE_QP_CAP_DIRECT_WQE;
	if (!init->srq)
		resp.cap_flags |= HNS_ROCE_QP_CAP_RQ_RECORD_DB;
	resp.dwqe_mmap_key = emu_key_new(r->ctx, DWQE_SIZE, 0, 0);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_srq(struct emu_req *r, struct emu_obj *srq, uint32_t *max_wr, uint32_t *max_sge)
{
	struct hns_roce_ib_create_srq_resp resp = { .srqn = srq->num };

	(void)max_wr;
	(void)max_sge;
	if (r->uin_len < sizeof(struct hns_roce_ib_create_srq))
		return EINVAL;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int mmap_check(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off)
{
	(void)addr;
	(void)prot;
	if (off == 0)
		return len == PAGE ? 0 : EINVAL;
	return emu_key_check(c, len, off);
}

const struct emu_drv emu_drv_hns = {
	.name = "hns",
	.get_context = get_context,
	.alloc_pd = alloc_pd,
	.create_cq = create_cq,
	.create_qp = create_qp,
	.create_srq = create_srq,
	.mmap = mmap_check,
};
