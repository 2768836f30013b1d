/* Queue pairs on rxe0 (tests/vm/checks.txt runs this under the system libibverbs and under
 * ours; the output must be identical).
 *
 * Creates RC, UC and UD QPs (with and without an SRQ, through ibv_create_qp and
 * ibv_create_qp_ex), walks them RESET -> INIT -> RTR -> RTS with correct, missing and bad attribute
 * masks, queries them, moves one message over a loopback RC pair, and checks destroy ordering
 * (a CQ, PD or SRQ in use by a QP is EBUSY), ECE, ibv_qp_to_qp_ex and
 * ibv_query_qp_data_in_order. Prints return values, errno names, states, flags and sizes; never
 * pointers, handles, QP numbers or keys (only whether they are what they should be). A QP
 * attached to a multicast group cannot be destroyed until detached (EBUSY). errno is
 * printed only after a failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq, *cq2;
static union ibv_gid gid;

static const char *en(int e)
{
	const char *s = e ? strerrorname_np(e) : "0";

	return s ? s : "?";
}

/* An int-returning verb: its value, and errno after a failure. */
static void rc(const char *what, int ret, int err)
{
	if (ret)
		printf("%-44s ret %d (%s) errno %s\n", what, ret, ret > 0 ? en(ret) : "-", en(err));
	else
		printf("%-44s ret 0\n", what);
}

#define RC(what, call) do { errno = 0; int r_ = (call); rc(what, r_, errno); } while (0)

static void die(const char *what)
{
	printf("setup: %s failed: errno %s\n", what, en(errno));
	exit(1);
}

static void show_qp(const char *name, struct ibv_qp *qp, struct ibv_srq *srq, struct ibv_cq *c,
		    const struct ibv_qp_cap *cap)
{
	printf("%-44s ok type %d state %d qpn %s context %d pd %d cqs %d/%d srq %d qp_context %d "
	       "cap %u/%u/%u/%u/%u\n", name, qp->qp_type, qp->state, qp->qp_num ? "set" : "0",
	       qp->context == ctx, qp->pd == pd, qp->send_cq == c, qp->recv_cq == c, qp->srq == srq,
	       qp->qp_context == (void *)0x1234, cap->max_send_wr, cap->max_recv_wr,
	       cap->max_send_sge, cap->max_recv_sge, cap->max_inline_data);
}

static struct ibv_qp *mkqp(const char *name, enum ibv_qp_type t, struct ibv_cq *c,
			   struct ibv_srq *srq, uint32_t swr, uint32_t rwr, uint32_t inl)
{
	struct ibv_qp_init_attr a = {
		.qp_context = (void *)0x1234, .send_cq = c, .recv_cq = c, .srq = srq,
		.cap = { .max_send_wr = swr, .max_recv_wr = rwr, .max_send_sge = 1,
			 .max_recv_sge = 1, .max_inline_data = inl },
		.qp_type = t, .sq_sig_all = 1,
	};
	struct ibv_qp *qp;

	errno = 0;
	qp = ibv_create_qp(pd, &a);
	if (!qp) {
		printf("%-44s NULL errno %s\n", name, en(errno));
		return NULL;
	}
	show_qp(name, qp, srq, c, &a.cap);
	return qp;
}

static struct ibv_qp *mkqp_ex(const char *name, uint32_t comp_mask, uint64_t ops, uint32_t flags)
{
	struct ibv_qp_init_attr_ex a = {
		.qp_context = (void *)0x1234, .send_cq = cq, .recv_cq = cq,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC, .comp_mask = comp_mask, .pd = pd, .send_ops_flags = ops,
		.create_flags = flags,
	};
	struct ibv_qp *qp;

	errno = 0;
	qp = ibv_create_qp_ex(ctx, &a);
	if (!qp) {
		printf("%-44s NULL errno %s\n", name, en(errno));
		return NULL;
	}
	show_qp(name, qp, NULL, cq, &a.cap);
	return qp;
}

static void query(const char *name, struct ibv_qp *qp, int mask)
{
	struct ibv_qp_attr a;
	struct ibv_qp_init_attr ia;
	int ret;

	memset(&a, 0xee, sizeof(a));
	memset(&ia, 0xee, sizeof(ia));
	errno = 0;
	ret = ibv_query_qp(qp, &a, mask, &ia);
	if (ret) {
		rc(name, ret, errno);
		return;
	}
	printf("%-44s ret 0 state %d cur %d mtu %d mig %d qkey %#x rq_psn %u sq_psn %u dest %s "
	       "access %#x pkey %u port %u\n", name, a.qp_state, a.cur_qp_state, a.path_mtu,
	       a.path_mig_state, a.qkey, a.rq_psn, a.sq_psn,
	       a.dest_qp_num == qp->qp_num ? "self" : a.dest_qp_num ? "other" : "0",
	       a.qp_access_flags, a.pkey_index, a.port_num);
	printf("%-44s   rd_atomic %u/%u rnr %u/%u timeout %u retry %u draining %u cap %u/%u/%u/%u/%u "
	       "ah global %u sgid %u hop %u sl %u port %u dgid %s\n", "", a.max_rd_atomic,
	       a.max_dest_rd_atomic, a.min_rnr_timer, a.rnr_retry, a.timeout, a.retry_cnt,
	       a.sq_draining, a.cap.max_send_wr, a.cap.max_recv_wr, a.cap.max_send_sge,
	       a.cap.max_recv_sge, a.cap.max_inline_data, a.ah_attr.is_global,
	       a.ah_attr.grh.sgid_index, a.ah_attr.grh.hop_limit, a.ah_attr.sl, a.ah_attr.port_num,
	       memcmp(&a.ah_attr.grh.dgid, &gid, 16) ? "other" : "own");
	printf("%-44s   init type %d sig_all %d qp_context %d cqs %d/%d srq %d cap %u/%u/%u/%u/%u "
	       "qp->state %d\n", "", ia.qp_type, ia.sq_sig_all, ia.qp_context == (void *)0x1234,
	       ia.send_cq == qp->send_cq, ia.recv_cq == qp->recv_cq, ia.srq == qp->srq,
	       ia.cap.max_send_wr, ia.cap.max_recv_wr, ia.cap.max_send_sge, ia.cap.max_recv_sge,
	       ia.cap.max_inline_data, qp->state);
}

static int modify(const char *name, struct ibv_qp *qp, struct ibv_qp_attr *a, int mask)
{
	int ret;

	errno = 0;
	ret = ibv_modify_qp(qp, a, mask);
	rc(name, ret, errno);
	printf("%-44s   qp->state %d\n", "", qp->state);
	return ret;
}

static void to_init(const char *name, struct ibv_qp *qp, int mask)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .pkey_index = 0, .port_num = 1,
				 .qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ,
				 .qkey = 0x11111111 };

	modify(name, qp, &a, mask);
}

static void to_rtr(const char *name, struct ibv_qp *qp, uint32_t dest, int mask)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_RTR, .path_mtu = IBV_MTU_1024, .dest_qp_num = dest,
		.rq_psn = 100, .max_dest_rd_atomic = 1, .min_rnr_timer = 12,
		.ah_attr = { .is_global = 1, .port_num = 1, .sl = 0,
			     .grh = { .dgid = gid, .sgid_index = 1, .hop_limit = 64 } },
	};

	modify(name, qp, &a, mask);
}

static void to_rts(const char *name, struct ibv_qp *qp, int mask)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTS, .timeout = 14, .retry_cnt = 7,
				 .rnr_retry = 7, .sq_psn = 100, .max_rd_atomic = 1 };

	modify(name, qp, &a, mask);
}

static void to_state(const char *name, struct ibv_qp *qp, enum ibv_qp_state s)
{
	struct ibv_qp_attr a = { .qp_state = s };

	modify(name, qp, &a, IBV_QP_STATE);
}

enum {
	INIT_RC = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS,
	INIT_UD = IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY,
	RTR_RC = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
		 IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER,
	RTR_UC = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN,
	RTS_RC = IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
		 IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC,
	RTS_UC = IBV_QP_STATE | IBV_QP_SQ_PSN,
	QUERY_ALL = (IBV_QP_RATE_LIMIT - 1) & ~IBV_QP_EN_SQD_ASYNC_NOTIFY,
};

static int poll_one(struct ibv_cq *c, struct ibv_wc *wc)
{
	for (int i = 0; i < 2000; i++) {
		int n = ibv_poll_cq(c, 1, wc);

		if (n)
			return n;
		usleep(1000);
	}
	return 0;
}

/* One SEND from a to b over a connected RC pair through a registered buffer. */
static void transfer(struct ibv_qp *a, struct ibv_qp *b)
{
	static char buf[8192];
	struct ibv_mr *mr;
	struct ibv_sge s_sge, r_sge;
	struct ibv_recv_wr rwr = { .wr_id = 2, .sg_list = &r_sge, .num_sge = 1 }, *bad_r = NULL;
	struct ibv_send_wr swr = { .wr_id = 1, .sg_list = &s_sge, .num_sge = 1,
				   .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED }, *bad_s = NULL;
	struct ibv_wc wc;
	int n;

	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	if (!mr) {
		printf("transfer: reg_mr NULL errno %s\n", en(errno));
		return;
	}
	strcpy(buf, "hello over rxe");
	memset(buf + 4096, 0, 64);
	s_sge = (struct ibv_sge){ .addr = (uintptr_t)buf, .length = 64, .lkey = mr->lkey };
	r_sge = (struct ibv_sge){ .addr = (uintptr_t)buf + 4096, .length = 64, .lkey = mr->lkey };
	RC("transfer: post_recv", ibv_post_recv(b, &rwr, &bad_r));
	RC("transfer: post_send", ibv_post_send(a, &swr, &bad_s));
	n = poll_one(cq, &wc);
	printf("%-44s n %d status %s opcode %d wr_id %llu\n", "transfer: send completion", n,
	       n ? ibv_wc_status_str(wc.status) : "-", n ? wc.opcode : -1,
	       n ? (unsigned long long)wc.wr_id : 0ULL);
	n = poll_one(cq2, &wc);
	printf("%-44s n %d status %s opcode %d wr_id %llu len %u qp %s data \"%s\"\n",
	       "transfer: recv completion", n, n ? ibv_wc_status_str(wc.status) : "-",
	       n ? wc.opcode : -1, n ? (unsigned long long)wc.wr_id : 0ULL, n ? wc.byte_len : 0,
	       n && wc.qp_num == b->qp_num ? "b" : "?", buf + 4096);
	RC("transfer: dereg_mr", ibv_dereg_mr(mr));
}

int main(void)
{
	struct ibv_device **list;
	struct ibv_qp *rc_a, *rc_b, *uc, *ud, *rc_srq, *qx, *q;
	struct ibv_srq *srq;
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 16, .max_sge = 1 } };
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
	if (ibv_query_gid(ctx, 1, 1, &gid))
		die("ibv_query_gid");
	pd = ibv_alloc_pd(ctx);
	if (!pd)
		die("ibv_alloc_pd");
	cq = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	cq2 = ibv_create_cq(ctx, 64, NULL, NULL, 0);
	if (!cq || !cq2)
		die("ibv_create_cq");
	srq = ibv_create_srq(pd, &sa);
	if (!srq)
		die("ibv_create_srq");

	printf("== create\n");
	rc_a = mkqp("create_qp RC", IBV_QPT_RC, cq, NULL, 16, 16, 0);
	rc_b = mkqp("create_qp RC (peer, own CQ)", IBV_QPT_RC, cq2, NULL, 16, 16, 0);
	uc = mkqp("create_qp UC inline 64", IBV_QPT_UC, cq, NULL, 8, 8, 64);
	ud = mkqp("create_qp UD", IBV_QPT_UD, cq, NULL, 8, 8, 0);
	rc_srq = mkqp("create_qp RC with SRQ", IBV_QPT_RC, cq, srq, 8, 0, 0);
	q = mkqp("create_qp UD with SRQ", IBV_QPT_UD, cq, srq, 8, 0, 0);
	if (q)
		RC("destroy_qp UD with SRQ", ibv_destroy_qp(q));
	mkqp("create_qp bad type 99", 99, cq, NULL, 8, 8, 0);
	mkqp("create_qp XRC_SEND (unsupported)", IBV_QPT_XRC_SEND, cq, NULL, 8, 8, 0);
	mkqp("create_qp max_send_wr 1<<30", IBV_QPT_RC, cq, NULL, 1u << 30, 8, 0);
	mkqp("create_qp max_recv_wr 1<<30", IBV_QPT_RC, cq, NULL, 8, 1u << 30, 0);
	mkqp("create_qp max_inline 1<<20", IBV_QPT_RC, cq, NULL, 8, 8, 1u << 20);
	if (!rc_a || !rc_b || !uc || !ud || !rc_srq)
		die("create_qp");

	printf("== create_qp_ex and qp_to_qp_ex\n");
	qx = mkqp_ex("create_qp_ex PD|SEND_OPS_FLAGS",
		     IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		     IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE, 0);
	if (qx) {
		struct ibv_qp_ex *x = ibv_qp_to_qp_ex(qx);

		printf("%-44s %s\n", "qp_to_qp_ex (extended QP)",
		       !x ? "NULL" : (void *)x == (void *)qx ? "the QP itself" : "other");
		RC("destroy_qp (extended)", ibv_destroy_qp(qx));
	}
	printf("%-44s %s\n", "qp_to_qp_ex (ibv_create_qp QP)",
	       ibv_qp_to_qp_ex(rc_a) ? "non-NULL" : "NULL");
	q = mkqp_ex("create_qp_ex PD only", IBV_QP_INIT_ATTR_PD, 0, 0);
	if (q)
		RC("destroy_qp", ibv_destroy_qp(q));
	mkqp_ex("create_qp_ex without PD", IBV_QP_INIT_ATTR_SEND_OPS_FLAGS, IBV_QP_EX_WITH_SEND, 0);
	mkqp_ex("create_qp_ex unknown create flag",
		IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_CREATE_FLAGS, 0, 1u << 30);
	mkqp_ex("create_qp_ex unknown comp_mask bit", IBV_QP_INIT_ATTR_PD | (1u << 20), 0, 0);

	printf("== RC: RESET -> INIT -> RTR -> RTS\n");
	query("query_qp RC fresh (all)", rc_a, QUERY_ALL);
	to_init("modify RC ->INIT without PORT", rc_a, INIT_RC & ~IBV_QP_PORT);
	to_init("modify RC ->INIT with QKEY (not for RC)", rc_a, INIT_RC | IBV_QP_QKEY);
	to_rts("modify RC RESET->RTS", rc_a, RTS_RC);
	to_init("modify RC ->INIT", rc_a, INIT_RC);
	to_init("modify RC ->INIT", rc_b, INIT_RC);
	query("query_qp RC INIT (STATE|PORT)", rc_a, IBV_QP_STATE | IBV_QP_PORT);
	to_rtr("modify RC ->RTR without AV", rc_a, rc_b->qp_num, RTR_RC & ~IBV_QP_AV);
	to_rtr("modify RC ->RTR without DEST_QPN", rc_a, rc_b->qp_num, RTR_RC & ~IBV_QP_DEST_QPN);
	to_rtr("modify RC ->RTR", rc_a, rc_b->qp_num, RTR_RC);
	to_rtr("modify RC ->RTR (peer)", rc_b, rc_a->qp_num, RTR_RC);
	to_rts("modify RC ->RTS without SQ_PSN", rc_a, RTS_RC & ~IBV_QP_SQ_PSN);
	to_rts("modify RC ->RTS", rc_a, RTS_RC);
	to_rts("modify RC ->RTS (peer)", rc_b, RTS_RC);
	to_rts("modify RC RTS->RTS again", rc_a, RTS_RC);
	{
		struct ibv_qp_attr a = { .qp_state = IBV_QPS_RTS, .rate_limit = 1000 };

		modify("modify RC with RATE_LIMIT", rc_a, &a, IBV_QP_STATE | IBV_QP_RATE_LIMIT);
		modify("modify RC with mask bit 30", rc_a, &a, IBV_QP_STATE | (1 << 30));
		modify("modify RC with mask 0", rc_a, &a, 0);
		a.qp_state = 42;
		modify("modify RC to state 42", rc_a, &a, IBV_QP_STATE);
	}
	query("query_qp RC RTS (all)", rc_a, QUERY_ALL);
	query("query_qp RC with RATE_LIMIT", rc_a, IBV_QP_STATE | IBV_QP_RATE_LIMIT);
	query("query_qp RC mask 0", rc_a, 0);
	rc_a->state = IBV_QPS_SQE;
	query("query_qp RC (qp->state forged SQE) STATE", rc_a, IBV_QP_STATE);
	rc_a->state = IBV_QPS_SQE;
	query("query_qp RC (qp->state forged SQE) PORT", rc_a, IBV_QP_PORT);
	rc_a->state = IBV_QPS_RTS;
	transfer(rc_a, rc_b);

	printf("== UC and UD\n");
	to_init("modify UC ->INIT", uc, INIT_RC);
	to_rtr("modify UC ->RTR with RC attrs", uc, rc_b->qp_num, RTR_RC);
	to_rtr("modify UC ->RTR", uc, rc_b->qp_num, RTR_UC);
	to_rts("modify UC ->RTS with RC attrs", uc, RTS_RC);
	to_rts("modify UC ->RTS", uc, RTS_UC);
	query("query_qp UC (all)", uc, QUERY_ALL);
	to_init("modify UD ->INIT with ACCESS_FLAGS", ud, INIT_UD | IBV_QP_ACCESS_FLAGS);
	to_init("modify UD ->INIT", ud, INIT_UD);
	to_state("modify UD ->RTR", ud, IBV_QPS_RTR);
	to_rts("modify UD ->RTS", ud, RTS_UC);
	query("query_qp UD (all)", ud, QUERY_ALL);
	query("query_qp RC with SRQ (all)", rc_srq, QUERY_ALL);

	printf("== ERR and RESET\n");
	to_state("modify RC ->ERR", rc_b, IBV_QPS_ERR);
	to_state("modify RC ERR->RTS", rc_b, IBV_QPS_RTS);
	to_state("modify RC ->RESET", rc_b, IBV_QPS_RESET);
	to_init("modify RC RESET->INIT again", rc_b, INIT_RC);
	query("query_qp RC after reset (STATE)", rc_b, IBV_QP_STATE);
	to_state("modify UD ->SQD", ud, IBV_QPS_SQD);
	query("query_qp UD after SQD (STATE)", ud, IBV_QP_STATE);

	printf("== ECE and data-in-order\n");
	{
		struct ibv_ece ece;
		int ret;

		memset(&ece, 0xee, sizeof(ece));
		errno = 0;
		ret = ibv_query_ece(rc_a, &ece);
		rc("query_ece", ret, errno);
		printf("%-44s   ece %#x/%#x/%#x\n", "", ece.vendor_id, ece.options, ece.comp_mask);
		ece = (struct ibv_ece){ .vendor_id = 0, .options = 1 };
		RC("set_ece vendor_id 0", ibv_set_ece(rc_a, &ece));
		ece = (struct ibv_ece){ .vendor_id = 0x15b3, .options = 1 };
		RC("set_ece vendor_id 0x15b3", ibv_set_ece(rc_a, &ece));
		printf("%-44s %d\n", "query_qp_data_in_order SEND 0",
		       ibv_query_qp_data_in_order(rc_a, IBV_WR_SEND, 0));
		printf("%-44s %d\n", "query_qp_data_in_order RDMA_WRITE 1",
		       ibv_query_qp_data_in_order(rc_a, IBV_WR_RDMA_WRITE, 1));
		printf("%-44s %d\n", "query_qp_data_in_order SEND 3",
		       ibv_query_qp_data_in_order(ud, IBV_WR_SEND, 3));
	}

	printf("== destroy ordering\n");
	q = mkqp("create_qp UD for multicast", IBV_QPT_UD, cq, NULL, 4, 4, 0);
	if (q) {
		union ibv_gid mgid = { .raw = { 0xff, 0x0e, [15] = 0x01 } };

		RC("attach_mcast ff0e::1", ibv_attach_mcast(q, &mgid, 0));
		RC("destroy_qp while attached", ibv_destroy_qp(q));
		RC("detach_mcast ff0e::1", ibv_detach_mcast(q, &mgid, 0));
		RC("destroy_qp after detach", ibv_destroy_qp(q));
	}
	RC("destroy_cq with live QPs", ibv_destroy_cq(cq));
	RC("dealloc_pd with live QPs", ibv_dealloc_pd(pd));
	RC("destroy_srq with a QP on it", ibv_destroy_srq(srq));
	RC("destroy_qp RC with SRQ", ibv_destroy_qp(rc_srq));
	RC("destroy_srq", ibv_destroy_srq(srq));
	RC("destroy_qp RC", ibv_destroy_qp(rc_a));
	RC("destroy_qp UC", ibv_destroy_qp(uc));
	RC("destroy_qp UD", ibv_destroy_qp(ud));
	RC("destroy_cq with a live QP on the other", ibv_destroy_cq(cq2));
	RC("destroy_cq", ibv_destroy_cq(cq));
	RC("destroy_qp RC (peer)", ibv_destroy_qp(rc_b));
	RC("destroy_cq (peer's)", ibv_destroy_cq(cq2));
	RC("dealloc_pd", ibv_dealloc_pd(pd));
	RC("close_device", ibv_close_device(ctx));
	return 0;
}
