/* Shared receive queues, work queues, RSS indirection tables, flows and the other objects rxe0
 * lacks (tests/vm/checks.txt runs this under the system libibverbs and under ours; the output must
 * be identical).
 *
 * SRQ: create (basic, through ibv_create_srq and ibv_create_srq_ex, with bad sizes and types),
 * query, modify (limit, max_wr, bad masks and limits), receives through the SRQ, destroy ordering.
 * rxe has no WQs, indirection tables, flows, flow actions, counters or XRC domains: those print
 * the errno of the failure. errno is printed only after a failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;

static const char *en(int e)
{
	const char *s = e ? strerrorname_np(e) : "0";

	return s ? s : "?";
}

static void rc(const char *what, int ret, int err)
{
	if (ret)
		printf("%-44s ret %d (%s) errno %s\n", what, ret, ret > 0 ? en(ret) : "-", en(err));
	else
		printf("%-44s ret 0\n", what);
}

#define RC(what, call) do { errno = 0; int r_ = (call); rc(what, r_, errno); } while (0)
#define PTR(what, call) ({ errno = 0; void *p_ = (call); \
	if (p_) printf("%-44s ok\n", what); else printf("%-44s NULL errno %s\n", what, en(errno)); \
	p_; })

static void die(const char *what)
{
	printf("setup: %s failed: errno %s\n", what, en(errno));
	exit(1);
}

static struct ibv_srq *mksrq(const char *name, uint32_t wr, uint32_t sge, uint32_t limit)
{
	struct ibv_srq_init_attr a = { .srq_context = (void *)0x5678,
				       .attr = { .max_wr = wr, .max_sge = sge, .srq_limit = limit } };
	struct ibv_srq *srq;

	errno = 0;
	srq = ibv_create_srq(pd, &a);
	if (!srq) {
		printf("%-44s NULL errno %s\n", name, en(errno));
		return NULL;
	}
	printf("%-44s ok context %d pd %d srq_context %d events %u attr %u/%u/%u\n", name,
	       srq->context == ctx, srq->pd == pd, srq->srq_context == (void *)0x5678,
	       srq->events_completed, a.attr.max_wr, a.attr.max_sge, a.attr.srq_limit);
	return srq;
}

static struct ibv_srq *mksrq_ex(const char *name, uint32_t comp_mask, enum ibv_srq_type t)
{
	struct ibv_srq_init_attr_ex a = {
		.srq_context = (void *)0x5678, .attr = { .max_wr = 8, .max_sge = 1 },
		.comp_mask = comp_mask, .srq_type = t, .pd = pd, .cq = cq,
		.tm_cap = { .max_num_tags = 4, .max_ops = 4 },
	};
	struct ibv_srq *srq;

	errno = 0;
	srq = ibv_create_srq_ex(ctx, &a);
	if (!srq) {
		printf("%-44s NULL errno %s\n", name, en(errno));
		return NULL;
	}
	/* srq->pd is not printed: rdma-core 44's ibv_cmd_create_srq_ex leaves it NULL when the
	 * provider is called directly (mask beyond PD|TYPE); v65, and ours, set it. */
	printf("%-44s ok context %d srq_context %d attr %u/%u/%u\n", name,
	       srq->context == ctx, srq->srq_context == (void *)0x5678,
	       a.attr.max_wr, a.attr.max_sge, a.attr.srq_limit);
	return srq;
}

/* A create that is expected to fail; destroyed again if it does not. */
static void try_srq(const char *name, uint32_t wr, uint32_t sge, uint32_t limit)
{
	struct ibv_srq *s = mksrq(name, wr, sge, limit);

	if (s)
		RC("  destroy_srq", ibv_destroy_srq(s));
}

static void try_srq_ex(const char *name, uint32_t comp_mask, enum ibv_srq_type t)
{
	struct ibv_srq *s = mksrq_ex(name, comp_mask, t);

	if (s)
		RC("  destroy_srq", ibv_destroy_srq(s));
}

static void query(const char *name, struct ibv_srq *srq)
{
	struct ibv_srq_attr a;
	int ret;

	memset(&a, 0xee, sizeof(a));
	errno = 0;
	ret = ibv_query_srq(srq, &a);
	if (ret)
		rc(name, ret, errno);
	else
		printf("%-44s ret 0 max_wr %u max_sge %u limit %u\n", name, a.max_wr, a.max_sge,
		       a.srq_limit);
}

static void modify(const char *name, struct ibv_srq *srq, uint32_t wr, uint32_t limit, int mask)
{
	struct ibv_srq_attr a = { .max_wr = wr, .max_sge = 1, .srq_limit = limit };

	RC(name, ibv_modify_srq(srq, &a, mask));
}

static void srq_traffic(struct ibv_srq *srq)
{
	static char buf[4096];
	struct ibv_qp_init_attr qa = { .send_cq = cq, .recv_cq = cq, .srq = srq, .qp_type = IBV_QPT_UD,
				       .cap = { .max_send_wr = 4, .max_send_sge = 1 }, .sq_sig_all = 1 };
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = 0x22 };
	struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1, .grh = { .sgid_index = 1, .hop_limit = 64 } };
	struct ibv_sge sge[2];
	struct ibv_recv_wr rwr[3], *bad = NULL;
	struct ibv_send_wr swr, *sbad = NULL;
	struct ibv_wc wc[4];
	struct ibv_qp *qp;
	struct ibv_ah *ah;
	struct ibv_mr *mr;
	int n = 0;

	qp = PTR("traffic: create UD QP on the SRQ", ibv_create_qp(pd, &qa));
	mr = PTR("traffic: reg_mr", ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE));
	if (!qp || !mr)
		return;
	RC("traffic: ->INIT", ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY));
	a.qp_state = IBV_QPS_RTR;
	RC("traffic: ->RTR", ibv_modify_qp(qp, &a, IBV_QP_STATE));
	a.qp_state = IBV_QPS_RTS;
	RC("traffic: ->RTS", ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN));
	ibv_query_gid(ctx, 1, 1, &aa.grh.dgid);
	ah = PTR("traffic: create_ah to self", ibv_create_ah(pd, &aa));
	sge[0] = (struct ibv_sge){ .addr = (uintptr_t)buf + 1024, .length = 1024, .lkey = mr->lkey };
	sge[1] = (struct ibv_sge){ .addr = (uintptr_t)buf + 2048, .length = 1024, .lkey = mr->lkey };
	for (int i = 0; i < 3; i++)
		rwr[i] = (struct ibv_recv_wr){ .wr_id = 10 + i, .sg_list = &sge[i & 1], .num_sge = 1,
					       .next = i < 2 ? &rwr[i + 1] : NULL };
	RC("traffic: post_srq_recv x3", ibv_post_srq_recv(srq, rwr, &bad));
	rwr[0] = (struct ibv_recv_wr){ .wr_id = 20, .sg_list = sge, .num_sge = 2 };
	bad = NULL;
	RC("traffic: post_srq_recv 2 SGEs (max_sge 1)", ibv_post_srq_recv(srq, rwr, &bad));
	printf("%-44s %s\n", "", bad == rwr ? "bad_wr = the WR" : bad ? "bad_wr other" : "bad_wr NULL");
	memcpy(buf, "through the SRQ", 16);
	sge[0] = (struct ibv_sge){ .addr = (uintptr_t)buf, .length = 16, .lkey = mr->lkey };
	swr = (struct ibv_send_wr){ .wr_id = 1, .sg_list = sge, .num_sge = 1, .opcode = IBV_WR_SEND,
				    .wr.ud = { .ah = ah, .remote_qpn = qp->qp_num, .remote_qkey = 0x22 } };
	if (ah)
		RC("traffic: post_send to self", ibv_post_send(qp, &swr, &sbad));
	for (int i = 0; i < 2000 && n < 2; i++) {
		int k = ibv_poll_cq(cq, 4 - n, wc + n);

		if (k < 0)
			break;
		n += k;
		if (n < 2)
			usleep(1000);
	}
	for (int i = 0; i < n; i++)
		printf("%-44s status %s opcode %d wr_id %llu len %u\n", "traffic: completion",
		       ibv_wc_status_str(wc[i].status), wc[i].opcode,
		       (unsigned long long)wc[i].wr_id,
		       wc[i].opcode == IBV_WC_RECV ? wc[i].byte_len : 0);
	if (ah)
		RC("traffic: destroy_ah", ibv_destroy_ah(ah));
	RC("traffic: destroy_srq with the QP on it", ibv_destroy_srq(srq));
	RC("traffic: destroy_qp", ibv_destroy_qp(qp));
	RC("traffic: dereg_mr", ibv_dereg_mr(mr));
}

int main(void)
{
	struct ibv_device **list;
	struct ibv_srq *srq, *s;
	int n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	list = ibv_get_device_list(&n);
	if (!list)
		die("ibv_get_device_list");
	for (int i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "rxe0"))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!ctx)
		die("open rxe0");
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	if (!cq)
		die("ibv_create_cq");

	printf("== SRQ\n");
	srq = mksrq("create_srq 16/1/0", 16, 1, 0);
	if (!srq)
		die("create_srq");
	s = mksrq("create_srq 5/2/0", 5, 2, 0);
	if (s)
		RC("destroy_srq", ibv_destroy_srq(s));
	try_srq("create_srq max_wr 0", 0, 1, 0);
	try_srq("create_srq max_wr 1<<30", 1u << 30, 1, 0);
	try_srq("create_srq max_sge 1<<20", 16, 1u << 20, 0);
	try_srq("create_srq limit > max_wr", 16, 1, 100);
	query("query_srq", srq);
	modify("modify_srq LIMIT 4", srq, 0, 4, IBV_SRQ_LIMIT);
	query("query_srq", srq);
	modify("modify_srq LIMIT 100 (> max_wr)", srq, 0, 100, IBV_SRQ_LIMIT);
	modify("modify_srq MAX_WR 32", srq, 32, 0, IBV_SRQ_MAX_WR);
	query("query_srq", srq);
	modify("modify_srq MAX_WR 1<<30", srq, 1u << 30, 0, IBV_SRQ_MAX_WR);
	modify("modify_srq mask 0", srq, 0, 0, 0);
	modify("modify_srq mask 0x80", srq, 0, 0, 0x80);
	modify("modify_srq MAX_WR|LIMIT 64/8", srq, 64, 8, IBV_SRQ_MAX_WR | IBV_SRQ_LIMIT);
	query("query_srq", srq);
	{
		uint32_t num = 0xeeeeeeee;

		RC("get_srq_num", ibv_get_srq_num(srq, &num));
	}

	printf("== create_srq_ex\n");
	s = mksrq_ex("create_srq_ex PD (basic)", IBV_SRQ_INIT_ATTR_PD, IBV_SRQT_BASIC);
	if (s)
		RC("destroy_srq", ibv_destroy_srq(s));
	s = mksrq_ex("create_srq_ex PD|TYPE basic|CQ", IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE |
		     IBV_SRQ_INIT_ATTR_CQ, IBV_SRQT_BASIC);
	if (s)
		RC("destroy_srq", ibv_destroy_srq(s));
	try_srq_ex("create_srq_ex XRC without XRCD", IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE |
		 IBV_SRQ_INIT_ATTR_CQ, IBV_SRQT_XRC);
	try_srq_ex("create_srq_ex TM without TM cap", IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE |
		 IBV_SRQ_INIT_ATTR_CQ, IBV_SRQT_TM);
	try_srq_ex("create_srq_ex TM", IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE |
		 IBV_SRQ_INIT_ATTR_CQ | IBV_SRQ_INIT_ATTR_TM, IBV_SRQT_TM);
	try_srq_ex("create_srq_ex without PD", IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_CQ,
		 IBV_SRQT_BASIC);
	try_srq_ex("create_srq_ex unknown comp_mask bit", IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_CQ |
		 (1u << 20), IBV_SRQT_BASIC);
	try_srq_ex("create_srq_ex type 7", IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE |
		 IBV_SRQ_INIT_ATTR_CQ, 7);

	printf("== SRQ traffic\n");
	srq_traffic(srq);
	RC("destroy_srq", ibv_destroy_srq(srq));

	printf("== objects rxe lacks\n");
	{
		struct ibv_wq_init_attr wa = { .wq_type = IBV_WQT_RQ, .max_wr = 16, .max_sge = 1,
					       .pd = pd, .cq = cq };
		struct ibv_wq *wqs[1] = { NULL };
		struct ibv_rwq_ind_table_init_attr ia = { .log_ind_tbl_size = 0, .ind_tbl = wqs };
		struct {
			struct ibv_flow_attr attr;
			struct ibv_flow_spec_eth eth;
		} fa = {
			.attr = { .type = IBV_FLOW_ATTR_NORMAL, .size = sizeof(fa), .num_of_specs = 1,
				  .port = 1 },
			.eth = { .type = IBV_FLOW_SPEC_ETH, .size = sizeof(struct ibv_flow_spec_eth),
				 .val.dst_mac = { 2, 0, 0, 0, 0, 1 },
				 .mask.dst_mac = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff } },
		};
		struct ibv_flow_action_esp_attr ea = { .esp_attr = NULL };
		struct ibv_counters_init_attr ca = { .comp_mask = 0 };
		struct ibv_xrcd_init_attr xa = { .comp_mask = IBV_XRCD_INIT_ATTR_FD |
						 IBV_XRCD_INIT_ATTR_OFLAGS, .fd = -1, .oflags = 0 };
		struct ibv_qp_open_attr oa = { .comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_TYPE,
					       .qp_num = 1, .qp_type = IBV_QPT_XRC_RECV };
		struct ibv_qp_init_attr qa = { .send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_UD,
					       .cap = { .max_send_wr = 1, .max_recv_wr = 1,
							.max_send_sge = 1, .max_recv_sge = 1 } };
		struct ibv_qp *qp = PTR("create_qp UD for the flow", ibv_create_qp(pd, &qa));

		wqs[0] = PTR("create_wq", ibv_create_wq(ctx, &wa));
		PTR("create_rwq_ind_table", ibv_create_rwq_ind_table(ctx, &ia));
		if (qp) {
			PTR("create_flow", ibv_create_flow(qp, &fa.attr));
			RC("destroy_qp", ibv_destroy_qp(qp));
		}
		PTR("create_flow_action_esp", ibv_create_flow_action_esp(ctx, &ea));
		PTR("create_counters", ibv_create_counters(ctx, &ca));
		PTR("open_xrcd", ibv_open_xrcd(ctx, &xa));
		PTR("open_qp", ibv_open_qp(ctx, &oa));
	}

	RC("destroy_cq", ibv_destroy_cq(cq));
	RC("dealloc_pd", ibv_dealloc_pd(pd));
	RC("close_device", ibv_close_device(ctx));
	return 0;
}
