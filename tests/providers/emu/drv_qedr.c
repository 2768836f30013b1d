/* uvemu: qedr's kernel driver (drivers/infiniband/hw/qedr) as a RoCE FastLinQ 41000: the doorbell
 * BAR window behind the ucontext's db_pa key, doorbell-recovery pages behind per-queue keys, icids
 * and ids for every object, no DPM.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <rdma/qedr-abi.h>
#include <string.h>

#define PAGE 4096u
#define DB_SIZE (64 * 1024u)

static int get_context(struct emu_req *r)
{
	struct qedr_alloc_ucontext_req req = { 0 };
	struct qedr_alloc_ucontext_resp resp = {
		.db_size = DB_SIZE, .max_send_wr = 8192, .max_recv_wr = 8192, .max_srq_wr = 8192,
		.sges_per_send_wr = 4, .sges_per_recv_wr = 4, .sges_per_srq_wr = 4, .max_cqes = 32768,
		.dpm_flags = 0,
	};

	memcpy(&req, r->uin, r->uin_len < sizeof(req) ? r->uin_len : sizeof(req));
	if (req.context_flags & QEDR_SUPPORT_DPM_SIZES)
		resp.dpm_flags |= QEDR_DPM_SIZES_SET;
	r->ctx->drv[3] = req.context_flags & QEDR_ALLOC_UCTX_DB_REC;
	resp.db_pa = emu_key_new(r->ctx, DB_SIZE, 0, 0);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static void canon_uhw(uint16_t obj, uint16_t meth, uint32_t wcmd, uint8_t *buf, size_t len)
{
	(void)obj;
	(void)meth;
	if (wcmd == IB_USER_VERBS_CMD_GET_CONTEXT && len >= sizeof(struct qedr_alloc_ucontext_req))
		((struct qedr_alloc_ucontext_req *)buf)->reserved = 0;
	if (wcmd == IB_USER_VERBS_CMD_ALLOC_PD && len >= sizeof(struct qedr_alloc_pd_ureq))
		((struct qedr_alloc_pd_ureq *)buf)->rsvd1 = 0;
	/* The QP's handle comes back in its CQEs: a process address, in two halves. */
	if (wcmd == IB_USER_VERBS_CMD_CREATE_QP && len >= sizeof(struct qedr_create_qp_ureq)) {
		struct qedr_create_qp_ureq *q = (void *)buf;

		if (emu_looks_like_ptr((uint64_t)q->qp_handle_hi << 32 | q->qp_handle_lo))
			q->qp_handle_hi = q->qp_handle_lo = 0x70747200; /* "ptr" */
	}
}

static int alloc_pd(struct emu_req *r, struct emu_obj *pd)
{
	struct qedr_alloc_pd_uresp resp = { .pd_id = pd->num };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static uint64_t db_rec(struct emu_req *r)
{
	return r->ctx->drv[3] ? emu_key_new(r->ctx, PAGE, 0, 0) : 0;
}

static int create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct qedr_create_cq_ureq req = { 0 };
	struct qedr_create_cq_uresp resp = { .db_offset = 0x600, .icid = cq->num };

	if (r->uin_len < sizeof(req))
		return EINVAL;
	memcpy(&req, r->uin, sizeof(req));
	if (!req.addr || !req.len)
		return EINVAL;
	resp.db_rec_addr = db_rec(r);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_qp(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init)
{
	struct qedr_create_qp_uresp resp = { .qp_id = qp->num, .atomic_supported = 1 };

	if (r->uin_len < sizeof(struct qedr_create_qp_ureq))
		return EINVAL;
	resp.sq_db_offset = 0x800;
	resp.sq_icid = qp->num * 2 + 1;
	resp.sq_db_rec_addr = db_rec(r);
	if (!init->srq) {
		resp.rq_db_offset = 0x880;
		resp.rq_icid = qp->num * 2;
		resp.rq_db_rec_addr = db_rec(r);
	}
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_srq(struct emu_req *r, struct emu_obj *srq, uint32_t *max_wr, uint32_t *max_sge)
{
	struct qedr_create_srq_uresp resp = { .srq_id = srq->num };

	(void)max_wr;
	(void)max_sge;
	if (r->uin_len < sizeof(struct qedr_create_srq_ureq))
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

const struct emu_drv emu_drv_qedr = {
	.name = "qedr",
	.get_context = get_context,
	.alloc_pd = alloc_pd,
	.create_cq = create_cq,
	.create_qp = create_qp,
	.create_srq = create_srq,
	.canon_uhw = canon_uhw,
	.mmap = mmap_check,
};
