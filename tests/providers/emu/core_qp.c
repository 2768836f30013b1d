/* uvemu: QPs and SRQs (drivers/infiniband/core/uverbs_cmd.c, uverbs_std_types_qp.c and
 * uverbs_std_types_srq.c), through write commands and ioctl methods; each created by one function
 * both paths call (the driver data from the provider's emu_drv hooks), destroyed by core_obj.c's.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

/* ibv_qp_attr_mask bits the core looks at (enum ib_qp_attr_mask, kernel-internal). */
#define EMU_QP_STATE (1u << 0)
#define EMU_QP_PORT (1u << 5)
#define EMU_QP_LEGACY_MASK ((1u << 21) - 1) /* through IB_QP_DEST_QPN: the legacy MODIFY_QP's */
#define EMU_QP_RATE_LIMIT (1u << 25)        /* IB_QP_RATE_LIMIT, the last EX_MODIFY_QP takes */
#define EMU_QPS_RTS 3                       /* IB_QPS_RTS */

/* ---- QP ---- */

struct qp_args {
	uint64_t user_handle;
	uint32_t pd, scq, rcq, srq, xrcd;
	uint32_t tbl; /* an RSS QP's indirection table (~0u: none) */
	bool has_pd, has_srq;
	struct emu_qp_init init;
	uint32_t create_flags;
};

static int create_qp(struct emu_req *r, struct qp_args *a, uint32_t *handle, uint32_t *qpn)
{
	struct emu_obj *qp;
	int ret;

	bool xrc = a->init.qp_type == IB_UVERBS_QPT_XRC_INI || a->init.qp_type == IB_UVERBS_QPT_XRC_TGT;

	if (a->init.qp_type == IB_UVERBS_QPT_XRC_TGT) {
		/* The target side: its domain alone (the write command names it in pd_handle). */
		if (!emu_obj_get(r->ctx, UVERBS_OBJECT_XRCD, a->xrcd))
			return EINVAL;
		a->pd = a->scq = a->rcq = ~0u;
		a->has_srq = false;
	} else {
		if (a->init.qp_type == IB_UVERBS_QPT_XRC_INI) {
			/* The initiator side sends only: no receive queue, its send CQ for both. */
			a->rcq = a->scq;
			a->has_srq = false;
			a->init.max_recv_wr = a->init.max_recv_sge = 0;
		}
		if (!a->has_pd || !emu_obj_get(r->ctx, UVERBS_OBJECT_PD, a->pd))
			return EINVAL;
		if (a->tbl != ~0u) {
			/* An RSS QP receives through its table's WQs: no receive CQ, queue or SRQ of
			 * its own, and a send queue only when it asks for one. */
			if (!emu_obj_get(r->ctx, UVERBS_OBJECT_RWQ_IND_TBL, a->tbl) || a->init.max_recv_wr ||
			    a->init.max_recv_sge || a->has_srq)
				return EINVAL;
			a->rcq = ~0u;
			if (!a->init.max_send_wr)
				a->scq = ~0u;
			if (a->scq != ~0u && !emu_obj_get(r->ctx, UVERBS_OBJECT_CQ, a->scq))
				return EINVAL;
		} else if (!emu_obj_get(r->ctx, UVERBS_OBJECT_CQ, a->scq) ||
			   !emu_obj_get(r->ctx, UVERBS_OBJECT_CQ, a->rcq)) {
			return EINVAL;
		}
		a->xrcd = ~0u;
	}
	if (a->has_srq && !emu_obj_get(r->ctx, UVERBS_OBJECT_SRQ, a->srq))
		return EINVAL;
	if (a->create_flags)
		return EOPNOTSUPP;
	if (a->init.max_send_wr > r->dev->max_qp_wr || a->init.max_recv_wr > r->dev->max_qp_wr ||
	    a->init.max_send_sge > r->dev->max_sge || a->init.max_recv_sge > r->dev->max_sge ||
	    a->init.max_inline > r->dev->max_inline)
		return EINVAL;
	if (a->init.qp_type > IB_UVERBS_QPT_DRIVER ||
	    !(xrc ? r->dev->xrc :
	      (r->dev->qp_types ? r->dev->qp_types : EMU_QPT(IB_UVERBS_QPT_RC) | EMU_QPT(IB_UVERBS_QPT_UC) |
			EMU_QPT(IB_UVERBS_QPT_UD)) & EMU_QPT(a->init.qp_type)))
		return EOPNOTSUPP;
	qp = emu_obj_new(r->ctx, UVERBS_OBJECT_QP, handle);
	if (!qp)
		return ENOMEM;
	qp->num = emu_next_num(r->ctx, UVERBS_OBJECT_QP);
	qp->user_handle = a->user_handle;
	qp->qp_type = a->init.qp_type;
	qp->pd = a->pd;
	qp->scq = a->scq;
	qp->rcq = a->rcq;
	qp->srq = a->has_srq ? a->srq : ~0u;
	qp->xrcd = a->xrcd;
	qp->tbl = a->tbl;
	qp->send_sge = a->init.max_send_sge;
	qp->recv_sge = a->init.max_recv_sge;
	a->init.srq = a->has_srq;
	a->init.rss = a->tbl != ~0u;
	ret = emu_req_drv(r)->create_qp ? emu_req_drv(r)->create_qp(r, qp, &a->init) : 0;
	if (ret) {
		emu_obj_free(r->ctx, *handle);
		return ret;
	}
	emu_obj_use(r->ctx, UVERBS_OBJECT_PD, qp->pd, 1);
	emu_obj_use(r->ctx, UVERBS_OBJECT_CQ, qp->scq, 1);
	emu_obj_use(r->ctx, UVERBS_OBJECT_CQ, qp->rcq, 1);
	emu_obj_use(r->ctx, UVERBS_OBJECT_XRCD, qp->xrcd, 1);
	emu_obj_use(r->ctx, UVERBS_OBJECT_RWQ_IND_TBL, qp->tbl, 1);
	if (a->has_srq)
		emu_obj_use(r->ctx, UVERBS_OBJECT_SRQ, qp->srq, 1);
	*qpn = qp->num;
	return 0;
}

static void qp_resp(struct emu_req *r, uint32_t handle, uint32_t qpn, struct qp_args *a,
		    struct ib_uverbs_create_qp_resp *resp)
{
	(void)r;
	memset(resp, 0, sizeof(*resp));
	resp->qp_handle = handle;
	resp->qpn = qpn;
	resp->max_send_wr = a->init.max_send_wr;
	resp->max_recv_wr = a->init.max_recv_wr;
	resp->max_send_sge = a->init.max_send_sge;
	resp->max_recv_sge = a->init.max_recv_sge;
	resp->max_inline_data = a->init.max_inline;
}

static int modify_qp(struct emu_req *r, const struct ib_uverbs_modify_qp *m)
{
	struct emu_obj *qp = emu_obj_get(r->ctx, UVERBS_OBJECT_QP, m->qp_handle);
	int ret;

	if (!qp)
		return EINVAL;
	if ((m->attr_mask & EMU_QP_PORT) && m->port_num != 1)
		return EINVAL;
	ret = emu_req_drv(r)->modify_qp ? emu_req_drv(r)->modify_qp(r, qp) : 0;
	if (ret)
		return ret;
	if (m->attr_mask & EMU_QP_STATE)
		qp->state = m->qp_state;
	return 0;
}

/* ---- SRQ ---- */

static int create_srq(struct emu_req *r, uint64_t user_handle, uint32_t type, uint32_t pd, uint32_t xrcd,
		      uint32_t cq, uint32_t *max_wr, uint32_t *max_sge, uint32_t *handle, uint32_t *srqn)
{
	struct emu_obj *srq;
	int ret;

	if (type == IB_UVERBS_SRQT_XRC) {
		/* An XRC SRQ takes completions on its CQ for QPs of its domain. */
		if (!emu_obj_get(r->ctx, UVERBS_OBJECT_XRCD, xrcd) || !emu_obj_get(r->ctx, UVERBS_OBJECT_CQ, cq))
			return EINVAL;
	} else if (type != IB_UVERBS_SRQT_BASIC) {
		return EOPNOTSUPP;
	}
	if (!emu_obj_get(r->ctx, UVERBS_OBJECT_PD, pd))
		return EINVAL;
	if (!r->dev->max_srq)
		return EOPNOTSUPP;
	if (*max_wr > r->dev->max_srq_wr || *max_sge > r->dev->max_srq_sge)
		return EINVAL;
	srq = emu_obj_new(r->ctx, UVERBS_OBJECT_SRQ, handle);
	if (!srq)
		return ENOMEM;
	srq->num = emu_next_num(r->ctx, UVERBS_OBJECT_SRQ);
	srq->user_handle = user_handle;
	srq->pd = pd;
	ret = emu_req_drv(r)->create_srq ? emu_req_drv(r)->create_srq(r, srq, max_wr, max_sge) : 0;
	if (ret) {
		emu_obj_free(r->ctx, *handle);
		return ret;
	}
	srq->recv_sge = *max_sge;
	emu_obj_use(r->ctx, UVERBS_OBJECT_PD, pd, 1);
	if (type == IB_UVERBS_SRQT_XRC) {
		srq->xrcd = xrcd;
		srq->scq = cq;
		emu_obj_use(r->ctx, UVERBS_OBJECT_XRCD, xrcd, 1);
		emu_obj_use(r->ctx, UVERBS_OBJECT_CQ, cq, 1);
	}
	*srqn = srq->num;
	return 0;
}

/* ---- write commands ---- */

int emu_qp_write(struct emu_req *r)
{
	struct emu_obj gone;
	int ret;

	switch (r->wcmd) {
	case IB_USER_VERBS_CMD_CREATE_QP:
	case IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_QP: {
		bool ex = r->wcmd & IB_USER_VERBS_CMD_FLAG_EXTENDED;
		struct ib_uverbs_ex_create_qp_resp resp = { 0 };
		struct ib_uverbs_ex_create_qp c = { 0 };
		struct qp_args a = { 0 };
		uint32_t h, qpn;

		if (ex) {
			memcpy(&c, r->in, r->in_len < sizeof(c) ? r->in_len : sizeof(c));
			if (c.comp_mask & ~(uint32_t)IB_UVERBS_CREATE_QP_SUP_COMP_MASK)
				return EINVAL;
		} else {
			/* The legacy struct is the extended one with a response pointer in front. */
			memcpy(&c, r->in + 8, offsetof(struct ib_uverbs_ex_create_qp, comp_mask));
		}
		a.user_handle = c.user_handle;
		a.pd = c.pd_handle;
		a.xrcd = c.pd_handle; /* the domain of an XRC_TGT QP */
		a.has_pd = true;
		a.scq = c.send_cq_handle;
		a.rcq = c.recv_cq_handle;
		a.srq = c.srq_handle;
		a.has_srq = c.is_srq;
		a.init = (struct emu_qp_init){ c.qp_type, c.max_send_wr, c.max_recv_wr, c.max_send_sge,
					       c.max_recv_sge, c.max_inline_data, c.is_srq, false };
		a.create_flags = c.create_flags;
		a.tbl = c.comp_mask & IB_UVERBS_CREATE_QP_MASK_IND_TABLE ? c.rwq_ind_tbl_handle : ~0u;
		ret = create_qp(r, &a, &h, &qpn);
		if (ret)
			return ret;
		qp_resp(r, h, qpn, &a, &resp.base);
		resp.response_length = r->out_len < sizeof(resp) ? r->out_len : sizeof(resp);
		emu_resp_out(r, ex ? (void *)&resp : (void *)&resp.base, ex ? sizeof(resp) : sizeof(resp.base));
		return 0;
	}
	case IB_USER_VERBS_CMD_MODIFY_QP: {
		EMU_REQ(struct ib_uverbs_modify_qp, c);
		if (c.attr_mask & ~EMU_QP_LEGACY_MASK)
			return EOPNOTSUPP;
		return modify_qp(r, &c);
	}
	case IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_QP: {
		EMU_REQ(struct ib_uverbs_ex_modify_qp, c);
		struct ib_uverbs_ex_modify_qp_resp resp = { 0 };
		struct emu_obj *qp = emu_obj_get(r->ctx, UVERBS_OBJECT_QP, c.base.qp_handle);

		if (c.base.attr_mask & ~((EMU_QP_RATE_LIMIT << 1) - 1))
			return EOPNOTSUPP;
		/* ib_modify_qp_is_ok: a rate limit only for a raw packet QP going to or in RTS, on a
		 * driver with packet pacing */
		if ((c.base.attr_mask & EMU_QP_RATE_LIMIT) &&
		    (!qp || qp->qp_type != IB_UVERBS_QPT_RAW_PACKET || !r->dev->rate_limit ||
		     ((c.base.attr_mask & EMU_QP_STATE) ? c.base.qp_state : qp->state) != EMU_QPS_RTS))
			return EINVAL;
		ret = modify_qp(r, &c.base);
		resp.response_length = r->out_len < sizeof(resp) ? r->out_len : sizeof(resp);
		if (!ret)
			emu_resp_out(r, &resp, sizeof(resp));
		return ret;
	}
	case IB_USER_VERBS_CMD_QUERY_QP: {
		EMU_REQ(struct ib_uverbs_query_qp, c);
		struct emu_obj *qp = emu_obj_get(r->ctx, UVERBS_OBJECT_QP, c.qp_handle);
		struct ib_uverbs_query_qp_resp resp = { 0 };

		if (!qp)
			return EINVAL;
		resp.qp_state = resp.cur_qp_state = qp->state;
		resp.port_num = 1;
		emu_resp_out(r, &resp, sizeof(resp));
		return 0;
	}
	case IB_USER_VERBS_CMD_DESTROY_QP: {
		EMU_REQ(struct ib_uverbs_destroy_qp, c);
		struct ib_uverbs_destroy_qp_resp resp = { 0 };

		ret = emu_obj_destroy_gone(r, UVERBS_OBJECT_QP, c.qp_handle, &gone);
		if (!ret) {
			resp.events_reported = gone.async_events;
			emu_resp_out(r, &resp, sizeof(resp));
		}
		return ret;
	}
	case IB_USER_VERBS_CMD_CREATE_SRQ:
	case IB_USER_VERBS_CMD_CREATE_XSRQ: {
		struct ib_uverbs_create_srq_resp resp = { 0 };
		struct ib_uverbs_create_xsrq x = { 0 };

		if (r->wcmd == IB_USER_VERBS_CMD_CREATE_SRQ) {
			EMU_REQ(struct ib_uverbs_create_srq, c);
			x.xrcd_handle = x.cq_handle = ~0u;
			x.user_handle = c.user_handle;
			x.srq_type = IB_UVERBS_SRQT_BASIC;
			x.pd_handle = c.pd_handle;
			x.max_wr = c.max_wr;
			x.max_sge = c.max_sge;
			x.srq_limit = c.srq_limit;
		} else {
			memcpy(&x, r->in, sizeof(x));
		}
		resp.max_wr = x.max_wr;
		resp.max_sge = x.max_sge;
		ret = create_srq(r, x.user_handle, x.srq_type, x.pd_handle, x.xrcd_handle, x.cq_handle, &resp.max_wr,
				 &resp.max_sge, &resp.srq_handle, &resp.srqn);
		if (!ret)
			emu_resp_out(r, &resp, sizeof(resp));
		return ret;
	}
	case IB_USER_VERBS_CMD_MODIFY_SRQ: {
		EMU_REQ(struct ib_uverbs_modify_srq, c);
		return emu_obj_get(r->ctx, UVERBS_OBJECT_SRQ, c.srq_handle) ? 0 : EINVAL;
	}
	case IB_USER_VERBS_CMD_QUERY_SRQ: {
		EMU_REQ(struct ib_uverbs_query_srq, c);
		struct ib_uverbs_query_srq_resp resp = { 0 };

		if (!emu_obj_get(r->ctx, UVERBS_OBJECT_SRQ, c.srq_handle))
			return EINVAL;
		emu_resp_out(r, &resp, sizeof(resp));
		return 0;
	}
	case IB_USER_VERBS_CMD_DESTROY_SRQ: {
		EMU_REQ(struct ib_uverbs_destroy_srq, c);
		struct ib_uverbs_destroy_srq_resp resp = { 0 };

		ret = emu_obj_destroy_gone(r, UVERBS_OBJECT_SRQ, c.srq_handle, &gone);
		if (!ret) {
			resp.events_reported = gone.async_events;
			emu_resp_out(r, &resp, sizeof(resp));
		}
		return ret;
	}
	}
	return EMU_NOT_MINE;
}

/* ---- ioctl methods ---- */

int emu_qp_ioctl(struct emu_req *r, uint16_t meth)
{
	struct ib_uverbs_qp_cap cap = { 0 };
	struct qp_args a = { 0 };
	const void *p;
	size_t len;
	uint32_t h, qpn;
	int ret;

	if (meth == UVERBS_METHOD_QP_DESTROY) {
		struct ib_uverbs_destroy_qp_resp resp = { 0 };
		struct emu_obj gone;

		ret = emu_obj_destroy_gone(r, UVERBS_OBJECT_QP, emu_attr_handle(r, UVERBS_ATTR_DESTROY_QP_HANDLE),
					   &gone);
		if (ret)
			return ret;
		resp.events_reported = gone.async_events;
		return emu_attr_out(r, UVERBS_ATTR_DESTROY_QP_RESP, &resp, sizeof(resp));
	}
	if (meth != UVERBS_METHOD_QP_CREATE)
		return EPROTONOSUPPORT;
	p = emu_attr_in(r, UVERBS_ATTR_CREATE_QP_CAP, &len);
	if (!p || len < sizeof(cap) || !emu_attr(r, UVERBS_ATTR_CREATE_QP_TYPE) ||
	    !emu_attr(r, UVERBS_ATTR_CREATE_QP_USER_HANDLE) || !emu_attr(r, UVERBS_ATTR_CREATE_QP_HANDLE))
		return EINVAL;
	memcpy(&cap, p, sizeof(cap));
	a.tbl = emu_attr_handle(r, UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE);
	a.xrcd = emu_attr_handle(r, UVERBS_ATTR_CREATE_QP_XRCD_HANDLE);
	a.user_handle = emu_attr_u64(r, UVERBS_ATTR_CREATE_QP_USER_HANDLE, 0);
	a.has_pd = emu_attr(r, UVERBS_ATTR_CREATE_QP_PD_HANDLE) != NULL;
	a.pd = emu_attr_handle(r, UVERBS_ATTR_CREATE_QP_PD_HANDLE);
	a.scq = emu_attr_handle(r, UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE);
	a.rcq = emu_attr_handle(r, UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE);
	a.has_srq = emu_attr(r, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE) != NULL;
	a.srq = emu_attr_handle(r, UVERBS_ATTR_CREATE_QP_SRQ_HANDLE);
	a.init = (struct emu_qp_init){ emu_attr_u64(r, UVERBS_ATTR_CREATE_QP_TYPE, 0), cap.max_send_wr,
				       cap.max_recv_wr, cap.max_send_sge, cap.max_recv_sge,
				       cap.max_inline_data, a.has_srq, false };
	a.create_flags = emu_attr_u64(r, UVERBS_ATTR_CREATE_QP_FLAGS, 0);
	ret = create_qp(r, &a, &h, &qpn);
	if (ret)
		return ret;
	emu_attr_new_handle(r, UVERBS_ATTR_CREATE_QP_HANDLE, h);
	cap = (struct ib_uverbs_qp_cap){ a.init.max_send_wr, a.init.max_recv_wr, a.init.max_send_sge,
					 a.init.max_recv_sge, a.init.max_inline };
	emu_attr_out(r, UVERBS_ATTR_CREATE_QP_RESP_CAP, &cap, sizeof(cap));
	return emu_attr_out(r, UVERBS_ATTR_CREATE_QP_RESP_QP_NUM, &qpn, sizeof(qpn));
}

int emu_srq_ioctl(struct emu_req *r, uint16_t meth)
{
	uint32_t h, srqn, max_wr, max_sge;
	int ret;

	if (meth == UVERBS_METHOD_SRQ_DESTROY) {
		struct ib_uverbs_destroy_srq_resp resp = { 0 };
		struct emu_obj gone;

		ret = emu_obj_destroy_gone(r, UVERBS_OBJECT_SRQ, emu_attr_handle(r, UVERBS_ATTR_DESTROY_SRQ_HANDLE),
					   &gone);
		if (ret)
			return ret;
		resp.events_reported = gone.async_events;
		return emu_attr_out(r, UVERBS_ATTR_DESTROY_SRQ_RESP, &resp, sizeof(resp));
	}
	if (meth != UVERBS_METHOD_SRQ_CREATE)
		return EPROTONOSUPPORT;
	max_wr = emu_attr_u64(r, UVERBS_ATTR_CREATE_SRQ_MAX_WR, 0);
	max_sge = emu_attr_u64(r, UVERBS_ATTR_CREATE_SRQ_MAX_SGE, 0);
	ret = create_srq(r, emu_attr_u64(r, UVERBS_ATTR_CREATE_SRQ_USER_HANDLE, 0),
			 emu_attr_u64(r, UVERBS_ATTR_CREATE_SRQ_TYPE, IB_UVERBS_SRQT_BASIC),
			 emu_attr_handle(r, UVERBS_ATTR_CREATE_SRQ_PD_HANDLE),
			 emu_attr_handle(r, UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE),
			 emu_attr_handle(r, UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE), &max_wr, &max_sge, &h, &srqn);
	if (ret)
		return ret;
	emu_attr_new_handle(r, UVERBS_ATTR_CREATE_SRQ_HANDLE, h);
	emu_attr_out(r, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR, &max_wr, sizeof(max_wr));
	emu_attr_out(r, UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE, &max_sge, sizeof(max_sge));
	return emu_attr_out(r, UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM, &srqn, sizeof(srqn));
}

char emu_qp_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr)
{
	switch (obj) {
	case UVERBS_OBJECT_QP:
		if (meth == UVERBS_METHOD_QP_DESTROY)
			return attr == UVERBS_ATTR_DESTROY_QP_HANDLE ? 'h' : attr == UVERBS_ATTR_DESTROY_QP_RESP ? 'o' : 0;
		switch (attr) {
		case UVERBS_ATTR_CREATE_QP_HANDLE: return 'n';
		case UVERBS_ATTR_CREATE_QP_XRCD_HANDLE:
		case UVERBS_ATTR_CREATE_QP_PD_HANDLE:
		case UVERBS_ATTR_CREATE_QP_SRQ_HANDLE:
		case UVERBS_ATTR_CREATE_QP_SEND_CQ_HANDLE:
		case UVERBS_ATTR_CREATE_QP_RECV_CQ_HANDLE:
		case UVERBS_ATTR_CREATE_QP_IND_TABLE_HANDLE: return 'h';
		case UVERBS_ATTR_CREATE_QP_USER_HANDLE:
		case UVERBS_ATTR_CREATE_QP_CAP: return 'i';
		case UVERBS_ATTR_CREATE_QP_TYPE:
		case UVERBS_ATTR_CREATE_QP_FLAGS:
		case UVERBS_ATTR_CREATE_QP_SOURCE_QPN: return 'c';
		case UVERBS_ATTR_CREATE_QP_EVENT_FD: return 'f';
		case UVERBS_ATTR_CREATE_QP_RESP_CAP:
		case UVERBS_ATTR_CREATE_QP_RESP_QP_NUM: return 'o';
		}
		return 0;
	case UVERBS_OBJECT_SRQ:
		if (meth == UVERBS_METHOD_SRQ_DESTROY)
			return attr == UVERBS_ATTR_DESTROY_SRQ_HANDLE ? 'h' : attr == UVERBS_ATTR_DESTROY_SRQ_RESP ? 'o' : 0;
		switch (attr) {
		case UVERBS_ATTR_CREATE_SRQ_HANDLE: return 'n';
		case UVERBS_ATTR_CREATE_SRQ_PD_HANDLE:
		case UVERBS_ATTR_CREATE_SRQ_XRCD_HANDLE:
		case UVERBS_ATTR_CREATE_SRQ_CQ_HANDLE: return 'h';
		case UVERBS_ATTR_CREATE_SRQ_USER_HANDLE: return 'i';
		case UVERBS_ATTR_CREATE_SRQ_MAX_WR:
		case UVERBS_ATTR_CREATE_SRQ_MAX_SGE:
		case UVERBS_ATTR_CREATE_SRQ_LIMIT:
		case UVERBS_ATTR_CREATE_SRQ_MAX_NUM_TAGS:
		case UVERBS_ATTR_CREATE_SRQ_TYPE: return 'c';
		case UVERBS_ATTR_CREATE_SRQ_EVENT_FD: return 'f';
		case UVERBS_ATTR_CREATE_SRQ_RESP_MAX_WR:
		case UVERBS_ATTR_CREATE_SRQ_RESP_MAX_SGE:
		case UVERBS_ATTR_CREATE_SRQ_RESP_SRQ_NUM: return 'o';
		}
		return 0;
	}
	return 0;
}
