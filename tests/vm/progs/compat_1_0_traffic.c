/* VM check: traffic on rxe0 through the IBVERBS_1.0 symbols and a 1.0 context's dispatch table.
 * One process, one 1.0 context: PD, two MRs, a CQ on a completion channel, an SRQ, two RC QPs
 * connected to each other (B receives from the SRQ) and two UD QPs with a 1.0 AH. Posts SEND with
 * immediate, SEND, RDMA WRITE and UD SEND through ops.post_send/post_recv/post_srq_recv, polls
 * through ops.poll_cq, takes a CQ event and an SRQ-limit async event through the 1.0 event
 * symbols, and checks the failures that map a refused work request back to the caller's
 * (`bad_wr`). Prints no pointers, keys or QP numbers: only results and "yes"/"no" comparisons.
 *
 * Not tried, because rdma-core crashes on them: NULL arguments, ibv_query_qp@1.0 on a QP without
 * an SRQ, a UD send without an AH. ibv_create_comp_channel has no 1.0 version and reads its
 * argument as a 1.1 context, so it is handed the 1.0 context's real context here. */
#include "compat_1_0.h"
#include <arpa/inet.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#define COOKIE(n) ((void *)(uintptr_t)(0x1000 + (n)))

static struct old_context *ctx;
static struct old_cq *cq;
static char *buf_a, *buf_b;
static int failures;

static void expect(int ok, const char *what)
{
	printf("%s: %s\n", what, ok ? "yes" : "no");
	if (!ok)
		failures++;
}

static int cmp_wc(const void *a, const void *b)
{
	const struct ibv_wc *x = a, *y = b;
	return x->wr_id < y->wr_id ? -1 : x->wr_id > y->wr_id;
}

/* Poll through the 1.0 table until n completions (or 3 s); print them by wr_id. */
static void reap(const char *label, int n)
{
	struct ibv_wc wc[16];
	int got = 0;

	for (int spin = 0; got < n && spin < 3000; spin++) {
		int r = ctx->ops.poll_cq(cq, n - got, wc + got);
		if (r < 0) {
			printf("%s: poll_cq = %d\n", label, r);
			failures++;
			return;
		}
		got += r;
		if (got < n)
			usleep(1000);
	}
	qsort(wc, got, sizeof(wc[0]), cmp_wc);
	printf("%s: %d of %d completions\n", label, got, n);
	for (int i = 0; i < got; i++) {
		printf("  wr_id %llu status %s opcode %d", (unsigned long long)wc[i].wr_id,
		       ibv_wc_status_str(wc[i].status), wc[i].opcode);
		if (wc[i].opcode & IBV_WC_RECV)
			printf(" byte_len %u", wc[i].byte_len);
		if (wc[i].wc_flags & IBV_WC_WITH_IMM)
			printf(" imm 0x%x", ntohl(wc[i].imm_data));
		printf("\n");
	}
	if (got != n)
		failures++;
}

static struct old_qp *make_qp(struct old_pd *pd, struct old_srq *srq, enum ibv_qp_type type,
			      void *cookie, const char *label)
{
	struct old_qp_init_attr a = {
		.qp_context = cookie, .send_cq = cq, .recv_cq = cq, .srq = srq,
		.cap = { .max_send_wr = 16, .max_recv_wr = srq ? 0 : 16, .max_send_sge = 1,
			 .max_recv_sge = 1 },
		.qp_type = type,
	};
	errno = 0;
	struct old_qp *qp = old_ibv_create_qp(pd, &a);
	printf("%s: create_qp@1.0 = %s errno=%s\n", label, qp ? "qp" : "NULL", ename(qp ? 0 : errno));
	if (!qp)
		exit(1);
	printf("%s: cap written back: send_wr>=16 %d send_sge>=1 %d\n", label,
	       a.cap.max_send_wr >= 16, a.cap.max_send_sge >= 1);
	expect(qp->context == ctx && qp->pd == pd && qp->send_cq == cq && qp->recv_cq == cq &&
	       qp->srq == srq && qp->qp_context == cookie && qp->qp_type == type,
	       "  wrapper fields");
	expect(qp->qp_num == qp->real_qp->qp_num && qp->real_qp->qp_context == qp,
	       "  qp_num and back-pointer");
	return qp;
}

static void modify(struct old_qp *qp, struct ibv_qp_attr *a, int mask, const char *label)
{
	int r = old_ibv_modify_qp(qp, a, mask);
	printf("%s: modify_qp@1.0 -> state %d = %d\n", label, a->qp_state, r);
	if (r)
		failures++;
}

static void connect_rc(struct old_qp *qp, uint32_t dest, union ibv_gid *gid, const char *label)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				 .qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_LOCAL_WRITE };
	modify(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS, label);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = dest;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = *gid;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = 1;
	modify(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
	       IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER, label);
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	modify(qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
	       IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC, label);
}

static void connect_ud(struct old_qp *qp, const char *label)
{
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = 0x11111111 };
	modify(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY, label);
	a.qp_state = IBV_QPS_RTR;
	modify(qp, &a, IBV_QP_STATE, label);
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0;
	modify(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN, label);
}

static int wait_fd(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	return poll(&p, 1, 3000);
}

int main(void)
{
	struct old_device **list = old_ibv_get_device_list(NULL);
	struct old_device *dev = NULL;

	for (int i = 0; list && list[i]; i++)
		if (!strcmp(old_ibv_get_device_name(list[i]), "rxe0"))
			dev = list[i];
	if (!dev) {
		printf("no rxe0\n");
		return 1;
	}
	ctx = old_ibv_open_device(dev);
	if (!ctx) {
		printf("open@1.0 failed: %s\n", ename(errno));
		return 1;
	}
	union ibv_gid gid;
	printf("query_gid@1.0 = %d\n", old_ibv_query_gid(ctx, 1, 0, &gid));

	struct ibv_comp_channel *ch = ibv_create_comp_channel(ctx->real_context);
	printf("comp channel (on the real context): %s\n", ch ? "ok" : ename(errno));
	if (!ch)
		return 1;

	errno = 0;
	struct old_pd *pd = old_ibv_alloc_pd(ctx);
	printf("alloc_pd@1.0 = %s errno=%s\n", pd ? "pd" : "NULL", ename(pd ? 0 : errno));
	if (!pd)
		return 1;
	expect(pd->context == ctx && pd->real_pd, "pd wrapper: context, real PD");

	buf_a = aligned_alloc(4096, 4096);
	buf_b = aligned_alloc(4096, 4096);
	memset(buf_a, 0, 4096);
	memset(buf_b, 0, 4096);
	int access = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	struct old_mr *mr_a = old_ibv_reg_mr(pd, buf_a, 4096, access);
	struct old_mr *mr_b = old_ibv_reg_mr(pd, buf_b, 4096, access);
	printf("reg_mr@1.0: %s %s errno=%s\n", mr_a ? "mr" : "NULL", mr_b ? "mr" : "NULL",
	       ename(mr_a && mr_b ? 0 : errno));
	if (!mr_a || !mr_b)
		return 1;
	expect(mr_a->context == ctx && mr_a->pd == pd && mr_a->lkey == mr_a->real_mr->lkey &&
	       mr_a->rkey == mr_a->real_mr->rkey, "mr wrapper: context, pd, keys");

	cq = old_ibv_create_cq(ctx, 64, COOKIE(1), ch, 0);
	printf("create_cq@1.0 = %s errno=%s\n", cq ? "cq" : "NULL", ename(cq ? 0 : errno));
	if (!cq)
		return 1;
	printf("cq->cqe = %d\n", cq->cqe);
	expect(cq->context == ctx && cq->cq_context == COOKIE(1) && cq->real_cq->cq_context == cq,
	       "cq wrapper: context, cq_context, back-pointer");

	struct ibv_srq_init_attr sia = { .srq_context = COOKIE(2),
					 .attr = { .max_wr = 16, .max_sge = 1 } };
	struct old_srq *srq = old_ibv_create_srq(pd, &sia);
	printf("create_srq@1.0 = %s errno=%s\n", srq ? "srq" : "NULL", ename(srq ? 0 : errno));
	if (!srq)
		return 1;
	struct ibv_srq_attr sa;
	memset(&sa, 0, sizeof(sa));
	int r = old_ibv_query_srq(srq, &sa);
	printf("query_srq@1.0 = %d max_wr>=16 %d max_sge %u srq_limit %u\n", r, sa.max_wr >= 16,
	       sa.max_sge, sa.srq_limit);

	struct old_qp *qa = make_qp(pd, NULL, IBV_QPT_RC, COOKIE(3), "qp A");
	struct old_qp *qb = make_qp(pd, srq, IBV_QPT_RC, COOKIE(4), "qp B");
	connect_rc(qa, qb->qp_num, &gid, "qp A");
	connect_rc(qb, qa->qp_num, &gid, "qp B");

	/* Receives: two on the SRQ (B), one on A; then arm the SRQ limit at 2. */
	struct ibv_sge rs[3] = {
		{ (uintptr_t)buf_b, 256, mr_b->lkey },
		{ (uintptr_t)buf_b + 256, 256, mr_b->lkey },
		{ (uintptr_t)buf_a + 1024, 256, mr_a->lkey },
	};
	struct old_recv_wr rw[3] = {
		{ &rw[1], 101, &rs[0], 1 }, { NULL, 102, &rs[1], 1 }, { NULL, 201, &rs[2], 1 },
	};
	struct old_recv_wr *rbad = NULL;
	printf("post_srq_recv x2 = %d\n", ctx->ops.post_srq_recv(srq, &rw[0], &rbad));
	printf("post_recv A = %d\n", ctx->ops.post_recv(qa, &rw[2], &rbad));
	sa.srq_limit = 2;
	printf("modify_srq@1.0 limit 2 = %d\n", old_ibv_modify_srq(srq, &sa, IBV_SRQ_LIMIT));

	/* A -> B: SEND with immediate, with a CQ event armed through the table. */
	printf("req_notify_cq = %d\n", ctx->ops.req_notify_cq(cq, 0));
	strcpy(buf_a, "hello from A");
	struct ibv_sge ss = { (uintptr_t)buf_a, 13, mr_a->lkey };
	struct old_send_wr sw = { .wr_id = 1, .sg_list = &ss, .num_sge = 1,
				  .opcode = IBV_WR_SEND_WITH_IMM, .send_flags = IBV_SEND_SIGNALED,
				  .imm_data = htonl(0xabcd) };
	struct old_send_wr *sbad = NULL;
	printf("post_send A SEND_WITH_IMM = %d\n", ctx->ops.post_send(qa, &sw, &sbad));
	printf("channel readable = %d\n", wait_fd(ch->fd));
	struct old_cq *ev_cq = NULL;
	void *ev_ctx = NULL;
	r = old_ibv_get_cq_event(ch, &ev_cq, &ev_ctx);
	printf("get_cq_event@1.0 = %d\n", r);
	expect(ev_cq == cq && ev_ctx == COOKIE(1), "  event names the 1.0 CQ and its cq_context");
	old_ibv_ack_cq_events(cq, 1);
	reap("A->B send with imm", 2);
	printf("B got: %s\n", buf_b);

	/* The SRQ dropped below its limit: an async event naming the 1.0 SRQ. */
	printf("async fd readable = %d\n", wait_fd(ctx->real_context->async_fd));
	struct ibv_async_event ae;
	r = old_ibv_get_async_event(ctx, &ae);
	printf("get_async_event@1.0 = %d type %s\n", r, r ? "-" : ibv_event_type_str(ae.event_type));
	if (!r) {
		expect(ae.element.srq == (struct ibv_srq *)srq, "  event names the 1.0 SRQ");
		old_ibv_ack_async_event(&ae);
	}

	/* B -> A: SEND into A's own receive queue. */
	strcpy(buf_b + 2048, "hello from B");
	struct ibv_sge sb = { (uintptr_t)buf_b + 2048, 13, mr_b->lkey };
	struct old_send_wr swb = { .wr_id = 2, .sg_list = &sb, .num_sge = 1, .opcode = IBV_WR_SEND,
				   .send_flags = IBV_SEND_SIGNALED };
	printf("post_send B SEND = %d\n", ctx->ops.post_send(qb, &swb, &sbad));
	reap("B->A send", 2);
	printf("A got: %s\n", buf_a + 1024);

	/* A writes into B's buffer with the 1.0 MR's rkey. */
	strcpy(buf_a + 2048, "written by RDMA");
	struct ibv_sge sw_sge = { (uintptr_t)buf_a + 2048, 16, mr_a->lkey };
	struct old_send_wr ww = { .wr_id = 3, .sg_list = &sw_sge, .num_sge = 1,
				  .opcode = IBV_WR_RDMA_WRITE, .send_flags = IBV_SEND_SIGNALED };
	ww.wr.rdma.remote_addr = (uintptr_t)buf_b + 3072;
	ww.wr.rdma.rkey = mr_b->rkey;
	printf("post_send A RDMA_WRITE = %d\n", ctx->ops.post_send(qa, &ww, &sbad));
	reap("A rdma write", 1);
	printf("B memory: %s\n", buf_b + 3072);

	/* A refused request in the middle of a chain is reported as the caller's. */
	struct old_send_wr chain[2] = {
		{ .next = &chain[1], .wr_id = 4, .sg_list = &ss, .num_sge = 1, .opcode = IBV_WR_SEND,
		  .send_flags = IBV_SEND_SIGNALED },
		{ .wr_id = 5, .sg_list = &ss, .num_sge = 64, .opcode = IBV_WR_SEND,
		  .send_flags = IBV_SEND_SIGNALED },
	};
	sbad = NULL;
	r = ctx->ops.post_send(qa, &chain[0], &sbad);
	printf("post_send chain (2nd has 64 SGEs) = %s; bad_wr is the 2nd: %s\n", ename(r),
	       sbad == &chain[1] ? "yes" : sbad == &chain[0] ? "no (1st)" : "no");
	reap("chain head", 2);
	struct old_recv_wr rchain[2] = { { &rchain[1], 202, &rs[2], 1 }, { NULL, 203, &rs[2], 64 } };
	rbad = NULL;
	r = ctx->ops.post_recv(qa, &rchain[0], &rbad);
	printf("post_recv chain (2nd has 64 SGEs) = %s; bad_wr is the 2nd: %s\n", ename(r),
	       rbad == &rchain[1] ? "yes" : "no");
	rbad = NULL;
	r = ctx->ops.post_srq_recv(srq, &rchain[1], &rbad);
	printf("post_srq_recv (64 SGEs) = %s; bad_wr is it: %s\n", ename(r),
	       rbad == &rchain[1] ? "yes" : "no");

	/* query_qp@1.0 on the SRQ QP: the init attributes come back as 1.0 objects. */
	struct ibv_qp_attr qa_attr;
	struct old_qp_init_attr qia;
	memset(&qia, 0, sizeof(qia));
	r = old_ibv_query_qp(qb, &qa_attr, IBV_QP_STATE | IBV_QP_CAP, &qia);
	printf("query_qp@1.0 B = %d state %d type %d sq_sig_all %d\n", r,
	       qa_attr.qp_state, qia.qp_type, qia.sq_sig_all);
	expect(qia.qp_context == COOKIE(4) && qia.send_cq == cq && qia.recv_cq == cq &&
	       qia.srq == srq, "  init attr names the 1.0 CQ and SRQ");

	printf("resize_cq@1.0 128 = %d; cq->cqe = %d\n", old_ibv_resize_cq(cq, 128), cq->cqe);

	/* UD: a 1.0 AH in the work request. */
	struct old_qp *u1 = make_qp(pd, NULL, IBV_QPT_UD, COOKIE(5), "ud 1");
	struct old_qp *u2 = make_qp(pd, NULL, IBV_QPT_UD, COOKIE(6), "ud 2");
	connect_ud(u1, "ud 1");
	connect_ud(u2, "ud 2");
	struct ibv_ah_attr aha = { .is_global = 1, .port_num = 1,
				   .grh = { .dgid = gid, .hop_limit = 1 } };
	errno = 0;
	struct old_ah *ah = old_ibv_create_ah(pd, &aha);
	printf("create_ah@1.0 = %s errno=%s\n", ah ? "ah" : "NULL", ename(ah ? 0 : errno));
	struct ibv_sge us = { (uintptr_t)buf_b + 1024, 40 + 64, mr_b->lkey };
	struct old_recv_wr urw = { NULL, 301, &us, 1 };
	printf("post_recv ud 2 = %d\n", ctx->ops.post_recv(u2, &urw, &rbad));
	strcpy(buf_a + 512, "datagram");
	struct ibv_sge usend = { (uintptr_t)buf_a + 512, 9, mr_a->lkey };
	struct old_send_wr uw = { .wr_id = 6, .sg_list = &usend, .num_sge = 1,
				  .opcode = IBV_WR_SEND, .send_flags = IBV_SEND_SIGNALED };
	uw.wr.ud.ah = ah;
	uw.wr.ud.remote_qpn = u2->qp_num;
	uw.wr.ud.remote_qkey = 0x11111111;
	if (ah) {
		printf("post_send ud 1 = %d\n", ctx->ops.post_send(u1, &uw, &sbad));
		reap("ud send", 2);
		printf("ud 2 got: %s\n", buf_b + 1024 + 40);
	}

	union ibv_gid mgid = { .raw = { 0xff, 0x0e, [15] = 1 } };
	printf("attach_mcast@1.0 = %d\n", old_ibv_attach_mcast(u2, &mgid, 0));
	printf("detach_mcast@1.0 = %d\n", old_ibv_detach_mcast(u2, &mgid, 0));

	/* Teardown, with a PD still in use first. */
	r = old_ibv_dealloc_pd(pd);
	printf("dealloc_pd@1.0 with live objects = %s\n", ename(r));
	if (ah)
		printf("destroy_ah@1.0 = %d\n", old_ibv_destroy_ah(ah));
	printf("destroy_qp@1.0 = %d %d %d %d\n", old_ibv_destroy_qp(qa), old_ibv_destroy_qp(qb),
	       old_ibv_destroy_qp(u1), old_ibv_destroy_qp(u2));
	printf("destroy_srq@1.0 = %d\n", old_ibv_destroy_srq(srq));
	printf("destroy_cq@1.0 = %d\n", old_ibv_destroy_cq(cq));
	printf("destroy_comp_channel = %d\n", ibv_destroy_comp_channel(ch));
	printf("dereg_mr@1.0 = %d %d\n", old_ibv_dereg_mr(mr_a), old_ibv_dereg_mr(mr_b));
	printf("dealloc_pd@1.0 = %d\n", old_ibv_dealloc_pd(pd));
	printf("close_device@1.0 = %d\n", old_ibv_close_device(ctx));
	old_ibv_free_device_list(list);
	printf("%d failures\n", failures);
	return failures != 0;
}
