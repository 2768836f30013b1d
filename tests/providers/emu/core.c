/* uvemu: the core uverbs commands of the device itself (drivers/infiniband/core/uverbs_cmd.c,
 * uverbs_std_types_device.c): contexts, async event files, device/port/GID queries, and the
 * dispatch of every write command and core ioctl method to its handler (objects: core_obj.c).
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

int emu_invoke_write(struct emu_req *r);
int emu_obj_write(struct emu_req *r);
int emu_obj_ioctl(struct emu_req *r);
char emu_obj_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr);

/* ---- write commands: sizes and names ---- */

#define W(cmd, req, resp) [IB_USER_VERBS_CMD_##cmd] = { #cmd, sizeof(req), resp }
struct wdesc {
	const char *name;
	size_t req, resp;
};

static const struct wdesc legacy[] = {
	W(GET_CONTEXT, struct ib_uverbs_get_context, sizeof(struct ib_uverbs_get_context_resp)),
	W(QUERY_DEVICE, struct ib_uverbs_query_device, sizeof(struct ib_uverbs_query_device_resp)),
	W(QUERY_PORT, struct ib_uverbs_query_port, sizeof(struct ib_uverbs_query_port_resp)),
	W(ALLOC_PD, struct ib_uverbs_alloc_pd, sizeof(struct ib_uverbs_alloc_pd_resp)),
	W(DEALLOC_PD, struct ib_uverbs_dealloc_pd, 0),
	W(CREATE_AH, struct ib_uverbs_create_ah, sizeof(struct ib_uverbs_create_ah_resp)),
	W(DESTROY_AH, struct ib_uverbs_destroy_ah, 0),
	W(REG_MR, struct ib_uverbs_reg_mr, sizeof(struct ib_uverbs_reg_mr_resp)),
	W(REREG_MR, struct ib_uverbs_rereg_mr, sizeof(struct ib_uverbs_rereg_mr_resp)),
	W(DEREG_MR, struct ib_uverbs_dereg_mr, 0),
	W(ALLOC_MW, struct ib_uverbs_alloc_mw, sizeof(struct ib_uverbs_alloc_mw_resp)),
	W(DEALLOC_MW, struct ib_uverbs_dealloc_mw, 0),
	W(CREATE_COMP_CHANNEL, struct ib_uverbs_create_comp_channel,
	  sizeof(struct ib_uverbs_create_comp_channel_resp)),
	W(CREATE_CQ, struct ib_uverbs_create_cq, sizeof(struct ib_uverbs_create_cq_resp)),
	W(RESIZE_CQ, struct ib_uverbs_resize_cq, sizeof(struct ib_uverbs_resize_cq_resp)),
	W(DESTROY_CQ, struct ib_uverbs_destroy_cq, sizeof(struct ib_uverbs_destroy_cq_resp)),
	W(REQ_NOTIFY_CQ, struct ib_uverbs_req_notify_cq, 0),
	W(CREATE_QP, struct ib_uverbs_create_qp, sizeof(struct ib_uverbs_create_qp_resp)),
	W(QUERY_QP, struct ib_uverbs_query_qp, sizeof(struct ib_uverbs_query_qp_resp)),
	W(MODIFY_QP, struct ib_uverbs_modify_qp, 0),
	W(DESTROY_QP, struct ib_uverbs_destroy_qp, sizeof(struct ib_uverbs_destroy_qp_resp)),
	W(POST_SEND, struct ib_uverbs_post_send, sizeof(struct ib_uverbs_post_send_resp)),
	W(POST_RECV, struct ib_uverbs_post_recv, sizeof(struct ib_uverbs_post_recv_resp)),
	W(POLL_CQ, struct ib_uverbs_poll_cq, sizeof(struct ib_uverbs_poll_cq_resp)),
	W(ATTACH_MCAST, struct ib_uverbs_attach_mcast, 0),
	W(DETACH_MCAST, struct ib_uverbs_detach_mcast, 0),
	W(CREATE_SRQ, struct ib_uverbs_create_srq, sizeof(struct ib_uverbs_create_srq_resp)),
	W(MODIFY_SRQ, struct ib_uverbs_modify_srq, 0),
	W(QUERY_SRQ, struct ib_uverbs_query_srq, sizeof(struct ib_uverbs_query_srq_resp)),
	W(DESTROY_SRQ, struct ib_uverbs_destroy_srq, sizeof(struct ib_uverbs_destroy_srq_resp)),
	W(POST_SRQ_RECV, struct ib_uverbs_post_srq_recv, sizeof(struct ib_uverbs_post_srq_recv_resp)),
	W(OPEN_XRCD, struct ib_uverbs_open_xrcd, sizeof(struct ib_uverbs_open_xrcd_resp)),
	W(CLOSE_XRCD, struct ib_uverbs_close_xrcd, 0),
	W(CREATE_XSRQ, struct ib_uverbs_create_xsrq, sizeof(struct ib_uverbs_create_srq_resp)),
	W(OPEN_QP, struct ib_uverbs_open_qp, sizeof(struct ib_uverbs_create_qp_resp)),
};

static const struct wdesc extended[] = {
	[IB_USER_VERBS_EX_CMD_QUERY_DEVICE] = { "EX_QUERY_DEVICE", sizeof(struct ib_uverbs_ex_query_device),
						 offsetof(struct ib_uverbs_ex_query_device_resp, odp_caps) },
	[IB_USER_VERBS_EX_CMD_CREATE_CQ] = { "EX_CREATE_CQ", sizeof(struct ib_uverbs_ex_create_cq),
					      sizeof(struct ib_uverbs_ex_create_cq_resp) },
	[IB_USER_VERBS_EX_CMD_CREATE_QP] = { "EX_CREATE_QP",
					      offsetof(struct ib_uverbs_ex_create_qp, create_flags),
					      sizeof(struct ib_uverbs_ex_create_qp_resp) },
	[IB_USER_VERBS_EX_CMD_MODIFY_QP] = { "EX_MODIFY_QP", sizeof(struct ib_uverbs_ex_modify_qp),
					      sizeof(struct ib_uverbs_ex_modify_qp_resp) },
	[IB_USER_VERBS_EX_CMD_MODIFY_CQ] = { "EX_MODIFY_CQ", sizeof(struct ib_uverbs_ex_modify_cq), 0 },
	/* core_wq.c, core_flow.c: requests and responses at their kernel minimum (what ends at the
	 * last field the kernel reads or writes) */
	[IB_USER_VERBS_EX_CMD_CREATE_FLOW] = { "EX_CREATE_FLOW", sizeof(struct ib_uverbs_create_flow),
						sizeof(struct ib_uverbs_create_flow_resp) },
	[IB_USER_VERBS_EX_CMD_DESTROY_FLOW] = { "EX_DESTROY_FLOW", sizeof(struct ib_uverbs_destroy_flow), 0 },
	[IB_USER_VERBS_EX_CMD_CREATE_WQ] = { "EX_CREATE_WQ", offsetof(struct ib_uverbs_ex_create_wq, create_flags),
					      sizeof(struct ib_uverbs_ex_create_wq_resp) },
	[IB_USER_VERBS_EX_CMD_MODIFY_WQ] = { "EX_MODIFY_WQ", offsetof(struct ib_uverbs_ex_modify_wq, flags), 0 },
	[IB_USER_VERBS_EX_CMD_DESTROY_WQ] = { "EX_DESTROY_WQ", sizeof(struct ib_uverbs_ex_destroy_wq),
					       sizeof(struct ib_uverbs_ex_destroy_wq_resp) },
	[IB_USER_VERBS_EX_CMD_CREATE_RWQ_IND_TBL] = { "EX_CREATE_RWQ_IND_TBL",
						       sizeof(struct ib_uverbs_ex_create_rwq_ind_table),
						       sizeof(struct ib_uverbs_ex_create_rwq_ind_table_resp) },
	[IB_USER_VERBS_EX_CMD_DESTROY_RWQ_IND_TBL] = { "EX_DESTROY_RWQ_IND_TBL",
							sizeof(struct ib_uverbs_ex_destroy_rwq_ind_table), 0 },
};
#undef W

static const struct wdesc *wdesc(uint32_t cmd)
{
	uint32_t n = cmd & ~IB_USER_VERBS_CMD_FLAG_EXTENDED;

	if (cmd & IB_USER_VERBS_CMD_FLAG_EXTENDED)
		return n < sizeof(extended) / sizeof(extended[0]) && extended[n].name ? &extended[n] : NULL;
	return n < sizeof(legacy) / sizeof(legacy[0]) && legacy[n].name ? &legacy[n] : NULL;
}

int emu_write_sizes(uint32_t cmd, size_t *req, size_t *resp)
{
	const struct wdesc *d = wdesc(cmd);

	if (!d)
		return -1;
	*req = d->req;
	*resp = d->resp;
	return 0;
}

const char *emu_write_name(uint32_t cmd)
{
	static char buf[32];
	const struct wdesc *d = wdesc(cmd);

	if (d)
		return d->name;
	snprintf(buf, sizeof(buf), "cmd%#x", cmd);
	return buf;
}

/* ---- device queries ---- */

static uint64_t fw_ver(const struct emu_dev *d)
{
	unsigned a = 0, b = 0, c = 0;

	sscanf(d->fw_ver, "%u.%u.%u", &a, &b, &c);
	return ((uint64_t)a << 32) | ((uint64_t)b << 16) | c;
}

static void fill_device(const struct emu_dev *d, struct ib_uverbs_query_device_resp *p)
{
	memset(p, 0, sizeof(*p));
	p->fw_ver = fw_ver(d);
	p->node_guid = htobe64(d->node_guid);
	p->sys_image_guid = htobe64(d->node_guid);
	p->max_mr_size = ~0ull;
	p->page_size_cap = 0xfffff000;
	p->vendor_id = d->vendor_id;
	p->vendor_part_id = d->vendor_part_id;
	p->hw_ver = d->hw_ver;
	p->max_qp = d->max_qp;
	p->max_qp_wr = d->max_qp_wr;
	p->device_cap_flags = (uint32_t)d->device_cap_flags;
	p->max_sge = d->max_sge;
	p->max_sge_rd = d->max_sge;
	p->max_cq = d->max_cq;
	p->max_cqe = d->max_cqe;
	p->max_mr = d->max_mr;
	p->max_pd = d->max_pd;
	p->max_qp_rd_atom = 16;
	p->max_res_rd_atom = 16 * d->max_qp;
	p->max_qp_init_rd_atom = 16;
	p->atomic_cap = d->link_layer == IB_LINK_LAYER_INFINIBAND ? 1 : 0;
	p->max_mw = d->max_mr;
	p->max_mcast_grp = d->link_layer == IB_LINK_LAYER_INFINIBAND ? 2048 : 0;
	p->max_mcast_qp_attach = p->max_mcast_grp ? 56 : 0;
	p->max_total_mcast_qp_attach = p->max_mcast_grp * p->max_mcast_qp_attach;
	p->max_ah = d->max_ah;
	p->max_srq = d->max_srq;
	p->max_srq_wr = d->max_srq_wr;
	p->max_srq_sge = d->max_srq_sge;
	p->max_pkeys = d->link_layer == IB_LINK_LAYER_INFINIBAND ? 128 : 1;
	p->local_ca_ack_delay = 16;
	p->phys_port_cnt = 1;
}

static int query_device(struct emu_req *r)
{
	struct ib_uverbs_query_device_resp resp;

	fill_device(r->dev, &resp);
	emu_resp_out(r, &resp, sizeof(resp));
	return 0;
}

static int ex_query_device(struct emu_req *r)
{
	struct ib_uverbs_ex_query_device cmd = { 0 };
	struct ib_uverbs_ex_query_device_resp resp = { 0 };
	size_t n;

	memcpy(&cmd, r->in, r->in_len < sizeof(cmd) ? r->in_len : sizeof(cmd));
	if (cmd.comp_mask || cmd.reserved)
		return EINVAL;
	fill_device(r->dev, &resp.base);
	resp.device_cap_flags_ex = r->dev->device_cap_flags;
	resp.timestamp_mask = 0;
	resp.hca_core_clock = 0;
	resp.max_wq_type_rq = 0;
	resp.raw_packet_caps = 0;
	resp.cq_moderation_caps.max_cq_moderation_count = 0;
	if (r->dev->odp) {
		resp.odp_caps.general_caps = 1; /* IB_ODP_SUPPORT */
		resp.odp_caps.per_transport_caps.rc_odp_caps = 0xf; /* SEND, RECV, WRITE, READ */
		resp.odp_caps.per_transport_caps.ud_odp_caps = 0x1;
	}
	if (r->dev->cq_max_period) {
		resp.cq_moderation_caps.max_cq_moderation_count = 0xffff;
		resp.cq_moderation_caps.max_cq_moderation_period = r->dev->cq_max_period;
	}
	if (r->dev->dm)
		resp.max_dm_size = EMU_DM_MAX;
	n = r->out_len < sizeof(resp) ? r->out_len : sizeof(resp);
	if (r->short_answer)
		n = offsetof(struct ib_uverbs_ex_query_device_resp, odp_caps);
	resp.response_length = n;
	if (emu_req_drv(r)->query_device) {
		int ret = emu_req_drv(r)->query_device(r);

		if (ret)
			return ret;
	}
	memcpy(r->out, &resp, n);
	memset(r->out + n, 0, r->out_len - n);
	return 0;
}

static void fill_port(const struct emu_dev *d, struct ib_uverbs_query_port_resp *p)
{
	bool ib = d->link_layer == IB_LINK_LAYER_INFINIBAND;

	memset(p, 0, sizeof(*p));
	p->port_cap_flags = ib ? 0x2651e848 : 0x04010000;
	p->max_msg_sz = 0x40000000;
	p->gid_tbl_len = ib ? 128 : 16;
	p->pkey_tbl_len = ib ? 128 : 1;
	p->lid = ib ? 1 : 0;
	p->sm_lid = ib ? 1 : 0;
	p->state = 4; /* ACTIVE */
	p->max_mtu = 5;
	p->active_mtu = ib ? 5 : 3;
	p->lmc = 0;
	p->max_vl_num = ib ? 4 : 0;
	p->subnet_timeout = ib ? 18 : 0;
	p->active_width = 2;
	p->active_speed = 32;
	p->phys_state = 5;
	p->link_layer = d->link_layer;
}

static int query_port(struct emu_req *r)
{
	struct ib_uverbs_query_port cmd;
	struct ib_uverbs_query_port_resp resp;

	memcpy(&cmd, r->in, sizeof(cmd));
	if (cmd.port_num != 1)
		return EINVAL;
	fill_port(r->dev, &resp);
	emu_resp_out(r, &resp, sizeof(resp));
	return 0;
}

/* ---- contexts ---- */

static int get_context(struct emu_req *r, bool legacy_write)
{
	struct ib_uverbs_get_context_resp resp = { 0 };
	int ret;

	if (r->ctx->have_context)
		return EINVAL;
	ret = emu_req_drv(r)->get_context ? emu_req_drv(r)->get_context(r) : 0;
	if (ret)
		return ret;
	if (legacy_write) {
		int fd = emu_fd_new(FD_ASYNC, r->ctx, true, false);

		if (fd < 0)
			return errno;
		r->ctx->async_fd = fd;
		resp.async_fd = fd;
		resp.num_comp_vectors = r->dev->num_comp_vectors;
		emu_resp_out(r, &resp, sizeof(resp));
	}
	r->ctx->have_context = true;
	return 0;
}

int emu_core_write(struct emu_req *r)
{
	uint32_t cmd = r->wcmd;

	if (!r->ctx->have_context && cmd != IB_USER_VERBS_CMD_GET_CONTEXT)
		return EINVAL;
	switch (cmd) {
	case IB_USER_VERBS_CMD_GET_CONTEXT:
		return get_context(r, true);
	case IB_USER_VERBS_CMD_QUERY_DEVICE:
		return query_device(r);
	case IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_QUERY_DEVICE:
		return ex_query_device(r);
	case IB_USER_VERBS_CMD_QUERY_PORT:
		return query_port(r);
	}
	if (emu_post_cmd(cmd))
		return emu_post_write(r);
	if (emu_wq_cmd(cmd))
		return emu_wq_write(r);
	if (emu_flow_cmd(cmd))
		return emu_flow_write(r);
	return emu_obj_write(r);
}

/* ---- ioctl methods of the device object ---- */

static int ioctl_query_port(struct emu_req *r)
{
	struct ib_uverbs_query_port_resp_ex resp = { 0 };

	if (emu_attr_u64(r, UVERBS_ATTR_QUERY_PORT_PORT_NUM, 0) != 1)
		return EINVAL;
	fill_port(r->dev, &resp.legacy_resp);
	return emu_attr_out(r, UVERBS_ATTR_QUERY_PORT_RESP, &resp, sizeof(resp));
}

static int ioctl_context(struct emu_req *r, bool get)
{
	uint32_t vectors = r->dev->num_comp_vectors;
	uint64_t support = IB_UVERBS_CORE_SUPPORT_OPTIONAL_MR_ACCESS;
	int ret;

	if (get) {
		ret = get_context(r, false);
		if (ret)
			return ret;
	} else if (!r->ctx->have_context) {
		return EINVAL;
	}
	emu_attr_out(r, UVERBS_ATTR_GET_CONTEXT_NUM_COMP_VECTORS, &vectors, sizeof(vectors));
	emu_attr_out(r, UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT, &support, sizeof(support));
	/* QUERY_CONTEXT (ibv_import_device): then the driver's query_ucontext, where it has one. */
	if (!get && emu_req_drv(r)->query_context)
		return emu_req_drv(r)->query_context(r);
	return 0;
}

static void gid_entry(const struct emu_dev *d, unsigned index, struct ib_uverbs_gid_entry *e)
{
	memset(e, 0, sizeof(*e));
	emu_dev_gid(d, index, (uint8_t *)e->gid);
	e->gid_index = index;
	e->port_num = 1;
	if (d->link_layer == IB_LINK_LAYER_INFINIBAND)
		e->gid_type = IB_UVERBS_GID_TYPE_IB;
	else
		e->gid_type = index ? IB_UVERBS_GID_TYPE_ROCE_V2 : IB_UVERBS_GID_TYPE_ROCE_V1;
	e->netdev_ifindex = d->link_layer == IB_LINK_LAYER_INFINIBAND ? 0 : 1;
}

static int ioctl_gid_entry(struct emu_req *r)
{
	struct ib_uverbs_gid_entry e;
	unsigned index = emu_attr_u64(r, UVERBS_ATTR_QUERY_GID_ENTRY_GID_INDEX, ~0u);

	if (emu_attr_u64(r, UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS, 0))
		return EINVAL;
	if (emu_attr_u64(r, UVERBS_ATTR_QUERY_GID_ENTRY_PORT, 0) != 1)
		return EINVAL;
	if (index >= EMU_NUM_GIDS)
		return ENODATA;
	gid_entry(r->dev, index, &e);
	return emu_attr_out(r, UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY, &e, sizeof(e));
}

static int ioctl_gid_table(struct emu_req *r)
{
	struct ib_uverbs_attr *a = emu_attr(r, UVERBS_ATTR_QUERY_GID_TABLE_RESP_ENTRIES);
	size_t esz = emu_attr_u64(r, UVERBS_ATTR_QUERY_GID_TABLE_ENTRY_SIZE, 0);
	uint64_t n;

	if (!a || !esz || emu_attr_u64(r, UVERBS_ATTR_QUERY_GID_TABLE_FLAGS, 0))
		return EINVAL;
	n = a->len / esz;
	if (n > EMU_NUM_GIDS)
		n = EMU_NUM_GIDS;
	for (unsigned i = 0; i < n; i++) {
		struct ib_uverbs_gid_entry e;

		gid_entry(r->dev, i, &e);
		memset((char *)(uintptr_t)a->data + i * esz, 0, esz);
		memcpy((char *)(uintptr_t)a->data + i * esz, &e, esz < sizeof(e) ? esz : sizeof(e));
	}
	a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	return emu_attr_out(r, UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES, &n, sizeof(n));
}

static int async_event_alloc(struct emu_req *r)
{
	struct ib_uverbs_attr *a = emu_attr(r, UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE);
	int fd;

	if (!a || !r->ctx->have_context)
		return EINVAL;
	fd = emu_fd_new(FD_ASYNC, r->ctx, true, false);
	if (fd < 0)
		return errno;
	if (r->ctx->async_fd < 0)
		r->ctx->async_fd = fd;
	a->data = fd;
	return 0;
}

int emu_core_ioctl(struct emu_req *r)
{
	uint16_t obj = r->hdr->object_id, meth = r->hdr->method_id;

	if (obj == UVERBS_OBJECT_DEVICE && meth == UVERBS_METHOD_INVOKE_WRITE)
		return emu_invoke_write(r);
	if (obj == UVERBS_OBJECT_DEVICE && meth == UVERBS_METHOD_GET_CONTEXT)
		return ioctl_context(r, true);
	if (!r->ctx->have_context)
		return EINVAL;
	if (emu_newer_method(obj, meth))
		return emu_newer_ioctl(r);
	if (obj == UVERBS_OBJECT_DEVICE) {
		switch (meth) {
		case UVERBS_METHOD_QUERY_PORT:
			return ioctl_query_port(r);
		case UVERBS_METHOD_QUERY_CONTEXT:
			return ioctl_context(r, false);
		case UVERBS_METHOD_QUERY_GID_ENTRY:
			return ioctl_gid_entry(r);
		case UVERBS_METHOD_QUERY_GID_TABLE:
			return ioctl_gid_table(r);
		}
		return EPROTONOSUPPORT;
	}
	if (obj == UVERBS_OBJECT_ASYNC_EVENT && meth == UVERBS_METHOD_ASYNC_EVENT_ALLOC)
		return async_event_alloc(r);
	if (obj == UVERBS_OBJECT_WQ || obj == UVERBS_OBJECT_RWQ_IND_TBL)
		return emu_wq_ioctl(r);
	if (obj == UVERBS_OBJECT_FLOW || obj == UVERBS_OBJECT_COUNTERS)
		return emu_flow_ioctl(r);
	return emu_obj_ioctl(r);
}

char emu_core_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr)
{
	if (emu_newer_method(obj, meth))
		return emu_newer_attr_kind(obj, meth, attr);
	if (obj == UVERBS_OBJECT_DEVICE) {
		switch (meth) {
		case UVERBS_METHOD_INVOKE_WRITE:
			return attr == UVERBS_ATTR_CORE_IN ? 'i' : attr == UVERBS_ATTR_CORE_OUT ? 'o'
			       : attr == UVERBS_ATTR_WRITE_CMD ? 'c' : 0;
		case UVERBS_METHOD_QUERY_PORT:
			return attr == UVERBS_ATTR_QUERY_PORT_PORT_NUM ? 'c' : attr == UVERBS_ATTR_QUERY_PORT_RESP ? 'o' : 0;
		case UVERBS_METHOD_GET_CONTEXT:
		case UVERBS_METHOD_QUERY_CONTEXT:
			return attr <= UVERBS_ATTR_GET_CONTEXT_CORE_SUPPORT ? 'o' : 0;
		case UVERBS_METHOD_QUERY_GID_TABLE:
			return attr <= UVERBS_ATTR_QUERY_GID_TABLE_FLAGS ? 'c' : attr <= UVERBS_ATTR_QUERY_GID_TABLE_RESP_NUM_ENTRIES ? 'o' : 0;
		case UVERBS_METHOD_QUERY_GID_ENTRY:
			return attr <= UVERBS_ATTR_QUERY_GID_ENTRY_FLAGS ? 'c' : attr == UVERBS_ATTR_QUERY_GID_ENTRY_RESP_ENTRY ? 'o' : 0;
		}
		return 0;
	}
	if (obj == UVERBS_OBJECT_ASYNC_EVENT)
		return attr == UVERBS_ATTR_ASYNC_EVENT_ALLOC_FD_HANDLE ? 'F' : 0;
	if (obj == UVERBS_OBJECT_WQ || obj == UVERBS_OBJECT_RWQ_IND_TBL)
		return emu_wq_attr_kind(obj, meth, attr);
	if (obj == UVERBS_OBJECT_FLOW || obj == UVERBS_OBJECT_COUNTERS)
		return emu_flow_attr_kind(obj, meth, attr);
	return emu_obj_attr_kind(obj, meth, attr);
}
