/* uvemu: XRC domains and shared receive QPs (drivers/infiniband/core/uverbs_cmd.c: ib_uverbs_open_xrcd,
 * ib_uverbs_close_xrcd, ib_uverbs_open_qp). A driver without alloc_xrcd answers OPEN_XRCD with
 * EOPNOTSUPP. A domain is opened with fd -1 only (a file's inode shares one between processes:
 * not emulated, EBADF). XRC SRQs and XRC_INI/XRC_TGT QPs are core_obj.c's, with their domain
 * counted as in use; OPEN_QP gives a new handle to an XRC_TGT QP of the domain, found by number,
 * which keeps that QP in use (destroying it first is EBUSY) until the opened handle is destroyed.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <string.h>

static int open_xrcd(struct emu_req *r)
{
	EMU_REQ(struct ib_uverbs_open_xrcd, c);
	struct ib_uverbs_open_xrcd_resp resp = { 0 };
	struct emu_obj *x;

	if (!r->dev->xrc)
		return EOPNOTSUPP;
	if (c.fd != (uint32_t)-1)
		return EBADF;
	x = emu_obj_new(r->ctx, UVERBS_OBJECT_XRCD, &resp.xrcd_handle);
	if (!x)
		return ENOMEM;
	x->num = emu_next_num(r->ctx, UVERBS_OBJECT_XRCD);
	emu_resp_out(r, &resp, sizeof(resp));
	return 0;
}

static int open_qp(struct emu_req *r)
{
	EMU_REQ(struct ib_uverbs_open_qp, c);
	struct ib_uverbs_create_qp_resp resp = { 0 };
	struct emu_obj *qp, *real = NULL;
	uint32_t h;

	if (c.qp_type != IB_UVERBS_QPT_XRC_TGT || !emu_obj_get(r->ctx, UVERBS_OBJECT_XRCD, c.pd_handle))
		return EINVAL;
	for (h = 0; h < EMU_MAX_OBJ && !real; h++) {
		struct emu_obj *o = emu_obj_get(r->ctx, UVERBS_OBJECT_QP, h);

		if (o && o->shared == ~0u && o->xrcd == c.pd_handle && o->num == c.qpn)
			real = o;
	}
	if (!real)
		return EINVAL;
	qp = emu_obj_new(r->ctx, UVERBS_OBJECT_QP, &resp.qp_handle);
	if (!qp)
		return ENOMEM;
	qp->num = real->num;
	qp->qp_type = IB_UVERBS_QPT_XRC_TGT;
	qp->user_handle = c.user_handle;
	qp->pd = qp->scq = qp->rcq = qp->srq = ~0u;
	qp->xrcd = c.pd_handle;
	qp->shared = h - 1;
	emu_obj_use(r->ctx, UVERBS_OBJECT_QP, qp->shared, 1);
	emu_obj_use(r->ctx, UVERBS_OBJECT_XRCD, qp->xrcd, 1);
	resp.qpn = qp->num;
	emu_resp_out(r, &resp, sizeof(resp));
	return 0;
}

int emu_xrc_write(struct emu_req *r)
{
	switch (r->wcmd) {
	case IB_USER_VERBS_CMD_OPEN_XRCD:
		return open_xrcd(r);
	case IB_USER_VERBS_CMD_CLOSE_XRCD: {
		EMU_REQ(struct ib_uverbs_close_xrcd, c);

		return emu_obj_destroy(r, UVERBS_OBJECT_XRCD, c.xrcd_handle);
	}
	case IB_USER_VERBS_CMD_OPEN_QP:
		return open_qp(r);
	}
	return EOPNOTSUPP;
}
