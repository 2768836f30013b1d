/* uvemu: receive work queues and their indirection tables (drivers/infiniband/core/uverbs_cmd.c:
 * ib_uverbs_ex_create_wq, _modify_wq, _destroy_wq, _create_rwq_ind_table, _destroy_rwq_ind_table;
 * uverbs_std_types_wq.c: WQ_CREATE, WQ_DESTROY; uverbs_std_types.c: RWQ_IND_TBL_DESTROY). A WQ
 * uses its PD and CQ, a table its WQs, an RSS QP (core_obj.c) its table: each is EBUSY while
 * used. A driver without WQs has neither the write commands (EOPNOTSUPP) nor the objects
 * (EPROTONOSUPPORT); the driver data is its hooks'.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <string.h>

#define WQ_FLAGS 0xfu         /* IB_UVERBS_WQ_FLAGS_CVLAN_STRIPPING ... PCI_WRITE_END_PADDING */
#define WQ_ATTRS 0x7u         /* IB_WQ_STATE | IB_WQ_CUR_STATE | IB_WQ_FLAGS */
#define WQS_ERR 2u            /* IB_WQS_RESET, IB_WQS_RDY, IB_WQS_ERR */
#define MAX_LOG_TBL IB_USER_VERBS_MAX_LOG_IND_TBL_SIZE

struct wq_args {
	uint64_t user_handle;
	uint32_t type, pd, cq, max_wr, max_sge, flags;
};

static int create_wq(struct emu_req *r, struct wq_args *a, uint32_t *handle, uint32_t *wqn)
{
	struct emu_obj *wq;
	int ret;

	if (!emu_obj_get(r->ctx, UVERBS_OBJECT_PD, a->pd) || !emu_obj_get(r->ctx, UVERBS_OBJECT_CQ, a->cq))
		return EINVAL;
	if (!r->dev->wq || !emu_req_drv(r)->create_wq)
		return EOPNOTSUPP;
	if (a->type != IB_UVERBS_WQT_RQ || !a->max_wr || a->max_wr > r->dev->max_qp_wr ||
	    a->max_sge > r->dev->max_sge)
		return EINVAL;
	if (a->flags & ~WQ_FLAGS)
		return EOPNOTSUPP;
	wq = emu_obj_new(r->ctx, UVERBS_OBJECT_WQ, handle);
	if (!wq)
		return ENOMEM;
	wq->num = emu_next_num(r->ctx, UVERBS_OBJECT_WQ);
	wq->user_handle = a->user_handle;
	wq->pd = a->pd;
	wq->scq = wq->rcq = a->cq;
	wq->state = 0; /* IB_WQS_RESET */
	ret = emu_req_drv(r)->create_wq(r, wq);
	if (ret) {
		emu_obj_free(r->ctx, *handle);
		return ret;
	}
	emu_obj_use(r->ctx, UVERBS_OBJECT_PD, a->pd, 1);
	emu_obj_use(r->ctx, UVERBS_OBJECT_CQ, a->cq, 1);
	*wqn = wq->num;
	return 0;
}

/* A WQ or a table destroyed: what it used is released (EBUSY while it is used itself). */
static int destroy(struct emu_req *r, uint16_t type, uint32_t h, uint32_t *events)
{
	struct emu_obj *o = emu_obj_get(r->ctx, type, h), copy;
	int ret;

	if (!o)
		return EINVAL;
	copy = *o;
	ret = emu_obj_destroy(r, type, h);
	if (ret)
		return ret;
	if (type == UVERBS_OBJECT_WQ) {
		emu_obj_use(r->ctx, UVERBS_OBJECT_PD, copy.pd, -1);
		emu_obj_use(r->ctx, UVERBS_OBJECT_CQ, copy.scq, -1);
	} else {
		/* drv[0..]: the table's WQ handles, cqe: how many */
		for (uint32_t i = 0; i < copy.cqe && i < 8; i++)
			emu_obj_use(r->ctx, UVERBS_OBJECT_WQ, (uint32_t)copy.drv[i], -1);
	}
	if (events)
		*events = copy.async_events;
	return 0;
}

static int modify_wq(struct emu_req *r, const struct ib_uverbs_ex_modify_wq *c)
{
	struct emu_obj *wq;
	int ret;

	if (!c->attr_mask || c->attr_mask & ~WQ_ATTRS)
		return EINVAL;
	wq = emu_obj_get(r->ctx, UVERBS_OBJECT_WQ, c->wq_handle);
	if (!wq)
		return EINVAL;
	if ((c->attr_mask & 1 && c->wq_state > WQS_ERR) || (c->attr_mask & 2 && c->curr_wq_state > WQS_ERR))
		return EINVAL;
	if (c->attr_mask & 4 && c->flags_mask & ~WQ_FLAGS)
		return EOPNOTSUPP;
	ret = emu_req_drv(r)->modify_wq ? emu_req_drv(r)->modify_wq(r, wq) : 0;
	if (ret)
		return ret;
	if (c->attr_mask & 1)
		wq->state = c->wq_state;
	return 0;
}

/* The table's WQs are read after its header: 1 << log_ind_tbl_size handles, the rest of the
 * request zero (uverbs_request_next, uverbs_request_finish). At most 8 WQs are emulated. */
static int create_tbl(struct emu_req *r)
{
	EMU_REQ(struct ib_uverbs_ex_create_rwq_ind_table, c);
	struct ib_uverbs_ex_create_rwq_ind_table_resp resp = { 0 };
	const uint32_t *wqs = (const uint32_t *)(r->in + sizeof(c));
	size_t n, have = (r->in_len - sizeof(c)) / 4;
	struct emu_obj *t;
	uint32_t h;
	int ret;

	if (r->in_len < sizeof(c))
		return EINVAL;
	if (c.comp_mask)
		return EOPNOTSUPP;
	if (c.log_ind_tbl_size > MAX_LOG_TBL)
		return EINVAL;
	n = (size_t)1 << c.log_ind_tbl_size;
	if (n > have)
		return ENOSPC;
	for (size_t i = n; i < have; i++)
		if (wqs[i])
			return EOPNOTSUPP;
	for (size_t i = 0; i < n; i++)
		if (!emu_obj_get(r->ctx, UVERBS_OBJECT_WQ, wqs[i]))
			return EINVAL;
	if (!r->dev->wq || n > 8)
		return EOPNOTSUPP;
	t = emu_obj_new(r->ctx, UVERBS_OBJECT_RWQ_IND_TBL, &h);
	if (!t)
		return ENOMEM;
	t->num = emu_next_num(r->ctx, UVERBS_OBJECT_RWQ_IND_TBL);
	t->cqe = n;
	for (size_t i = 0; i < n; i++)
		t->drv[i] = wqs[i];
	ret = emu_req_drv(r)->create_rwq_ind_tbl ? emu_req_drv(r)->create_rwq_ind_tbl(r, t) : 0;
	if (ret) {
		emu_obj_free(r->ctx, h);
		return ret;
	}
	for (size_t i = 0; i < n; i++)
		emu_obj_use(r->ctx, UVERBS_OBJECT_WQ, wqs[i], 1);
	resp.ind_tbl_handle = h;
	resp.ind_tbl_num = t->num;
	resp.response_length = r->out_len < sizeof(resp) ? r->out_len : sizeof(resp);
	emu_resp_out(r, &resp, sizeof(resp));
	return 0;
}

#define EX(cmd) (IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_##cmd)

bool emu_wq_cmd(uint32_t wcmd)
{
	return wcmd == EX(CREATE_WQ) || wcmd == EX(MODIFY_WQ) || wcmd == EX(DESTROY_WQ) ||
	       wcmd == EX(CREATE_RWQ_IND_TBL) || wcmd == EX(DESTROY_RWQ_IND_TBL);
}

int emu_wq_write(struct emu_req *r)
{
	/* A driver without WQs has none of these commands (uapi: UAPI_DEF_METHOD_NEEDS_FN). */
	if (!r->dev->wq)
		return EOPNOTSUPP;
	switch (r->wcmd) {
	case EX(CREATE_WQ): {
		EMU_REQ(struct ib_uverbs_ex_create_wq, c);
		struct ib_uverbs_ex_create_wq_resp resp = { 0 };
		struct wq_args a = { c.user_handle, c.wq_type, c.pd_handle, c.cq_handle, c.max_wr, c.max_sge,
				     c.create_flags };
		int ret;

		if (c.comp_mask)
			return EOPNOTSUPP;
		ret = create_wq(r, &a, &resp.wq_handle, &resp.wqn);
		if (ret)
			return ret;
		resp.max_wr = a.max_wr;
		resp.max_sge = a.max_sge;
		resp.response_length = r->out_len < sizeof(resp) ? r->out_len : sizeof(resp);
		emu_resp_out(r, &resp, sizeof(resp));
		return 0;
	}
	case EX(MODIFY_WQ): {
		EMU_REQ(struct ib_uverbs_ex_modify_wq, c);
		return modify_wq(r, &c);
	}
	case EX(DESTROY_WQ): {
		EMU_REQ(struct ib_uverbs_ex_destroy_wq, c);
		struct ib_uverbs_ex_destroy_wq_resp resp = { 0 };
		int ret;

		if (c.comp_mask)
			return EINVAL;
		ret = destroy(r, UVERBS_OBJECT_WQ, c.wq_handle, &resp.events_reported);
		if (ret)
			return ret;
		resp.response_length = r->out_len < sizeof(resp) ? r->out_len : sizeof(resp);
		emu_resp_out(r, &resp, sizeof(resp));
		return 0;
	}
	case EX(CREATE_RWQ_IND_TBL):
		return create_tbl(r);
	case EX(DESTROY_RWQ_IND_TBL): {
		EMU_REQ(struct ib_uverbs_ex_destroy_rwq_ind_table, c);

		if (c.comp_mask)
			return EOPNOTSUPP;
		return destroy(r, UVERBS_OBJECT_RWQ_IND_TBL, c.ind_tbl_handle, NULL);
	}
	}
	return EOPNOTSUPP;
}

static uint32_t attr_handle(struct emu_req *r, uint16_t id)
{
	return (uint32_t)emu_attr_u64(r, id, ~0u);
}

static int ioctl_wq(struct emu_req *r, uint16_t meth)
{
	struct wq_args a = { 0 };
	struct ib_uverbs_attr *h;
	uint32_t handle, wqn;
	int ret;

	if (meth == UVERBS_METHOD_WQ_DESTROY) {
		uint32_t events;

		if (!emu_attr(r, UVERBS_ATTR_DESTROY_WQ_RESP))
			return EINVAL;
		ret = destroy(r, UVERBS_OBJECT_WQ, attr_handle(r, UVERBS_ATTR_DESTROY_WQ_HANDLE), &events);
		if (ret)
			return ret;
		return emu_attr_out(r, UVERBS_ATTR_DESTROY_WQ_RESP, &events, sizeof(events));
	}
	if (meth != UVERBS_METHOD_WQ_CREATE)
		return EPROTONOSUPPORT;
	h = emu_attr(r, UVERBS_ATTR_CREATE_WQ_HANDLE);
	if (!h || !emu_attr(r, UVERBS_ATTR_CREATE_WQ_PD_HANDLE) || !emu_attr(r, UVERBS_ATTR_CREATE_WQ_CQ_HANDLE) ||
	    !emu_attr(r, UVERBS_ATTR_CREATE_WQ_USER_HANDLE) || !emu_attr(r, UVERBS_ATTR_CREATE_WQ_TYPE) ||
	    !emu_attr(r, UVERBS_ATTR_CREATE_WQ_MAX_WR) || !emu_attr(r, UVERBS_ATTR_CREATE_WQ_MAX_SGE))
		return EINVAL;
	a.flags = emu_attr_u64(r, UVERBS_ATTR_CREATE_WQ_FLAGS, 0);
	if (a.flags & ~WQ_FLAGS)
		return EINVAL; /* uverbs_get_flags32 */
	a.user_handle = emu_attr_u64(r, UVERBS_ATTR_CREATE_WQ_USER_HANDLE, 0);
	a.type = emu_attr_u64(r, UVERBS_ATTR_CREATE_WQ_TYPE, 0);
	a.pd = attr_handle(r, UVERBS_ATTR_CREATE_WQ_PD_HANDLE);
	a.cq = attr_handle(r, UVERBS_ATTR_CREATE_WQ_CQ_HANDLE);
	a.max_wr = emu_attr_u64(r, UVERBS_ATTR_CREATE_WQ_MAX_WR, 0);
	a.max_sge = emu_attr_u64(r, UVERBS_ATTR_CREATE_WQ_MAX_SGE, 0);
	ret = create_wq(r, &a, &handle, &wqn);
	if (ret)
		return ret;
	h->data = handle;
	emu_attr_out(r, UVERBS_ATTR_CREATE_WQ_RESP_MAX_WR, &a.max_wr, sizeof(a.max_wr));
	emu_attr_out(r, UVERBS_ATTR_CREATE_WQ_RESP_MAX_SGE, &a.max_sge, sizeof(a.max_sge));
	return emu_attr_out(r, UVERBS_ATTR_CREATE_WQ_RESP_WQ_NUM, &wqn, sizeof(wqn));
}

int emu_wq_ioctl(struct emu_req *r)
{
	uint16_t obj = r->hdr->object_id, meth = r->hdr->method_id;

	/* ... nor these objects (UAPI_DEF_OBJ_NEEDS_FN): no such method. */
	if (!r->dev->wq)
		return EPROTONOSUPPORT;
	if (obj == UVERBS_OBJECT_WQ)
		return ioctl_wq(r, meth);
	if (meth != UVERBS_METHOD_RWQ_IND_TBL_DESTROY)
		return EPROTONOSUPPORT;
	return destroy(r, UVERBS_OBJECT_RWQ_IND_TBL, attr_handle(r, UVERBS_ATTR_DESTROY_RWQ_IND_TBL_HANDLE), NULL);
}

char emu_wq_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr)
{
	if (obj == UVERBS_OBJECT_RWQ_IND_TBL)
		return meth == UVERBS_METHOD_RWQ_IND_TBL_DESTROY && attr == UVERBS_ATTR_DESTROY_RWQ_IND_TBL_HANDLE ? 'h'
														       : 0;
	if (meth == UVERBS_METHOD_WQ_DESTROY)
		return attr == UVERBS_ATTR_DESTROY_WQ_HANDLE ? 'h' : attr == UVERBS_ATTR_DESTROY_WQ_RESP ? 'o' : 0;
	if (meth != UVERBS_METHOD_WQ_CREATE)
		return 0;
	switch (attr) {
	case UVERBS_ATTR_CREATE_WQ_HANDLE: return 'n';
	case UVERBS_ATTR_CREATE_WQ_PD_HANDLE:
	case UVERBS_ATTR_CREATE_WQ_CQ_HANDLE: return 'h';
	case UVERBS_ATTR_CREATE_WQ_USER_HANDLE: return 'i';
	case UVERBS_ATTR_CREATE_WQ_TYPE:
	case UVERBS_ATTR_CREATE_WQ_MAX_WR:
	case UVERBS_ATTR_CREATE_WQ_MAX_SGE:
	case UVERBS_ATTR_CREATE_WQ_FLAGS: return 'c';
	case UVERBS_ATTR_CREATE_WQ_EVENT_FD: return 'f';
	case UVERBS_ATTR_CREATE_WQ_RESP_MAX_WR:
	case UVERBS_ATTR_CREATE_WQ_RESP_MAX_SGE:
	case UVERBS_ATTR_CREATE_WQ_RESP_WQ_NUM: return 'o';
	}
	return 0;
}
