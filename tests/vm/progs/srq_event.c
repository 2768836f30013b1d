/* The event bookkeeping of destroy (tests/vm/checks.txt runs this under the system libibverbs and
 * under ours; the output must be identical).
 *
 * An SRQ armed with a limit raises IBV_EVENT_SRQ_LIMIT_REACHED once enough receives are consumed.
 * The event is taken with ibv_get_async_event but acknowledged by a second thread 300 ms later,
 * while the main thread is already in ibv_destroy_srq: destroy must wait for the
 * acknowledgement (srq->events_completed reaching the kernel's events_reported). (rxe raises no
 * QP async events in a single guest, so the QP's wait is covered by tests/capi_qp.rs only.) */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

static struct ibv_context *ctx;
static struct ibv_async_event ev;
static volatile int acked;

static const char *en(int e)
{
	const char *s = e ? strerrorname_np(e) : "0";

	return s ? s : "?";
}

static void die(const char *what)
{
	printf("setup: %s failed: errno %s\n", what, en(errno));
	exit(1);
}

/* Wait up to 5 s for one async event. */
static int get_event(const char *what)
{
	struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };
	int r = poll(&p, 1, 5000);

	if (r != 1) {
		printf("%-36s no event (poll %d)\n", what, r);
		return -1;
	}
	if (ibv_get_async_event(ctx, &ev)) {
		printf("%-36s get_async_event failed errno %s\n", what, en(errno));
		return -1;
	}
	printf("%-36s event %s\n", what, ibv_event_type_str(ev.event_type));
	return 0;
}

static void *late_ack(void *arg)
{
	(void)arg;
	usleep(300000);
	acked = 1;
	ibv_ack_async_event(&ev);
	return NULL;
}

int main(void)
{
	static char buf[4096];
	struct ibv_device **list;
	struct ibv_pd *pd;
	struct ibv_cq *cq;
	struct ibv_srq *srq;
	struct ibv_qp *qp;
	struct ibv_ah *ah;
	struct ibv_mr *mr;
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 16, .max_sge = 1 } };
	struct ibv_srq_attr lim = { .srq_limit = 6 };
	struct ibv_qp_init_attr qa = { .qp_type = IBV_QPT_UD, .sq_sig_all = 1,
				       .cap = { .max_send_wr = 8, .max_send_sge = 1 } };
	struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = 0x33 };
	struct ibv_ah_attr aa = { .is_global = 1, .port_num = 1,
				  .grh = { .sgid_index = 1, .hop_limit = 64 } };
	struct ibv_sge sge;
	struct ibv_recv_wr rwr, *rbad;
	struct ibv_send_wr swr, *sbad;
	struct ibv_wc wc[16];
	pthread_t t;
	int n, ret, got = 0;

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
	cq = pd ? ibv_create_cq(ctx, 64, NULL, NULL, 0) : NULL;
	srq = cq ? ibv_create_srq(pd, &sa) : NULL;
	if (!srq)
		die("pd/cq/srq");
	qa.send_cq = qa.recv_cq = cq;
	qa.srq = srq;
	qp = ibv_create_qp(pd, &qa);
	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	if (!qp || !mr)
		die("qp/mr");
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY))
		die("->INIT");
	a.qp_state = IBV_QPS_RTR;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE))
		die("->RTR");
	a.qp_state = IBV_QPS_RTS;
	if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN))
		die("->RTS");
	if (ibv_query_gid(ctx, 1, 1, &aa.grh.dgid))
		die("query_gid");
	ah = ibv_create_ah(pd, &aa);
	if (!ah)
		die("create_ah");

	sge = (struct ibv_sge){ .addr = (uintptr_t)buf + 2048, .length = 1024, .lkey = mr->lkey };
	for (int i = 0; i < 8; i++) {
		rwr = (struct ibv_recv_wr){ .wr_id = 100 + i, .sg_list = &sge, .num_sge = 1 };
		if (ibv_post_srq_recv(srq, &rwr, &rbad))
			die("post_srq_recv");
	}
	printf("%-36s ret %d\n", "modify_srq LIMIT 6 (8 posted)", ibv_modify_srq(srq, &lim, IBV_SRQ_LIMIT));
	sge = (struct ibv_sge){ .addr = (uintptr_t)buf, .length = 32, .lkey = mr->lkey };
	for (int i = 0; i < 3; i++) {
		swr = (struct ibv_send_wr){ .wr_id = i, .sg_list = &sge, .num_sge = 1,
					    .opcode = IBV_WR_SEND,
					    .wr.ud = { .ah = ah, .remote_qpn = qp->qp_num,
						       .remote_qkey = 0x33 } };
		if (ibv_post_send(qp, &swr, &sbad))
			die("post_send");
	}
	for (int i = 0; i < 3000 && got < 6; i++) {
		int k = ibv_poll_cq(cq, 16 - got, wc + got);

		if (k > 0)
			got += k;
		else
			usleep(1000);
	}
	printf("%-36s %d\n", "completions", got);

	if (get_event("SRQ event") == 0) {
		printf("%-36s %d\n", "event is for the SRQ", ev.element.srq == srq);
		printf("%-36s %u\n", "srq->events_completed before ack", srq->events_completed);
		acked = 0;
		pthread_create(&t, NULL, late_ack, NULL);
		ret = ibv_destroy_qp(qp);
		printf("%-36s ret %d\n", "destroy_qp (no QP event pending)", ret);
		ret = ibv_destroy_srq(srq);
		printf("%-36s ret %d, returned after the ack: %d\n", "destroy_srq", ret, acked);
		pthread_join(t, NULL);
	} else {
		ibv_destroy_qp(qp);
		ibv_destroy_srq(srq);
	}

	ibv_destroy_ah(ah);
	ibv_dereg_mr(mr);
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return 0;
}
