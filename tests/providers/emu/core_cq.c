/* uvemu: completion channels and CQs (drivers/infiniband/core/uverbs_cmd.c and
 * uverbs_std_types_cq.c), through write commands and ioctl methods; created by one function both
 * paths call, destroyed by core_obj.c's (events still queued for a destroyed CQ are dropped).
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static int create_cq(struct emu_req *r, uint64_t user_handle, uint32_t cqe, uint32_t vector, int channel,
		     uint32_t flags, uint32_t *handle, uint32_t *cqe_out)
{
	struct emu_obj *cq;
	int ret;

	if (!cqe || cqe > r->dev->max_cqe || vector >= r->dev->num_comp_vectors)
		return EINVAL;
	if (flags & ~r->dev->cq_flags)
		return EOPNOTSUPP;
	if (channel != -1 && (!emu_fd_get(channel) || emu_fd_get(channel)->kind != FD_COMP))
		return EINVAL;
	cq = emu_obj_new(r->ctx, UVERBS_OBJECT_CQ, handle);
	if (!cq)
		return ENOMEM;
	cq->num = emu_next_num(r->ctx, UVERBS_OBJECT_CQ);
	cq->user_handle = user_handle;
	cq->cqe = cqe;
	cq->channel = channel;
	ret = emu_req_drv(r)->create_cq ? emu_req_drv(r)->create_cq(r, cq) : 0;
	if (ret) {
		emu_obj_free(r->ctx, *handle);
		return ret;
	}
	*cqe_out = cq->cqe;
	return 0;
}

/* ---- write commands ---- */

int emu_cq_write(struct emu_req *r)
{
	struct emu_obj gone;
	int ret;

	switch (r->wcmd) {
	case IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL: {
		struct ib_uverbs_create_comp_channel_resp resp = { 0 };
		int fd = emu_fd_new(FD_COMP, r->ctx, true, false);

		if (fd < 0)
			return errno;
		resp.fd = fd;
		emu_resp_out(r, &resp, sizeof(resp));
		return 0;
	}
	case IB_USER_VERBS_CMD_CREATE_CQ: {
		EMU_REQ(struct ib_uverbs_create_cq, c);
		struct ib_uverbs_create_cq_resp resp = { 0 };

		ret = create_cq(r, c.user_handle, c.cqe, c.comp_vector, c.comp_channel, 0, &resp.cq_handle,
				&resp.cqe);
		if (!ret)
			emu_resp_out(r, &resp, sizeof(resp));
		return ret;
	}
	case IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_CQ: {
		EMU_REQ(struct ib_uverbs_ex_create_cq, c);
		struct ib_uverbs_ex_create_cq_resp resp = { 0 };

		if (c.comp_mask || c.reserved)
			return EINVAL;
		ret = create_cq(r, c.user_handle, c.cqe, c.comp_vector, c.comp_channel, c.flags,
				&resp.base.cq_handle, &resp.base.cqe);
		resp.response_length = r->out_len < sizeof(resp) ? r->out_len : sizeof(resp);
		if (!ret)
			emu_resp_out(r, &resp, sizeof(resp));
		return ret;
	}
	case IB_USER_VERBS_CMD_DESTROY_CQ: {
		EMU_REQ(struct ib_uverbs_destroy_cq, c);
		struct ib_uverbs_destroy_cq_resp resp = { 0 };

		ret = emu_obj_destroy_gone(r, UVERBS_OBJECT_CQ, c.cq_handle, &gone);
		if (!ret) {
			resp.comp_events_reported = gone.comp_events;
			resp.async_events_reported = gone.async_events;
			emu_resp_out(r, &resp, sizeof(resp));
		}
		return ret;
	}
	case IB_USER_VERBS_CMD_REQ_NOTIFY_CQ: {
		EMU_REQ(struct ib_uverbs_req_notify_cq, c);
		return emu_obj_get(r->ctx, UVERBS_OBJECT_CQ, c.cq_handle) ? 0 : EINVAL;
	}
	case IB_USER_VERBS_CMD_RESIZE_CQ: {
		EMU_REQ(struct ib_uverbs_resize_cq, c);
		struct emu_obj *cq = emu_obj_get(r->ctx, UVERBS_OBJECT_CQ, c.cq_handle);
		struct ib_uverbs_resize_cq_resp resp = { 0 };

		if (!cq || !c.cqe || c.cqe > r->dev->max_cqe)
			return EINVAL;
		if (!emu_req_drv(r)->resize_cq)
			return EOPNOTSUPP;
		ret = emu_req_drv(r)->resize_cq(r, cq, c.cqe);
		if (ret)
			return ret;
		resp.cqe = cq->cqe;
		emu_resp_out(r, &resp, sizeof(resp));
		return 0;
	}
	}
	return EMU_NOT_MINE;
}

/* ---- ioctl methods ---- */

int emu_cq_ioctl(struct emu_req *r, uint16_t meth)
{
	uint32_t h, cqe;
	int ret;

	if (meth == UVERBS_METHOD_CQ_DESTROY) {
		struct ib_uverbs_destroy_cq_resp resp = { 0 };
		struct emu_obj gone;

		ret = emu_obj_destroy_gone(r, UVERBS_OBJECT_CQ, emu_attr_handle(r, UVERBS_ATTR_DESTROY_CQ_HANDLE),
					   &gone);
		if (ret)
			return ret;
		resp.comp_events_reported = gone.comp_events;
		resp.async_events_reported = gone.async_events;
		return emu_attr_out(r, UVERBS_ATTR_DESTROY_CQ_RESP, &resp, sizeof(resp));
	}
	if (meth != UVERBS_METHOD_CQ_CREATE)
		return EPROTONOSUPPORT;
	if (!emu_attr(r, UVERBS_ATTR_CREATE_CQ_HANDLE) || !emu_attr(r, UVERBS_ATTR_CREATE_CQ_CQE) ||
	    !emu_attr(r, UVERBS_ATTR_CREATE_CQ_USER_HANDLE) || !emu_attr(r, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR) ||
	    !emu_attr(r, UVERBS_ATTR_CREATE_CQ_RESP_CQE))
		return EINVAL;
	ret = create_cq(r, emu_attr_u64(r, UVERBS_ATTR_CREATE_CQ_USER_HANDLE, 0),
			emu_attr_u64(r, UVERBS_ATTR_CREATE_CQ_CQE, 0),
			emu_attr_u64(r, UVERBS_ATTR_CREATE_CQ_COMP_VECTOR, 0),
			(int)emu_attr_u64(r, UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL, -1),
			emu_attr_u64(r, UVERBS_ATTR_CREATE_CQ_FLAGS, 0), &h, &cqe);
	if (ret)
		return ret;
	emu_attr_new_handle(r, UVERBS_ATTR_CREATE_CQ_HANDLE, h);
	return emu_attr_out(r, UVERBS_ATTR_CREATE_CQ_RESP_CQE, &cqe, sizeof(cqe));
}

char emu_cq_attr_kind(uint16_t meth, uint16_t attr)
{
	if (meth == UVERBS_METHOD_CQ_DESTROY)
		return attr == UVERBS_ATTR_DESTROY_CQ_HANDLE ? 'h' : attr == UVERBS_ATTR_DESTROY_CQ_RESP ? 'o' : 0;
	switch (attr) {
	case UVERBS_ATTR_CREATE_CQ_HANDLE: return 'n';
	case UVERBS_ATTR_CREATE_CQ_USER_HANDLE: return 'i';
	case UVERBS_ATTR_CREATE_CQ_COMP_CHANNEL:
	case UVERBS_ATTR_CREATE_CQ_EVENT_FD: return 'f';
	case UVERBS_ATTR_CREATE_CQ_RESP_CQE: return 'o';
	case UVERBS_ATTR_CREATE_CQ_CQE:
	case UVERBS_ATTR_CREATE_CQ_COMP_VECTOR:
	case UVERBS_ATTR_CREATE_CQ_FLAGS: return 'c';
	}
	return 0;
}
