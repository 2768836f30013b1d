/* uvemu: flow steering and counters (drivers/infiniband/core/uverbs_cmd.c: ib_uverbs_ex_create_flow,
 * ib_uverbs_ex_destroy_flow; uverbs_std_types.c: FLOW_DESTROY; uverbs_std_types_counters.c:
 * COUNTERS_CREATE, _DESTROY, _READ). A flow is steered to a UD or raw packet QP by its specs (each
 * read as the kernel reads it: header, size, reserved bytes; the action count spec names counters),
 * and keeps its QP and counters in use (EBUSY). Counters read EINVAL until a flow uses them; the
 * driver (its create_flow hook) binds their descriptions to indexes, as mlx5 takes them from the
 * flow's driver data. A driver without flows has neither the write commands (EOPNOTSUPP) nor
 * the objects (EPROTONOSUPPORT).
 *
 * A flow's drv[0] is its QP's handle, drv[1] its counters' (~0u: none); counters keep their
 * (description, index) pairs in drv[], how many in cqe.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <string.h>

#define FLOW_FLAGS_DONT_TRAP 2u  /* IB_FLOW_ATTR_FLAGS_DONT_TRAP; EGRESS 4; RESERVED 8 */
#define FLOW_FLAGS_RESERVED 8u
#define FLOW_ALL_DEFAULT 1u      /* IB_FLOW_ATTR_ALL_DEFAULT, IB_FLOW_ATTR_MC_DEFAULT 2 */
#define FLOW_MAX_SPECS 10u       /* IB_FLOW_SPEC_SUPPORT_LAYERS */
#define SPEC_INNER 0x100u        /* IB_FLOW_SPEC_INNER */

/* The filter size of a spec type (value and mask each), 0 for an action, -1 when unknown
 * (enum ib_flow_spec_type; the uapi's filter structs). */
static int filter_size(uint32_t type)
{
	switch (type & ~SPEC_INNER) {
	case 0x20: return sizeof(struct ib_uverbs_flow_eth_filter);     /* ETH */
	case 0x30: return sizeof(struct ib_uverbs_flow_ipv4_filter);    /* IPV4 */
	case 0x31: return sizeof(struct ib_uverbs_flow_ipv6_filter);    /* IPV6 */
	case 0x34: return sizeof(struct ib_uverbs_flow_spec_esp_filter);     /* ESP */
	case 0x40:                                                       /* TCP */
	case 0x41: return sizeof(struct ib_uverbs_flow_tcp_udp_filter); /* UDP */
	case 0x50: return sizeof(struct ib_uverbs_flow_tunnel_filter);  /* VXLAN_TUNNEL */
	case 0x51: return sizeof(struct ib_uverbs_flow_gre_filter);     /* GRE */
	case 0x60: return sizeof(struct ib_uverbs_flow_mpls_filter);    /* MPLS */
	case 0x1000:                                                     /* ACTION_TAG */
	case 0x1001:                                                     /* ACTION_DROP */
	case 0x1003: return (type & SPEC_INNER) ? -1 : 0;               /* ACTION_COUNT */
	}
	return -1;
}

/* The specs after the flow attributes: all of flow_attr.size, exactly num_of_specs of them;
 * *counters: the handle an action count spec names (~0u: none). */
static int read_specs(struct emu_req *r, const struct ib_uverbs_create_flow *c, uint32_t *counters)
{
	const uint8_t *p = r->in + sizeof(*c);
	size_t left = c->flow_attr.size;
	unsigned i;

	*counters = ~0u;
	for (i = 0; i < c->flow_attr.num_of_specs && left >= sizeof(struct ib_uverbs_flow_spec_hdr); i++) {
		struct ib_uverbs_flow_spec_hdr h;
		int fsz;

		memcpy(&h, p, sizeof(h));
		fsz = filter_size(h.type);
		if (h.reserved || h.size > left || h.size < sizeof(h) || fsz < 0)
			return EINVAL;
		if (h.type == 0x1003) {
			struct ib_uverbs_flow_spec_action_count a;

			if (h.size != sizeof(a) || *counters != ~0u)
				return EINVAL;
			memcpy(&a, p, sizeof(a));
			if (!emu_obj_get(r->ctx, UVERBS_OBJECT_COUNTERS, a.handle))
				return EINVAL;
			*counters = a.handle;
		} else if (h.type == 0x1000) {
			if (h.size != sizeof(struct ib_uverbs_flow_spec_action_tag))
				return EINVAL;
		} else if (h.type == 0x1001) {
			if (h.size != sizeof(struct ib_uverbs_flow_spec_action_drop))
				return EINVAL;
		} else if ((h.size - sizeof(h)) % 2 || (int)(h.size - sizeof(h)) / 2 > fsz) {
			return EINVAL;
		}
		p += h.size;
		left -= h.size;
	}
	return left || i != c->flow_attr.num_of_specs ? EINVAL : 0;
}

static int create_flow(struct emu_req *r)
{
	EMU_REQ(struct ib_uverbs_create_flow, c);
	struct ib_uverbs_create_flow_resp resp = { 0 };
	struct emu_obj *qp, *flow;
	uint32_t counters, h;
	int ret;

	if (r->in_len < sizeof(c))
		return EINVAL;
	if (c.comp_mask)
		return EINVAL;
	if (c.flow_attr.flags >= FLOW_FLAGS_RESERVED ||
	    ((c.flow_attr.flags & FLOW_FLAGS_DONT_TRAP) &&
	     (c.flow_attr.type == FLOW_ALL_DEFAULT || c.flow_attr.type == FLOW_ALL_DEFAULT + 1)))
		return EINVAL;
	if (c.flow_attr.num_of_specs > FLOW_MAX_SPECS)
		return EINVAL;
	if (c.flow_attr.size > r->in_len - sizeof(c) ||
	    c.flow_attr.size < c.flow_attr.num_of_specs * sizeof(struct ib_uverbs_flow_spec_hdr))
		return EINVAL;
	if (c.flow_attr.reserved[0] || c.flow_attr.reserved[1])
		return EINVAL;
	qp = emu_obj_get(r->ctx, UVERBS_OBJECT_QP, c.qp_handle);
	if (!qp || (qp->qp_type != IB_UVERBS_QPT_UD && qp->qp_type != IB_UVERBS_QPT_RAW_PACKET))
		return EINVAL;
	ret = read_specs(r, &c, &counters);
	if (ret)
		return ret;
	if (!r->dev->wq || !emu_req_drv(r)->create_flow)
		return EOPNOTSUPP;
	flow = emu_obj_new(r->ctx, UVERBS_OBJECT_FLOW, &h);
	if (!flow)
		return ENOMEM;
	flow->drv[0] = c.qp_handle;
	flow->drv[1] = counters;
	ret = emu_req_drv(r)->create_flow(r, flow);
	if (ret) {
		emu_obj_free(r->ctx, h);
		return ret;
	}
	emu_obj_use(r->ctx, UVERBS_OBJECT_QP, c.qp_handle, 1);
	emu_obj_use(r->ctx, UVERBS_OBJECT_COUNTERS, counters, 1);
	resp.flow_handle = h;
	if (r->out) {
		memcpy(r->out, &resp, r->out_len < sizeof(resp) ? r->out_len : sizeof(resp));
		if (r->out_len > sizeof(resp))
			memset(r->out + sizeof(resp), 0, r->out_len - sizeof(resp));
	}
	return 0;
}

static int destroy_flow(struct emu_req *r, uint32_t h)
{
	struct emu_obj *o = emu_obj_get(r->ctx, UVERBS_OBJECT_FLOW, h);
	uint32_t qp, counters;
	int ret;

	if (!o)
		return EINVAL;
	qp = o->drv[0];
	counters = o->drv[1];
	ret = emu_obj_destroy(r, UVERBS_OBJECT_FLOW, h);
	if (ret)
		return ret;
	emu_obj_use(r->ctx, UVERBS_OBJECT_QP, qp, -1);
	emu_obj_use(r->ctx, UVERBS_OBJECT_COUNTERS, counters, -1);
	return 0;
}

#define EX(cmd) (IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_##cmd)

bool emu_flow_cmd(uint32_t wcmd)
{
	return wcmd == EX(CREATE_FLOW) || wcmd == EX(DESTROY_FLOW);
}

int emu_flow_write(struct emu_req *r)
{
	/* A driver without flows has none of these commands (uapi: UAPI_DEF_METHOD_NEEDS_FN). */
	if (!r->dev->wq)
		return EOPNOTSUPP;
	if (r->wcmd == EX(CREATE_FLOW))
		return create_flow(r);
	if (r->wcmd == EX(DESTROY_FLOW)) {
		EMU_REQ(struct ib_uverbs_destroy_flow, c);

		if (c.comp_mask)
			return EINVAL;
		return destroy_flow(r, c.flow_handle);
	}
	return EOPNOTSUPP;
}

/* ---- counters ---- */

/* What the device counted: a fixed number of packets, and of bytes for them. */
static uint64_t counted(uint32_t desc)
{
	return desc ? 7 * 64 : 7;
}

static int read_counters(struct emu_req *r)
{
	struct emu_obj *c = emu_obj_get(r->ctx, UVERBS_OBJECT_COUNTERS,
					 (uint32_t)emu_attr_u64(r, UVERBS_ATTR_READ_COUNTERS_HANDLE, ~0u));
	struct ib_uverbs_attr *buf = emu_attr(r, UVERBS_ATTR_READ_COUNTERS_BUFF);
	uint64_t v[8] = { 0 };
	uint32_t n, max = 0;

	if (!c || !buf)
		return EINVAL;
	if (emu_attr_u64(r, UVERBS_ATTR_READ_COUNTERS_FLAGS, 0) & ~(uint64_t)IB_UVERBS_READ_COUNTERS_PREFER_CACHED)
		return EINVAL;
	if (!c->usecnt)
		return EINVAL;
	n = buf->len / sizeof(uint64_t);
	if (!n)
		return EINVAL;
	for (uint32_t i = 0; i < c->cqe; i++) {
		uint32_t index = (uint32_t)c->drv[i];

		if (index + 1 > max)
			max = index + 1;
		if (index < 8)
			v[index] += counted(c->drv[i] >> 32);
	}
	if (max > n)
		return EINVAL;
	return emu_attr_out(r, UVERBS_ATTR_READ_COUNTERS_BUFF, v, (n < 8 ? n : 8) * sizeof(uint64_t));
}

int emu_flow_ioctl(struct emu_req *r)
{
	uint16_t obj = r->hdr->object_id, meth = r->hdr->method_id;

	/* ... nor these objects (UAPI_DEF_OBJ_NEEDS_FN): no such method. */
	if (!r->dev->wq)
		return EPROTONOSUPPORT;
	if (obj == UVERBS_OBJECT_FLOW)
		return meth == UVERBS_METHOD_FLOW_DESTROY ?
			destroy_flow(r, (uint32_t)emu_attr_u64(r, UVERBS_ATTR_DESTROY_FLOW_HANDLE, ~0u)) :
			EPROTONOSUPPORT;
	switch (meth) {
	case UVERBS_METHOD_COUNTERS_CREATE: {
		struct ib_uverbs_attr *a = emu_attr(r, UVERBS_ATTR_CREATE_COUNTERS_HANDLE);
		struct emu_obj *c;
		uint32_t h;

		if (!a)
			return EINVAL;
		if (!r->dev->wq || !emu_req_drv(r)->create_flow)
			return EOPNOTSUPP;
		c = emu_obj_new(r->ctx, UVERBS_OBJECT_COUNTERS, &h);
		if (!c)
			return ENOMEM;
		a->data = h;
		return 0;
	}
	case UVERBS_METHOD_COUNTERS_DESTROY:
		return emu_obj_destroy(r, UVERBS_OBJECT_COUNTERS,
				       (uint32_t)emu_attr_u64(r, UVERBS_ATTR_DESTROY_COUNTERS_HANDLE, ~0u));
	case UVERBS_METHOD_COUNTERS_READ:
		return read_counters(r);
	}
	return EPROTONOSUPPORT;
}

char emu_flow_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr)
{
	if (obj == UVERBS_OBJECT_FLOW)
		return meth == UVERBS_METHOD_FLOW_DESTROY && attr == UVERBS_ATTR_DESTROY_FLOW_HANDLE ? 'h' : 0;
	switch (meth) {
	case UVERBS_METHOD_COUNTERS_CREATE:
		return attr == UVERBS_ATTR_CREATE_COUNTERS_HANDLE ? 'n' : 0;
	case UVERBS_METHOD_COUNTERS_DESTROY:
		return attr == UVERBS_ATTR_DESTROY_COUNTERS_HANDLE ? 'h' : 0;
	case UVERBS_METHOD_COUNTERS_READ:
		return attr == UVERBS_ATTR_READ_COUNTERS_HANDLE ? 'h' : attr == UVERBS_ATTR_READ_COUNTERS_BUFF ? 'o'
		       : attr == UVERBS_ATTR_READ_COUNTERS_FLAGS ? 'c' : 0;
	}
	return 0;
}
