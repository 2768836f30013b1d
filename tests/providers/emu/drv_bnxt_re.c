/* uvemu: bnxt_re's kernel driver (drivers/infiniband/hw/bnxt_re) as a BCM57414: the shared page
 * at mmap offset 0 (the kernel writes each new AH's id into it, where the provider reads it back),
 * the doorbell page named by the PD's dbr, static WQE mode, and cq/qp/srq ids.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <rdma/bnxt_re-abi.h>
#include <string.h>

#define PAGE 4096u
#define DB_OFFSET (16 * PAGE)
#define SHPG drv[2] /* the shared page's address in this process, once mapped */

static int get_context(struct emu_req *r)
{
	struct bnxt_re_uctx_resp resp = {
		.dev_id = 0, .max_qp = 1 << 16, .pg_size = PAGE, .cqe_sz = 32, .max_cqd = 1 << 16,
		.comp_mask = BNXT_RE_UCNTX_CMASK_HAVE_CCTX | BNXT_RE_UCNTX_CMASK_HAVE_MODE,
		.chip_id0 = 0x16d7, .mode = BNXT_QPLIB_WQE_MODE_STATIC,
	};

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int alloc_pd(struct emu_req *r, struct emu_obj *pd)
{
	struct bnxt_re_pd_resp resp = { .pdid = pd->num, .dpi = 1, .dbr = DB_OFFSET };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct bnxt_re_cq_resp resp = { .cqid = cq->num, .tail = 0, .phase = 1 };

	if (r->uin_len < sizeof(struct bnxt_re_cq_req))
		return EINVAL;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_qp(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init)
{
	struct bnxt_re_qp_resp resp = { .qpid = qp->num };

	(void)init;
	if (r->uin_len < sizeof(struct bnxt_re_qp_req))
		return EINVAL;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_srq(struct emu_req *r, struct emu_obj *srq, uint32_t *max_wr, uint32_t *max_sge)
{
	struct bnxt_re_srq_resp resp = { .srqid = srq->num };

	(void)max_wr;
	(void)max_sge;
	if (r->uin_len < sizeof(struct bnxt_re_srq_req))
		return EINVAL;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_ah(struct emu_req *r, struct emu_obj *ah)
{
	uint32_t avid = ah->num;

	if (r->ctx->SHPG)
		memcpy((char *)(uintptr_t)r->ctx->SHPG + BNXT_RE_AVID_OFFT, &avid, sizeof(avid));
	return 0;
}

static int mmap_check(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off)
{
	(void)prot;
	if (len != PAGE)
		return EINVAL;
	if (off == 0) {
		c->SHPG = (uintptr_t)addr;
		return 0;
	}
	return off == DB_OFFSET ? 0 : EINVAL;
}

const struct emu_drv emu_drv_bnxt_re = {
	.name = "bnxt_re",
	.get_context = get_context,
	.alloc_pd = alloc_pd,
	.create_cq = create_cq,
	.create_qp = create_qp,
	.create_srq = create_srq,
	.create_ah = create_ah,
	.mmap = mmap_check,
};
