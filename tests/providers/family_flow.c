/* The flow family of the provider lifecycle (lifecycle flow): a raw packet QP, counters
 * (ibv_create_counters, two counters attached for the flow to come with
 * ibv_attach_counters_point_flow, ibv_read_counters), two flows steering to the QP (ibv_create_flow:
 * Ethernet, IPv4 and TCP or UDP specs and the counters' action; the first binds the counters'
 * descriptions, the second shares them), two flows made and destroyed with every other spec the
 * library converts (IPv6, VXLAN with inner specs, extended IPv4, GRE, MPLS, ESP, tag, drop), one
 * with a spec type it does not know (refused before any command), and the kernel's refusals while
 * they are in use (reading counters no flow uses: EINVAL; destroying the counters or the QP under a
 * flow: EBUSY). Every result printed; a step that fails skips what needs it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "lifecycle.h"

/* A rule as the verb takes it: the attributes, then the specs right after each other. */
union flow_buf {
	struct ibv_flow_attr attr;
	uint8_t b[512];
};

static void begin(union flow_buf *f)
{
	memset(f, 0, sizeof(*f));
	f->attr.type = IBV_FLOW_ATTR_NORMAL;
	f->attr.size = sizeof(f->attr);
	f->attr.port = 1;
}

/* Append a spec (its type and size set here). */
static void add(union flow_buf *f, void *spec, enum ibv_flow_spec_type type, uint16_t size)
{
	struct ibv_flow_spec *h = spec;

	h->hdr.type = type;
	h->hdr.size = size;
	memcpy(f->b + f->attr.size, spec, size);
	f->attr.size += size;
	f->attr.num_of_specs++;
}

static void add_eth(union flow_buf *f, enum ibv_flow_spec_type type, uint16_t ether_type)
{
	struct ibv_flow_spec_eth e = {
		.val = { .dst_mac = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 }, .ether_type = htons(ether_type) },
		.mask = { .dst_mac = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, .ether_type = 0xffff },
	};

	add(f, &e, type, sizeof(e));
}

/* Ethernet, IPv4, TCP or UDP to a port, and the counters' action when there are counters. */
static void rule(union flow_buf *f, enum ibv_flow_spec_type l4, uint16_t port, struct ibv_counters *counters)
{
	struct ibv_flow_spec_ipv4 ip = { .val = { .dst_ip = htonl(0x0a000001) }, .mask = { .dst_ip = 0xffffffff } };
	struct ibv_flow_spec_tcp_udp t = { .val = { .dst_port = htons(port) }, .mask = { .dst_port = 0xffff } };
	struct ibv_flow_spec_counter_action c = { .counters = counters };

	begin(f);
	add_eth(f, IBV_FLOW_SPEC_ETH, 0x0800);
	add(f, &ip, IBV_FLOW_SPEC_IPV4, sizeof(ip));
	add(f, &t, l4, sizeof(t));
	if (counters)
		add(f, &c, IBV_FLOW_SPEC_ACTION_COUNT, sizeof(c));
}

/* The other specs the library converts: IPv6, UDP, a VXLAN tunnel with inner Ethernet and
 * extended IPv4, and a tag (tunnel); extended IPv4, GRE, MPLS, ESP and a drop (other). */
static void rule_tunnel(union flow_buf *f)
{
	struct ibv_flow_spec_ipv6 ip6 = { .val = { .dst_ip = { 0xfe, 0x80, [15] = 1 }, .next_hdr = 17 },
					   .mask = { .dst_ip = { 0xff, 0xff, [15] = 0xff }, .next_hdr = 0xff } };
	struct ibv_flow_spec_tcp_udp udp = { .val = { .dst_port = htons(4789) }, .mask = { .dst_port = 0xffff } };
	struct ibv_flow_spec_tunnel vx = { .val = { .tunnel_id = htonl(42) }, .mask = { .tunnel_id = 0xffffffff } };
	struct ibv_flow_spec_ipv4_ext ip = { .val = { .dst_ip = htonl(0x0a000002), .proto = 6, .tos = 4 },
					     .mask = { .dst_ip = 0xffffffff, .proto = 0xff, .tos = 0xff } };
	struct ibv_flow_spec_action_tag tag = { .tag_id = 0x1234 };

	begin(f);
	add_eth(f, IBV_FLOW_SPEC_ETH, 0x86dd);
	add(f, &ip6, IBV_FLOW_SPEC_IPV6, sizeof(ip6));
	add(f, &udp, IBV_FLOW_SPEC_UDP, sizeof(udp));
	add(f, &vx, IBV_FLOW_SPEC_VXLAN_TUNNEL, sizeof(vx));
	add_eth(f, IBV_FLOW_SPEC_ETH | IBV_FLOW_SPEC_INNER, 0x0800);
	add(f, &ip, IBV_FLOW_SPEC_IPV4_EXT | IBV_FLOW_SPEC_INNER, sizeof(ip));
	add(f, &tag, IBV_FLOW_SPEC_ACTION_TAG, sizeof(tag));
}

static void rule_other(union flow_buf *f)
{
	struct ibv_flow_spec_ipv4_ext ip = { .val = { .src_ip = htonl(0x0a000003), .proto = 47, .ttl = 64 },
					     .mask = { .src_ip = 0xffffffff, .proto = 0xff, .ttl = 0xff } };
	struct ibv_flow_spec_gre gre = { .val = { .protocol = htons(0x8847), .key = 7 },
					 .mask = { .protocol = 0xffff, .key = 0xffffffff } };
	struct ibv_flow_spec_mpls mpls = { .val = { .label = htonl(100 << 12) }, .mask = { .label = htonl(0xfffff000) } };
	struct ibv_flow_spec_esp esp = { .val = { .spi = htonl(0x100) }, .mask = { .spi = 0xffffffff } };
	struct ibv_flow_spec_action_drop drop = { 0 };

	begin(f);
	add_eth(f, IBV_FLOW_SPEC_ETH, 0x0800);
	add(f, &ip, IBV_FLOW_SPEC_IPV4_EXT, sizeof(ip));
	add(f, &gre, IBV_FLOW_SPEC_GRE, sizeof(gre));
	add(f, &mpls, IBV_FLOW_SPEC_MPLS, sizeof(mpls));
	add(f, &esp, IBV_FLOW_SPEC_ESP, sizeof(esp));
	add(f, &drop, IBV_FLOW_SPEC_ACTION_DROP, sizeof(drop));
}

static void read_values(struct ibv_counters *counters, const char *step)
{
	uint64_t v[2] = { 0 };
	int ret = ibv_read_counters(counters, v, 2, IBV_READ_COUNTERS_ATTR_PREFER_CACHED);

	result(step, ret);
	if (!ret)
		SHOW("packets=%llu bytes=%llu", (unsigned long long)v[0], (unsigned long long)v[1]);
}

void family_flow(struct ibv_context *ctx)
{
	struct ibv_counters_init_attr ca = { 0 };
	struct ibv_counters *counters = NULL;
	struct ibv_flow *flow[2] = { NULL };
	union flow_buf f;
	struct ibv_qp *qp = NULL;
	struct ibv_cq *cq;
	struct ibv_pd *pd;

	family_pd_cq(ctx, &pd, &cq);
	qp = family_qp(pd, cq, IBV_QPT_RAW_PACKET, "RAW_PACKET");
	if (qp)
		SHOW("qp_num=%#x state=%d", qp->qp_num, qp->state);

	errno = 0;
	counters = ibv_create_counters(ctx, &ca);
	if (made("create_counters", counters)) {
		struct ibv_counter_attach_attr aa = { .counter_desc = IBV_COUNTER_PACKETS, .index = 0 };

		result("attach_counters_point_flow packets", ibv_attach_counters_point_flow(counters, &aa, NULL));
		aa = (struct ibv_counter_attach_attr){ .counter_desc = IBV_COUNTER_BYTES, .index = 1 };
		result("attach_counters_point_flow bytes", ibv_attach_counters_point_flow(counters, &aa, NULL));
		read_values(counters, "read_counters (no flow)");
	}

	for (int i = 0; i < 2; i++) {
		const char *step = i ? "create_flow 2 (UDP)" : "create_flow (TCP)";

		if (!qp) {
			skip(step);
			continue;
		}
		rule(&f, i ? IBV_FLOW_SPEC_UDP : IBV_FLOW_SPEC_TCP, i ? 4791 : 18515, counters);
		errno = 0;
		flow[i] = ibv_create_flow(qp, &f.attr);
		made(step, flow[i]);
	}
	if (qp) {
		struct ibv_flow *other;
		struct { uint32_t type; uint16_t size; } bad = { 0 };

		rule_tunnel(&f);
		errno = 0;
		other = ibv_create_flow(qp, &f.attr);
		if (made("create_flow (VXLAN, tag)", other))
			result("destroy_flow (VXLAN, tag)", ibv_destroy_flow(other));
		rule_other(&f);
		errno = 0;
		other = ibv_create_flow(qp, &f.attr);
		if (made("create_flow (GRE, MPLS, ESP, drop)", other))
			result("destroy_flow (GRE, MPLS, ESP, drop)", ibv_destroy_flow(other));
		/* A spec type the library does not know: refused before any command. */
		begin(&f);
		add(&f, &bad, 0x999, sizeof(bad));
		errno = 0;
		other = ibv_create_flow(qp, &f.attr);
		if (made("create_flow (unknown spec)", other))
			result("destroy_flow (unknown spec)", ibv_destroy_flow(other));
	}
	if (counters && (flow[0] || flow[1])) {
		int ret;

		read_values(counters, "read_counters");
		ret = ibv_destroy_counters(counters);
		result("destroy_counters (in use)", ret);
		if (!ret)
			counters = NULL;
	}
	if (qp && (flow[0] || flow[1])) {
		int ret = ibv_destroy_qp(qp);

		result("destroy_qp (flows on it)", ret);
		if (!ret)
			qp = NULL;
	}
	for (int i = 0; i < 2; i++)
		if (flow[i])
			result(i ? "destroy_flow 2" : "destroy_flow", ibv_destroy_flow(flow[i]));
	if (counters)
		result("destroy_counters", ibv_destroy_counters(counters));
	if (qp)
		result("destroy_qp", ibv_destroy_qp(qp));
	if (cq)
		result("destroy_cq", ibv_destroy_cq(cq));
	if (pd)
		result("dealloc_pd", ibv_dealloc_pd(pd));
}
