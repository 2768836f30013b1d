/* uvemu: the core uverbs objects (drivers/infiniband/core/uverbs_cmd.c and uverbs_std_types_*.c):
 * PD, MR, MW, AH, through write commands and ioctl methods, and the destruction of every type;
 * the completion channel and CQ are core_cq.c's, QP and SRQ core_qp.c's, which the write commands
 * and ioctl methods here hand theirs. Each object is created and destroyed by one function that
 * both paths call; the provider's driver data comes from its emu_drv hooks. An object in use by
 * another cannot be destroyed (EBUSY), as the kernel's usecnt checks; events still queued for a
 * destroyed CQ are dropped.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static void use(struct emu_ctx *c, uint16_t type, uint32_t h, int d)
{
	struct emu_obj *o = emu_obj_get(c, type, h);

	if (o)
		o->usecnt += d;
}

/* ---- destroy (every type) ---- */

static int destroy(struct emu_req *r, uint16_t type, uint32_t h, struct emu_obj *copy)
{
	struct emu_obj *o = emu_obj_get(r->ctx, type, h);
	int ret;

	if (!o)
		return EINVAL;
	if (o->usecnt)
		return EBUSY;
	if (emu_req_drv(r)->destroy) {
		ret = emu_req_drv(r)->destroy(r->ctx, o);
		if (ret)
			return ret;
	}
	if (type == UVERBS_OBJECT_MR || type == UVERBS_OBJECT_MW || type == UVERBS_OBJECT_AH ||
	    type == UVERBS_OBJECT_SRQ)
		use(r->ctx, UVERBS_OBJECT_PD, o->pd, -1);
	if (type == UVERBS_OBJECT_SRQ && o->xrcd != ~0u)
		use(r->ctx, UVERBS_OBJECT_CQ, o->scq, -1);
	use(r->ctx, UVERBS_OBJECT_XRCD, o->xrcd, -1);
	use(r->ctx, UVERBS_OBJECT_DM, o->dm, -1);
	use(r->ctx, EMU_OBJECT_DMAH, o->dmah, -1);
	use(r->ctx, UVERBS_OBJECT_QP, o->shared, -1);
	use(r->ctx, UVERBS_OBJECT_RWQ_IND_TBL, o->tbl, -1);
	if (type == UVERBS_OBJECT_QP) {
		if (o->pd != ~0u)
			use(r->ctx, UVERBS_OBJECT_PD, o->pd, -1);
		use(r->ctx, UVERBS_OBJECT_CQ, o->scq, -1);
		use(r->ctx, UVERBS_OBJECT_CQ, o->rcq, -1);
		if (o->srq != ~0u)
			use(r->ctx, UVERBS_OBJECT_SRQ, o->srq, -1);
	}
	if (type == UVERBS_OBJECT_CQ && o->channel >= 0) {
		/* Drop its queued completion events (and their eventfd tokens). */
		struct emu_fd *f = emu_fd_get(o->channel);

		if (f) {
			struct emu_evq q = f->q;
			uint64_t token;

			f->q.n = 0;
			for (unsigned i = 0; i < q.n; i++) {
				struct emu_event *e = &q.ev[(q.head + i) % EMU_EVQ];

				if (e->handle == h)
					(void)!real_read(o->channel, &token, sizeof(token));
				else
					f->q.ev[(f->q.head + f->q.n++) % EMU_EVQ] = *e;
			}
		}
	}
	if (copy)
		*copy = *o;
	emu_obj_free(r->ctx, h);
	return 0;
}

void emu_obj_use(struct emu_ctx *c, uint16_t type, uint32_t h, int d)
{
	use(c, type, h, d);
}

int emu_obj_destroy(struct emu_req *r, uint16_t type, uint32_t h)
{
	return destroy(r, type, h, NULL);
}

int emu_obj_destroy_gone(struct emu_req *r, uint16_t type, uint32_t h, struct emu_obj *gone)
{
	return destroy(r, type, h, gone);
}

/* ---- PD, MR, MW ---- */

static int alloc_pd(struct emu_req *r, uint32_t *handle)
{
	struct emu_obj *pd = emu_obj_new(r->ctx, UVERBS_OBJECT_PD, handle);
	int ret;

	if (!pd)
		return ENOMEM;
	pd->num = emu_next_num(r->ctx, UVERBS_OBJECT_PD);
	ret = emu_req_drv(r)->alloc_pd ? emu_req_drv(r)->alloc_pd(r, pd) : 0;
	if (ret)
		emu_obj_free(r->ctx, *handle);
	return ret;
}

static int reg_mr(struct emu_req *r, const struct ib_uverbs_reg_mr *c, struct ib_uverbs_reg_mr_resp *resp)
{
	struct emu_obj *mr;
	uint32_t h;
	int ret;

	if (!emu_obj_get(r->ctx, UVERBS_OBJECT_PD, c->pd_handle))
		return EINVAL;
	if ((c->start & 4095) != (c->hca_va & 4095) || !c->length)
		return EINVAL;
	/* ib_check_mr_access: remote write or atomic needs local write */
	if ((c->access_flags & (IB_UVERBS_ACCESS_REMOTE_WRITE | IB_UVERBS_ACCESS_REMOTE_ATOMIC)) &&
	    !(c->access_flags & IB_UVERBS_ACCESS_LOCAL_WRITE))
		return EINVAL;
	if ((c->access_flags & IB_UVERBS_ACCESS_ON_DEMAND) && !r->dev->odp)
		return EOPNOTSUPP;
	mr = emu_obj_new(r->ctx, UVERBS_OBJECT_MR, &h);
	if (!mr)
		return ENOMEM;
	mr->num = emu_next_num(r->ctx, UVERBS_OBJECT_MR) << 8;
	mr->pd = c->pd_handle;
	mr->length = c->length;
	mr->iova = c->hca_va;
	mr->odp = c->access_flags & IB_UVERBS_ACCESS_ON_DEMAND;
	ret = emu_req_drv(r)->reg_mr ? emu_req_drv(r)->reg_mr(r, mr) : 0;
	if (ret) {
		emu_obj_free(r->ctx, h);
		return ret;
	}
	use(r->ctx, UVERBS_OBJECT_PD, c->pd_handle, 1);
	resp->mr_handle = h;
	resp->lkey = mr->num;
	resp->rkey = mr->num;
	return 0;
}

static int alloc_mw(struct emu_req *r, const struct ib_uverbs_alloc_mw *c, struct ib_uverbs_alloc_mw_resp *resp)
{
	struct emu_obj *mw;
	uint32_t h;

	if (!emu_obj_get(r->ctx, UVERBS_OBJECT_PD, c->pd_handle))
		return EINVAL;
	mw = emu_obj_new(r->ctx, UVERBS_OBJECT_MW, &h);
	if (!mw)
		return ENOMEM;
	mw->num = emu_next_num(r->ctx, UVERBS_OBJECT_MW) << 8;
	mw->pd = c->pd_handle;
	use(r->ctx, UVERBS_OBJECT_PD, c->pd_handle, 1);
	resp->mw_handle = h;
	resp->rkey = mw->num;
	return 0;
}

/* ---- AH ---- */

static int create_ah(struct emu_req *r, const struct ib_uverbs_create_ah *c, uint32_t *handle)
{
	struct emu_obj *ah;
	int ret;

	if (!emu_obj_get(r->ctx, UVERBS_OBJECT_PD, c->pd_handle))
		return EINVAL;
	if (c->attr.port_num != 1)
		return EINVAL;
	if (r->dev->link_layer != IB_LINK_LAYER_INFINIBAND && !c->attr.is_global)
		return EINVAL;
	ah = emu_obj_new(r->ctx, UVERBS_OBJECT_AH, handle);
	if (!ah)
		return ENOMEM;
	ah->num = emu_next_num(r->ctx, UVERBS_OBJECT_AH);
	ah->user_handle = c->user_handle;
	ah->pd = c->pd_handle;
	ret = emu_req_drv(r)->create_ah ? emu_req_drv(r)->create_ah(r, ah) : 0;
	if (ret) {
		emu_obj_free(r->ctx, *handle);
		return ret;
	}
	use(r->ctx, UVERBS_OBJECT_PD, c->pd_handle, 1);
	return 0;
}

/* ---- write commands ---- */

static int obj_write(struct emu_req *r)
{
	int ret;

	switch (r->wcmd) {
	case IB_USER_VERBS_CMD_ALLOC_PD: {
		struct ib_uverbs_alloc_pd_resp resp = { 0 };

		ret = alloc_pd(r, &resp.pd_handle);
		if (!ret)
			emu_resp_out(r, &resp, sizeof(resp));
		return ret;
	}
	case IB_USER_VERBS_CMD_DEALLOC_PD: {
		EMU_REQ(struct ib_uverbs_dealloc_pd, c);
		return destroy(r, UVERBS_OBJECT_PD, c.pd_handle, NULL);
	}
	case IB_USER_VERBS_CMD_REG_MR: {
		EMU_REQ(struct ib_uverbs_reg_mr, c);
		struct ib_uverbs_reg_mr_resp resp = { 0 };

		ret = reg_mr(r, &c, &resp);
		if (!ret)
			emu_resp_out(r, &resp, sizeof(resp));
		return ret;
	}
	case IB_USER_VERBS_CMD_DEREG_MR: {
		EMU_REQ(struct ib_uverbs_dereg_mr, c);
		return destroy(r, UVERBS_OBJECT_MR, c.mr_handle, NULL);
	}
	case IB_USER_VERBS_CMD_REREG_MR: {
		EMU_REQ(struct ib_uverbs_rereg_mr, c);
		struct emu_obj *mr = emu_obj_get(r->ctx, UVERBS_OBJECT_MR, c.mr_handle);
		struct ib_uverbs_rereg_mr_resp resp = { 0 };

		if (!mr || !c.flags || (c.flags & ~7u))
			return EINVAL;
		if ((c.flags & 2 /* IB_MR_REREG_PD */) && !emu_obj_get(r->ctx, UVERBS_OBJECT_PD, c.pd_handle))
			return EINVAL;
		if (c.flags & 2) {
			use(r->ctx, UVERBS_OBJECT_PD, mr->pd, -1);
			mr->pd = c.pd_handle;
			use(r->ctx, UVERBS_OBJECT_PD, mr->pd, 1);
		}
		resp.lkey = resp.rkey = mr->num;
		emu_resp_out(r, &resp, sizeof(resp));
		return 0;
	}
	case IB_USER_VERBS_CMD_ALLOC_MW: {
		EMU_REQ(struct ib_uverbs_alloc_mw, c);
		struct ib_uverbs_alloc_mw_resp resp = { 0 };

		ret = alloc_mw(r, &c, &resp);
		if (!ret)
			emu_resp_out(r, &resp, sizeof(resp));
		return ret;
	}
	case IB_USER_VERBS_CMD_DEALLOC_MW: {
		EMU_REQ(struct ib_uverbs_dealloc_mw, c);
		return destroy(r, UVERBS_OBJECT_MW, c.mw_handle, NULL);
	}
	case IB_USER_VERBS_CMD_CREATE_AH: {
		EMU_REQ(struct ib_uverbs_create_ah, c);
		struct ib_uverbs_create_ah_resp resp = { 0 };

		ret = create_ah(r, &c, &resp.ah_handle);
		if (!ret)
			emu_resp_out(r, &resp, sizeof(resp));
		return ret;
	}
	case IB_USER_VERBS_CMD_DESTROY_AH: {
		EMU_REQ(struct ib_uverbs_destroy_ah, c);
		return destroy(r, UVERBS_OBJECT_AH, c.ah_handle, NULL);
	}
	case IB_USER_VERBS_CMD_ATTACH_MCAST:
	case IB_USER_VERBS_CMD_DETACH_MCAST:
	case IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_CQ:
		return emu_mcast_write(r);
	}
	return EMU_NOT_MINE;
}

int emu_obj_write(struct emu_req *r)
{
	int ret = obj_write(r);

	if (ret == EMU_NOT_MINE)
		ret = emu_cq_write(r);
	if (ret == EMU_NOT_MINE)
		ret = emu_qp_write(r);
	return ret == EMU_NOT_MINE ? emu_xrc_write(r) : ret;
}

/* ---- ioctl methods ---- */

uint32_t emu_attr_handle(struct emu_req *r, uint16_t id)
{
	return (uint32_t)emu_attr_u64(r, id, ~0u);
}

void emu_attr_new_handle(struct emu_req *r, uint16_t id, uint32_t h)
{
	struct ib_uverbs_attr *a = emu_attr(r, id);

	if (a)
		a->data = h;
}

int emu_obj_ioctl(struct emu_req *r)
{
	uint16_t obj = r->hdr->object_id, meth = r->hdr->method_id;

	switch (obj) {
	case UVERBS_OBJECT_CQ:
		return emu_cq_ioctl(r, meth);
	case UVERBS_OBJECT_QP:
		return emu_qp_ioctl(r, meth);
	case UVERBS_OBJECT_SRQ:
		return emu_srq_ioctl(r, meth);
	case UVERBS_OBJECT_PD:
	case UVERBS_OBJECT_AH:
	case UVERBS_OBJECT_MW:
	case UVERBS_OBJECT_XRCD:
		if (meth != 0)
			return EPROTONOSUPPORT;
		return destroy(r, obj, emu_attr_handle(r, 0), NULL);
	case UVERBS_OBJECT_MR:
		if (meth == UVERBS_METHOD_MR_DESTROY)
			return destroy(r, obj, emu_attr_handle(r, UVERBS_ATTR_DESTROY_MR_HANDLE), NULL);
		return emu_mem_ioctl(r);
	case UVERBS_OBJECT_DM:
		return emu_mem_ioctl(r);
	}
	return EPROTONOSUPPORT;
}

char emu_obj_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr)
{
	switch (obj) {
	case UVERBS_OBJECT_CQ:
		return emu_cq_attr_kind(meth, attr);
	case UVERBS_OBJECT_QP:
	case UVERBS_OBJECT_SRQ:
		return emu_qp_attr_kind(obj, meth, attr);
	case UVERBS_OBJECT_PD:
	case UVERBS_OBJECT_AH:
	case UVERBS_OBJECT_MW:
	case UVERBS_OBJECT_XRCD:
		return attr == 0 ? 'h' : 0;
	case UVERBS_OBJECT_MR:
		if (meth != UVERBS_METHOD_MR_DESTROY)
			return emu_mem_attr_kind(obj, meth, attr);
		return meth == UVERBS_METHOD_MR_DESTROY && attr == 0 ? 'h' : 0;
	case UVERBS_OBJECT_DM:
		return emu_mem_attr_kind(obj, meth, attr);
	}
	return 0;
}

/* ---- the command fd closes: the kernel's ucontext cleanup ---- */

void emu_ctx_release(struct emu_ctx *c)
{
	const struct emu_drv *d = c->dev ? emu_drv_find(c->dev->provider) : NULL;

	for (unsigned h = 0; h < EMU_MAX_OBJ; h++)
		if (c->obj[h].live && d && d->destroy)
			d->destroy(c, &c->obj[h]);
	memset(c->obj, 0, sizeof(c->obj));
	emu_mcast_release(c);
}
