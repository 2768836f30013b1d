/* uvemu: vmw_pvrdma (drivers/infiniband/hw/vmw_pvrdma): the UAR page at mmap offset 0, ring buffers
 * in the provider's own memory named by address, qpn/cqn/srqn/pdn and a QP handle.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <rdma/vmw_pvrdma-abi.h>
#include <string.h>

#define PAGE 4096u

static int get_context(struct emu_req *r)
{
	struct pvrdma_alloc_ucontext_resp resp = { .qp_tab_size = 1 << 12 };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static void canon_uhw(uint16_t obj, uint16_t meth, uint32_t wcmd, uint8_t *buf, size_t len)
{
	(void)obj;
	(void)meth;
	if ((wcmd == IB_USER_VERBS_CMD_CREATE_CQ && len >= sizeof(struct pvrdma_create_cq)) ||
	    (wcmd == IB_USER_VERBS_CMD_CREATE_SRQ && len >= sizeof(struct pvrdma_create_srq)))
		((struct pvrdma_create_cq *)buf)->reserved = 0; /* the same layout */
}

static int alloc_pd(struct emu_req *r, struct emu_obj *pd)
{
	struct pvrdma_alloc_pd_resp resp = { .pdn = pd->num };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct pvrdma_create_cq req = { 0 };
	struct pvrdma_create_cq_resp resp = { .cqn = cq->num };

	if (r->uin_len < sizeof(req))
		return EINVAL;
	memcpy(&req, r->uin, sizeof(req));
	if (!req.buf_addr || !req.buf_size)
		return EINVAL;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_qp(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init)
{
	struct pvrdma_create_qp req = { 0 };
	/* The device's handle indexes the provider's table of qp_tab_size entries. */
	struct pvrdma_create_qp_resp resp = { .qpn = qp->num, .qp_handle = (qp->num & 0xfff) + 1 };

	(void)init;
	if (r->uin_len < offsetof(struct pvrdma_create_qp, qp_addr))
		return EINVAL;
	memcpy(&req, r->uin, r->uin_len < sizeof(req) ? r->uin_len : sizeof(req));
	if (!req.sbuf_addr)
		return EINVAL;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_srq(struct emu_req *r, struct emu_obj *srq, uint32_t *max_wr, uint32_t *max_sge)
{
	struct pvrdma_create_srq_resp resp = { .srqn = srq->num };

	(void)max_wr;
	(void)max_sge;
	if (r->uin_len < sizeof(struct pvrdma_create_srq))
		return EINVAL;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int mmap_check(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off)
{
	(void)c;
	(void)addr;
	(void)prot;
	return off == 0 && len == PAGE ? 0 : EINVAL;
}

const struct emu_drv emu_drv_vmw_pvrdma = {
	.name = "vmw_pvrdma",
	.get_context = get_context,
	.alloc_pd = alloc_pd,
	.create_cq = create_cq,
	.create_qp = create_qp,
	.create_srq = create_srq,
	.canon_uhw = canon_uhw,
	.mmap = mmap_check,
};
