/* Benchmark driver (not a test) for the VM part of `make bench-vm` (bench/run vm): control verbs
 * on rxe0 in the soft-RoCE guest, whose user-space instructions bench/run counts under callgrind
 * with the system libibverbs and with ours. Built against the installed rdma-core headers and
 * valgrind's callgrind.h.
 *
 *   bench_vm [-m] [-q] [-e] [-1]
 *
 * -1: the first device list only (devlist.cold), then exit (`make bench`'s emulated first-list
 * rows, on a provider directory of every provider ABI).
 * -e: on the uverbs emulator (tests/providers/emu, `make bench`'s emulated-device rows): the
 * completion and async events are raised by the emulator (uvemu_comp_event, uvemu_async_event)
 * instead of by traffic and port flaps.
 *
 * Rows, in this order (K: calls measured; what a row needs first is made unmeasured):
 *   devlist.cold        the first ibv_get_device_list of the process (library init, enumeration
 *                       over netlink or sysfs, provider loading)
 *   open_device+close   ibv_open_device then ibv_close_device on rxe0, K pairs
 *   query_device, query_device_ex, query_port (port 1), query_gid (port 1, index 0)
 *   alloc_pd, dealloc_pd
 *   reg_mr_4k, dereg_mr_4k, reg_mr_64m, dereg_mr_64m   (IBV_ACCESS_LOCAL_WRITE, on one PD;
 *                       the same buffer registered K times, then each MR deregistered)
 *   create_cq, destroy_cq   (16 entries, no channel)
 *   create_qp, destroy_qp   (RC, 16 send/recv WRs, one SGE)
 *   modify_qp_rts       one row per QP for RESET->INIT->RTR->RTS (three ibv_modify_qp calls,
 *                       the QP connected to itself: port 1, GID index 0)
 *   cq_event            ibv_get_cq_event + ibv_ack_cq_events(cq, 1) for one completion event: a
 *                       self-connected RC QP sends zero bytes to itself on a CQ armed with
 *                       ibv_req_notify_cq (arming, posting, waiting and polling unmeasured)
 *   async_event         ibv_get_async_event + ibv_ack_async_event, for every event that the
 *                       port flaps `ip link set dummy0 down; ip link set dummy0 up` (three,
 *                       unmeasured) leave queued; last, since it takes the port down
 *
 * Every row runs its steps twice: with the verbs, then the same loop with an empty step (the
 * harness). Each run is bracketed by CALLGRIND_TOGGLE_COLLECT (collection is off elsewhere:
 * bench/run passes --collect-atstart=no) and dumped under its label (LABEL, LABEL.harness) with
 * CALLGRIND_DUMP_STATS_AT; the program prints "calls LABEL K". bench/run subtracts and divides.
 * -m brackets each measured stretch with access("/@bench/begin/LABEL") and the matching end, for
 * counting system calls under strace. -q: no device-list line. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include "marks.h"

#define KMAX 64

static struct ibv_device **list;
static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cq;
static char *buf4k, *buf64m;
static union ibv_gid gid0;
static enum ibv_mtu mtu;

/* -e: the emulator's event hooks. */
static int (*emu_comp)(int cmd_fd, uint32_t cq_handle);
static int (*emu_async)(int cmd_fd, uint32_t type, uint16_t obj_type, uint32_t handle);

static struct ibv_pd *pds[KMAX];
static struct ibv_mr *mrs[KMAX];
static struct ibv_cq *cqs[KMAX];
static struct ibv_qp *qps[KMAX];

static void die(const char *what)
{
	fprintf(stderr, "bench_vm: %s: %s\n", what, strerror(errno));
	exit(1);
}

typedef void (*step_fn)(long);

__attribute__((noinline)) static void nop_step(long i)
{
	(void)i;
}

__attribute__((noinline)) static void loop(step_fn step, long k)
{
	for (long i = 0; i < k; i++)
		step(i);
}

/* One row: K steps measured, then K empty steps as its harness. */
static void row(const char *label, long k, step_fn step)
{
	step_fn volatile s = step, n = nop_step;
	char h[80];

	on(label);
	loop(s, k);
	off(label);
	dump(label, k);
	snprintf(h, sizeof(h), "%s.harness", label);
	on(h);
	loop(n, k);
	off(h);
	dump(h, -1);
}

/* ---- steps ---- */

static void open_close(long i)
{
	struct ibv_context *c = ibv_open_device(list[0]);

	(void)i;
	if (!c || ibv_close_device(c))
		die("ibv_open_device/ibv_close_device");
}

static void query_device(long i)
{
	struct ibv_device_attr a;

	(void)i;
	if (ibv_query_device(ctx, &a))
		die("ibv_query_device");
}

static void query_device_ex(long i)
{
	struct ibv_device_attr_ex a;

	(void)i;
	if (ibv_query_device_ex(ctx, NULL, &a))
		die("ibv_query_device_ex");
}

static void query_port(long i)
{
	struct ibv_port_attr a;

	(void)i;
	if (ibv_query_port(ctx, 1, &a))
		die("ibv_query_port");
}

static void query_gid(long i)
{
	union ibv_gid g;

	(void)i;
	if (ibv_query_gid(ctx, 1, 0, &g))
		die("ibv_query_gid");
}

static void alloc_pd(long i)
{
	if (!(pds[i] = ibv_alloc_pd(ctx)))
		die("ibv_alloc_pd");
}

static void dealloc_pd(long i)
{
	if (ibv_dealloc_pd(pds[i]))
		die("ibv_dealloc_pd");
}

static void reg_4k(long i)
{
	if (!(mrs[i] = ibv_reg_mr(pd, buf4k, 4096, IBV_ACCESS_LOCAL_WRITE)))
		die("ibv_reg_mr 4k");
}

static void reg_64m(long i)
{
	if (!(mrs[i] = ibv_reg_mr(pd, buf64m, 64 << 20, IBV_ACCESS_LOCAL_WRITE)))
		die("ibv_reg_mr 64m");
}

static void dereg(long i)
{
	if (ibv_dereg_mr(mrs[i]))
		die("ibv_dereg_mr");
}

static void create_cq(long i)
{
	if (!(cqs[i] = ibv_create_cq(ctx, 16, NULL, NULL, 0)))
		die("ibv_create_cq");
}

static void destroy_cq(long i)
{
	if (ibv_destroy_cq(cqs[i]))
		die("ibv_destroy_cq");
}

static struct ibv_qp *new_qp(struct ibv_cq *c)
{
	struct ibv_qp_init_attr a = {
		.send_cq = c,
		.recv_cq = c,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_RC,
	};
	struct ibv_qp *q = ibv_create_qp(pd, &a);

	if (!q)
		die("ibv_create_qp");
	return q;
}

static void create_qp(long i)
{
	qps[i] = new_qp(cq);
}

static void destroy_qp(long i)
{
	if (ibv_destroy_qp(qps[i]))
		die("ibv_destroy_qp");
}

/* RESET -> INIT -> RTR -> RTS, connected to itself. */
static void to_rts(struct ibv_qp *q)
{
	struct ibv_qp_attr a = {
		.qp_state = IBV_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
				   IBV_ACCESS_REMOTE_READ,
	};

	if (ibv_modify_qp(q, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
			  IBV_QP_ACCESS_FLAGS))
		die("ibv_modify_qp INIT");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = mtu;
	a.dest_qp_num = q->qp_num;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.is_global = 1;
	a.ah_attr.grh.dgid = gid0;
	a.ah_attr.grh.hop_limit = 1;
	a.ah_attr.port_num = 1;
	if (ibv_modify_qp(q, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
			  IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		die("ibv_modify_qp RTR");
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	if (ibv_modify_qp(q, &a, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
			  IBV_QP_RNR_RETRY | IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC))
		die("ibv_modify_qp RTS");
}

static void modify_rts(long i)
{
	to_rts(qps[i]);
}

/* ---- rows that wait for an event: measured call by call ---- */

static long cq_events(long k)
{
	struct ibv_comp_channel *ch = ibv_create_comp_channel(ctx);
	struct ibv_cq *ecq;
	struct ibv_qp *q;
	long got = 0;

	if (!ch || !(ecq = ibv_create_cq(ctx, 16, NULL, ch, 0)))
		die("completion channel / CQ");
	q = new_qp(ecq);
	to_rts(q);
	for (long i = 0; i < k; i++) {
		struct ibv_recv_wr rw = { .wr_id = 1 }, *brw;
		struct ibv_send_wr sw = { .wr_id = 2, .opcode = IBV_WR_SEND,
					  .send_flags = IBV_SEND_SIGNALED }, *bsw;
		struct pollfd p = { .fd = ch->fd, .events = POLLIN };
		struct ibv_cq *ev_cq;
		void *ev_ctx;
		struct ibv_wc wc[4];
		int done = 0;

		if (emu_comp) {
			if (ibv_req_notify_cq(ecq, 0) || emu_comp(ctx->cmd_fd, ecq->handle))
				die("arm/raise");
			done = 2;
		} else if (ibv_req_notify_cq(ecq, 0) || ibv_post_recv(q, &rw, &brw) ||
			   ibv_post_send(q, &sw, &bsw)) {
			die("arm/post");
		}
		if (poll(&p, 1, 30000) != 1)
			die("no completion event within 30 s");
		on("cq_event");
		if (ibv_get_cq_event(ch, &ev_cq, &ev_ctx))
			die("ibv_get_cq_event");
		ibv_ack_cq_events(ev_cq, 1);
		off("cq_event");
		got++;
		for (int tries = 0; done < 2 && tries < 30000; tries++) {
			int n = ibv_poll_cq(ecq, 4, wc);

			if (n < 0)
				die("ibv_poll_cq");
			for (int j = 0; j < n; j++)
				if (wc[j].status != IBV_WC_SUCCESS)
					die("completion with an error");
			done += n;
			if (done < 2)
				usleep(1000);
		}
		if (done != 2)
			die("completions missing");
	}
	dump("cq_event", got);
	for (long i = 0; i < got; i++) {
		on("cq_event.harness");
		nop_step(i);
		off("cq_event.harness");
	}
	dump("cq_event.harness", -1);
	if (ibv_destroy_qp(q) || ibv_destroy_cq(ecq) || ibv_destroy_comp_channel(ch))
		die("cq_event cleanup");
	return got;
}

static long async_events(int flaps)
{
	struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };
	long got = 0;

	for (int i = 0; i < flaps; i++) {
		if (emu_async) {
			/* What a flap leaves queued: port error, then port active. */
			if (emu_async(ctx->cmd_fd, IBV_EVENT_PORT_ERR, 0, 1) ||
			    emu_async(ctx->cmd_fd, IBV_EVENT_PORT_ACTIVE, 0, 1))
				die("raise port events");
		} else if (system("ip link set dummy0 down && ip link set dummy0 up")) {
			die("ip link set dummy0 down/up");
		}
	}
	while (poll(&p, 1, got ? 3000 : 30000) == 1) {
		struct ibv_async_event ev;

		on("async_event");
		if (ibv_get_async_event(ctx, &ev))
			die("ibv_get_async_event");
		ibv_ack_async_event(&ev);
		off("async_event");
		got++;
	}
	dump("async_event", got);
	for (long i = 0; i < got; i++) {
		on("async_event.harness");
		nop_step(i);
		off("async_event.harness");
	}
	dump("async_event.harness", -1);
	return got;
}

int main(int argc, char **argv)
{
	struct ibv_port_attr pa;
	int n = 0, quiet = 0, first_only = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-m"))
			marks = 1;
		else if (!strcmp(argv[i], "-q"))
			quiet = 1;
		else if (!strcmp(argv[i], "-1"))
			first_only = 1;
		else if (!strcmp(argv[i], "-e")) {
			emu_comp = (int (*)(int, uint32_t))dlsym(RTLD_DEFAULT, "uvemu_comp_event");
			emu_async = (int (*)(int, uint32_t, uint16_t, uint32_t))dlsym(RTLD_DEFAULT,
										  "uvemu_async_event");
			if (!emu_comp || !emu_async)
				die("-e: not on the uverbs emulator");
		}
		else
			return 2;
	}
	on("devlist.cold");
	list = ibv_get_device_list(&n);
	off("devlist.cold");
	dump("devlist.cold", 1);
	on("devlist.cold.harness");
	off("devlist.cold.harness");
	dump("devlist.cold.harness", -1);
	if (!list || !list[0] || !(ctx = ibv_open_device(list[0])))
		die("no RDMA device");
	if (!quiet || first_only)
		printf("devices %d first %s\n", n, ibv_get_device_name(list[0]));
	if (first_only)
		return 0;
	if (!(pd = ibv_alloc_pd(ctx)) || !(cq = ibv_create_cq(ctx, 64, NULL, NULL, 0)))
		die("PD/CQ");
	if (ibv_query_port(ctx, 1, &pa) || ibv_query_gid(ctx, 1, 0, &gid0))
		die("ibv_query_port/gid");
	mtu = pa.active_mtu;
	buf4k = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	buf64m = mmap(NULL, 64 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf4k == MAP_FAILED || buf64m == MAP_FAILED)
		die("mmap");
	memset(buf4k, 1, 4096);
	memset(buf64m, 1, 64 << 20);

	/* Each verb once before its row: nothing first-call-only is measured. */
	open_close(0);
	query_device(0);
	query_device_ex(0);
	query_port(0);
	query_gid(0);

	row("open_device+close", 10, open_close);
	row("query_device", 50, query_device);
	row("query_device_ex", 50, query_device_ex);
	row("query_port", 50, query_port);
	row("query_gid", 50, query_gid);
	alloc_pd(0), dealloc_pd(0);
	row("alloc_pd", 50, alloc_pd);
	row("dealloc_pd", 50, dealloc_pd);
	reg_4k(0), dereg(0);
	row("reg_mr_4k", 50, reg_4k);
	row("dereg_mr_4k", 50, dereg);
	row("reg_mr_64m", 3, reg_64m);
	row("dereg_mr_64m", 3, dereg);
	create_cq(0), destroy_cq(0);
	row("create_cq", 20, create_cq);
	row("destroy_cq", 20, destroy_cq);
	create_qp(0), destroy_qp(0);
	row("create_qp", 20, create_qp);
	row("destroy_qp", 20, destroy_qp);
	for (long i = 0; i < 11; i++)
		create_qp(i);
	modify_rts(10);
	destroy_qp(10);
	row("modify_qp_rts", 10, modify_rts);
	for (long i = 0; i < 10; i++)
		destroy_qp(i);
	cq_events(20);
	async_events(3);

	ibv_destroy_cq(cq);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return 0;
}
