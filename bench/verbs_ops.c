/* Benchmark (not a test): wall time of single verbs on the first RDMA device (rxe0 in the guest).
 *
 *   verbs_ops [-n N] [-q] [-m] OP...
 *
 * Runs each OP N times (default 100) and prints one line per OP: its name, N, and the median and
 * mean wall time of one call in nanoseconds (CLOCK_MONOTONIC around the call only; whatever the
 * op needs before or after, such as the PD a dealloc_pd frees, is made and undone untimed). -q
 * prints nothing. -m brackets each timed call with access("/@verbs_ops/begin/OP") and
 * access("/@verbs_ops/end/OP"), markers that show in an strace log, so the system calls of the
 * timed call alone can be counted (bench/verbs-ops does).
 *
 * Ops: alloc_pd, dealloc_pd, reg_mr_4k, dereg_mr_4k, reg_mr_64m, dereg_mr_64m (on a long-lived PD),
 * create_cq, destroy_cq (16 entries, no channel), create_qp, destroy_qp (RC, 16 send/recv WRs,
 * on the long-lived PD and a long-lived CQ), modify_qp_rts (a fresh QP each iteration taken
 * RESET->INIT->RTR->RTS in one timed step, with the QP itself as remote on port 1, GID index 0;
 * the QP is created and destroyed untimed). To add an op, add a row to `ops` with a prepare, a
 * timed and a cleanup step. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <infiniband/verbs.h>

static struct ibv_context *ctx;
static struct ibv_pd *pd;   /* the long-lived PD the MR ops use */
static struct ibv_cq *cq;  /* the long-lived CQ the QP ops use */
static char *buf4k, *buf64m;
static union ibv_gid gid0;  /* port 1, GID index 0: the remote address of modify_qp_rts */
static enum ibv_mtu mtu;    /* port 1's active MTU */

/* What one iteration works on. */
struct it {
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	struct ibv_cq *cq;
	struct ibv_qp *qp;
};

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void pd_alloc(struct it *t)
{
	if (!(t->pd = ibv_alloc_pd(ctx)))
		die("ibv_alloc_pd");
}

static void pd_dealloc(struct it *t)
{
	if (ibv_dealloc_pd(t->pd))
		die("ibv_dealloc_pd");
}

static void mr_reg(struct it *t, void *addr, size_t len)
{
	if (!(t->mr = ibv_reg_mr(pd, addr, len, IBV_ACCESS_LOCAL_WRITE)))
		die("ibv_reg_mr");
}

static void reg4k(struct it *t) { mr_reg(t, buf4k, 4096); }
static void reg64m(struct it *t) { mr_reg(t, buf64m, 64 << 20); }

static void mr_dereg(struct it *t)
{
	if (ibv_dereg_mr(t->mr))
		die("ibv_dereg_mr");
}

static void cq_create(struct it *t)
{
	if (!(t->cq = ibv_create_cq(ctx, 16, NULL, NULL, 0)))
		die("ibv_create_cq");
}

static void cq_destroy(struct it *t)
{
	if (ibv_destroy_cq(t->cq))
		die("ibv_destroy_cq");
}

static void qp_create(struct it *t)
{
	struct ibv_qp_init_attr a = {
		.send_cq = cq,
		.recv_cq = cq,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};

	if (!(t->qp = ibv_create_qp(pd, &a)))
		die("ibv_create_qp");
}

static void qp_destroy(struct it *t)
{
	if (ibv_destroy_qp(t->qp))
		die("ibv_destroy_qp");
}

/* RESET -> INIT -> RTR -> RTS, connected to itself. */
static void qp_to_rts(struct it *t)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.pkey_index = 0,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	if (ibv_modify_qp(t->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS))
		die("ibv_modify_qp INIT");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = mtu;
	a.dest_qp_num = t->qp->qp_num;
	a.rq_psn = 0;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = gid0;
	a.ah_attr.grh.sgid_index = 0;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(t->qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		die("ibv_modify_qp RTR");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.sq_psn = 0;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(t->qp, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
		die("ibv_modify_qp RTS");
}

/* One op: untimed prepare, the timed call, untimed cleanup (each may be NULL). */
static const struct op {
	const char *name;
	void (*prepare)(struct it *);
	void (*timed)(struct it *);
	void (*cleanup)(struct it *);
} ops[] = {
	{ "alloc_pd", NULL, pd_alloc, pd_dealloc },
	{ "dealloc_pd", pd_alloc, pd_dealloc, NULL },
	{ "reg_mr_4k", NULL, reg4k, mr_dereg },
	{ "dereg_mr_4k", reg4k, mr_dereg, NULL },
	{ "reg_mr_64m", NULL, reg64m, mr_dereg },
	{ "dereg_mr_64m", reg64m, mr_dereg, NULL },
	{ "create_cq", NULL, cq_create, cq_destroy },
	{ "destroy_cq", cq_create, cq_destroy, NULL },
	{ "create_qp", NULL, qp_create, qp_destroy },
	{ "destroy_qp", qp_create, qp_destroy, NULL },
	{ "modify_qp_rts", qp_create, qp_to_rts, qp_destroy },
};

static int cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* A system call strace shows with its path: where a timed call begins or ends. */
static void mark(int on, const char *what, const char *op)
{
	char path[128];

	if (!on)
		return;
	snprintf(path, sizeof(path), "/@verbs_ops/%s/%s", what, op);
	(void)access(path, F_OK);
}

int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_port_attr pa;
	int n = 100, quiet = 0, marks = 0, c, i, k;

	while ((c = getopt(argc, argv, "n:qm")) != -1) {
		if (c == 'n')
			n = atoi(optarg);
		else if (c == 'q')
			quiet = 1;
		else if (c == 'm')
			marks = 1;
		else
			return 2;
	}
	list = ibv_get_device_list(NULL);
	if (!list || !list[0] || !(ctx = ibv_open_device(list[0])))
		die("no RDMA device");
	if (!(pd = ibv_alloc_pd(ctx)))
		die("ibv_alloc_pd");
	if (!(cq = ibv_create_cq(ctx, 64, NULL, NULL, 0)))
		die("ibv_create_cq");
	if (ibv_query_port(ctx, 1, &pa) || ibv_query_gid(ctx, 1, 0, &gid0))
		die("ibv_query_port/gid");
	mtu = pa.active_mtu;
	buf4k = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	buf64m = mmap(NULL, 64 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf4k == MAP_FAILED || buf64m == MAP_FAILED)
		die("mmap");
	memset(buf64m, 1, 64 << 20);

	for (i = optind; i < argc; i++) {
		const struct op *o = NULL;
		int64_t *t = calloc(n > 0 ? n : 1, sizeof(*t)), sum = 0;

		for (k = 0; k < (int)(sizeof(ops) / sizeof(ops[0])); k++)
			if (!strcmp(ops[k].name, argv[i]))
				o = &ops[k];
		if (!o) {
			fprintf(stderr, "unknown op %s\n", argv[i]);
			return 2;
		}
		for (k = 0; k < n; k++) {
			struct it it = { 0 };
			int64_t t0;

			if (o->prepare)
				o->prepare(&it);
			t0 = now();
			mark(marks, "begin", o->name);
			o->timed(&it);
			mark(marks, "end", o->name);
			t[k] = now() - t0;
			sum += t[k];
			if (o->cleanup)
				o->cleanup(&it);
		}
		qsort(t, n, sizeof(*t), cmp);
		if (!quiet && n > 0)
			printf("%s %d %lld %lld\n", o->name, n, (long long)t[n / 2], (long long)(sum / n));
		free(t);
	}
	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	munmap(buf4k, 4096);
	munmap(buf64m, 64 << 20);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return 0;
}
