/* uvemu: the software providers' kernel drivers, rxe (drivers/infiniband/sw/rxe) and siw
 * (drivers/infiniband/sw/siw): queues the provider maps by the key the kernel returned, rxe's with
 * the queue header (element size and index mask) at their start, as the kernel's rxe_queue_init
 * lays it out.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <rdma/rdma_user_rxe.h>
#include <rdma/siw-abi.h>
#include <string.h>

static uint32_t pow2(uint32_t n)
{
	uint32_t p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

static uint32_t log2u(uint32_t n)
{
	uint32_t l = 0;

	while ((1u << l) < n)
		l++;
	return l;
}

/* ---- rxe ---- */

static struct mminfo rxe_queue(struct emu_ctx *c, uint32_t n, uint32_t elem)
{
	uint32_t num = pow2(n + 1), esz = pow2(elem);
	struct mminfo mi = { 0 };

	mi.size = sizeof(struct rxe_queue_buf) + (size_t)num * esz;
	mi.offset = emu_key_new(c, mi.size, log2u(esz), num - 1);
	return mi;
}

static int rxe_create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct rxe_create_cq_resp resp = { 0 };

	resp.mi = rxe_queue(r->ctx, cq->cqe, sizeof(struct ib_uverbs_wc));
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int rxe_resize_cq(struct emu_req *r, struct emu_obj *cq, uint32_t cqe)
{
	struct rxe_resize_cq_resp resp = { 0 };

	cq->cqe = cqe;
	resp.mi = rxe_queue(r->ctx, cqe, sizeof(struct ib_uverbs_wc));
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int rxe_create_qp(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init)
{
	struct rxe_create_qp_resp resp = { 0 };
	uint32_t sge = init->max_send_sge > 1 ? init->max_send_sge : 1;

	(void)qp;
	if (!init->srq)
		resp.rq_mi = rxe_queue(r->ctx, init->max_recv_wr,
				       sizeof(struct rxe_recv_wqe) + init->max_recv_sge * sizeof(struct rxe_sge));
	resp.sq_mi = rxe_queue(r->ctx, init->max_send_wr,
			       sizeof(struct rxe_send_wqe) + (sge * sizeof(struct rxe_sge) > init->max_inline
								  ? sge * sizeof(struct rxe_sge) : init->max_inline));
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int rxe_create_srq(struct emu_req *r, struct emu_obj *srq, uint32_t *max_wr, uint32_t *max_sge)
{
	struct rxe_create_srq_resp resp = { 0 };

	resp.mi = rxe_queue(r->ctx, *max_wr, sizeof(struct rxe_recv_wqe) + *max_sge * sizeof(struct rxe_sge));
	resp.srq_num = srq->num;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int rxe_create_ah(struct emu_req *r, struct emu_obj *ah)
{
	struct rxe_create_ah_resp resp = { .ah_num = ah->num };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int rxe_mmap(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off)
{
	struct emu_key *k = emu_key_find(c, off);
	struct rxe_queue_buf *q = addr;

	(void)prot;
	if (emu_key_check(c, len, off))
		return EINVAL;
	q->log2_elem_size = k->a;
	q->index_mask = k->b;
	return 0;
}

static int soft_destroy(struct emu_ctx *c, struct emu_obj *o)
{
	(void)c;
	(void)o;
	return 0;
}

const struct emu_drv emu_drv_rxe = {
	.name = "rxe",
	.create_cq = rxe_create_cq,
	.resize_cq = rxe_resize_cq,
	.create_qp = rxe_create_qp,
	.create_srq = rxe_create_srq,
	.create_ah = rxe_create_ah,
	.destroy = soft_destroy,
	.mmap = rxe_mmap,
};

/* ---- siw ---- */

static int siw_get_context(struct emu_req *r)
{
	struct siw_uresp_alloc_ctx resp = { .dev_id = 1 };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int siw_reg_mr(struct emu_req *r, struct emu_obj *mr)
{
	struct siw_uresp_reg_mr resp = { .stag = mr->num };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int siw_create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct siw_uresp_create_cq resp = { .cq_id = cq->num, .num_cqe = cq->cqe };

	resp.cq_key = emu_key_new(r->ctx, resp.num_cqe * sizeof(struct siw_cqe) + sizeof(struct siw_cq_ctrl), 0, 0);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int siw_create_qp(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init)
{
	struct siw_uresp_create_qp resp = { .qp_id = qp->num };

	resp.num_sqe = pow2(init->max_send_wr);
	resp.num_rqe = init->srq ? 0 : pow2(init->max_recv_wr);
	resp.sq_key = emu_key_new(r->ctx, resp.num_sqe * sizeof(struct siw_sqe), 0, 0);
	resp.rq_key = init->srq ? SIW_INVAL_UOBJ_KEY : emu_key_new(r->ctx, resp.num_rqe * sizeof(struct siw_rqe), 0, 0);
	if (init->srq)
		resp.rq_key = 0;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int siw_create_srq(struct emu_req *r, struct emu_obj *srq, uint32_t *max_wr, uint32_t *max_sge)
{
	struct siw_uresp_create_srq resp = { .num_rqe = pow2(*max_wr) };

	(void)srq;
	(void)max_sge;
	resp.srq_key = emu_key_new(r->ctx, resp.num_rqe * sizeof(struct siw_rqe), 0, 0);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int siw_mmap(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off)
{
	(void)addr;
	(void)prot;
	return emu_key_check(c, len, off);
}

const struct emu_drv emu_drv_siw = {
	.name = "siw",
	.get_context = siw_get_context,
	.reg_mr = siw_reg_mr,
	.create_cq = siw_create_cq,
	.create_qp = siw_create_qp,
	.create_srq = siw_create_srq,
	.destroy = soft_destroy,
	.mmap = siw_mmap,
};
