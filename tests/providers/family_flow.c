/* The flow family of the provider lifecycle (lifecycle flow): a raw packet QP, counters
 * (ibv_create_counters, two counters attached for the flow to come with
 * ibv_attach_counters_point_flow, ibv_read_counters), two flows steering to the QP (ibv_create_flow:
 * Ethernet, IPv4 and TCP or UDP specs and the counters' action; the first binds the counters'
 * descriptions, the second shares them), and the kernel's refusals while they are in use (reading
 * counters no flow uses: EINVAL; destroying the counters or the QP under a flow: EBUSY). Every
 * result printed; a step that fails skips what needs it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "lifecycle.h"

struct flow_rule {
	struct ibv_flow_attr attr;
	struct ibv_flow_spec_eth eth;
	struct ibv_flow_spec_ipv4 ip;
	struct ibv_flow_spec_tcp_udp l4;
	struct ibv_flow_spec_counter_action count;
} __attribute__((packed));

/* The rule as the verb takes it: the attributes, the specs right after each other. */
union flow_buf {
	struct flow_rule rule;
	struct ibv_flow_attr attr;
};

static void rule(struct flow_rule *f, enum ibv_flow_spec_type l4, uint16_t port, struct ibv_counters *counters)
{
	memset(f, 0, sizeof(*f));
	f->attr = (struct ibv_flow_attr){
		.type = IBV_FLOW_ATTR_NORMAL, .size = sizeof(*f), .num_of_specs = 4, .port = 1,
	};
	f->eth = (struct ibv_flow_spec_eth){
		.type = IBV_FLOW_SPEC_ETH, .size = sizeof(f->eth),
		.val = { .dst_mac = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 }, .ether_type = htons(0x0800) },
		.mask = { .dst_mac = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, .ether_type = 0xffff },
	};
	f->ip = (struct ibv_flow_spec_ipv4){
		.type = IBV_FLOW_SPEC_IPV4, .size = sizeof(f->ip),
		.val = { .dst_ip = htonl(0x0a000001) }, .mask = { .dst_ip = 0xffffffff },
	};
	f->l4 = (struct ibv_flow_spec_tcp_udp){
		.type = l4, .size = sizeof(f->l4), .val = { .dst_port = htons(port) }, .mask = { .dst_port = 0xffff },
	};
	f->count = (struct ibv_flow_spec_counter_action){
		.type = IBV_FLOW_SPEC_ACTION_COUNT, .size = sizeof(f->count), .counters = counters,
	};
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

	errno = 0;
	pd = ibv_alloc_pd(ctx);
	made("alloc_pd", pd);
	errno = 0;
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	made("create_cq", cq);
	if (pd && cq) {
		struct ibv_qp_init_attr qa = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RAW_PACKET,
			.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1 },
		};

		errno = 0;
		qp = ibv_create_qp(pd, &qa);
		if (made("create_qp RAW_PACKET", qp))
			SHOW("qp_num=%#x state=%d", qp->qp_num, qp->state);
	} else {
		skip("create_qp RAW_PACKET");
	}

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
		rule(&f.rule, i ? IBV_FLOW_SPEC_UDP : IBV_FLOW_SPEC_TCP, i ? 4791 : 18515, counters);
		if (!counters) {
			f.attr.num_of_specs = 3;
			f.attr.size -= sizeof(f.rule.count);
		}
		errno = 0;
		flow[i] = ibv_create_flow(qp, &f.attr);
		made(step, flow[i]);
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
