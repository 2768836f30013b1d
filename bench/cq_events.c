/* Benchmark body (bench/cq-events): per-call cost of fork-range pairs and CQ event calls on rxe0,
 * under whichever libibverbs the loader picks. Prints "metric nanoseconds-per-op", each the median
 * of 3 timed rounds (--warmup: one short round each, output to be discarded). With --hide-cof the program refuses RDMA netlink sockets (it defines
 * socket()), so the library cannot learn that the kernel copies pinned pages on fork and really
 * enables fork protection (rdma-core 44 does so anyway; v51+ and ours otherwise skip it). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <infiniband/verbs.h>

int ibv_dontfork_range(void *base, size_t size);
int ibv_dofork_range(void *base, size_t size);

static int hide_cof;

int socket(int domain, int type, int protocol)
{
	if (hide_cof && domain == AF_NETLINK && protocol == NETLINK_RDMA) {
		errno = EPROTONOSUPPORT;
		return -1;
	}
	return syscall(SYS_socket, domain, type, protocol);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e9 + t.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#define ROUNDS 3
#define TIME(name, n, body)                                                    \
	do {                                                                   \
		double r[ROUNDS];                                              \
		for (int k = 0; k < ROUNDS; k++) {                             \
			double t0 = now();                                     \
			for (long i = 0; i < (n); i++) {                       \
				body;                                          \
			}                                                      \
			r[k] = (now() - t0) / (n);                             \
		}                                                              \
		qsort(r, ROUNDS, sizeof r[0], cmp);                            \
		printf("%s %.1f\n", name, r[ROUNDS / 2]);                      \
	} while (0)

int main(int argc, char **argv)
{
	hide_cof = argc > 1 && !strcmp(argv[1], "--hide-cof");
	long scale = argc > 1 && !strcmp(argv[1], "--warmup") ? 100 : 1;
	long page = sysconf(_SC_PAGESIZE);
	if (ibv_fork_init())
		return 1;
	fprintf(stderr, "fork protection: %d\n", ibv_is_fork_initialized());
	struct ibv_device **l = ibv_get_device_list(NULL);
	struct ibv_context *c = NULL;
	for (int i = 0; l && l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), "rxe0"))
			c = ibv_open_device(l[i]);
	if (!c)
		return 1;

	/* 100k dontfork/dofork pairs of 4 pages, sliding over 64 pages, next to 32 other
	 * registered ranges (so the range tracker is not empty). */
	char *buf = mmap(NULL, 160 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	for (int i = 0; i < 32; i++)
		ibv_dontfork_range(buf + (96 + 2 * i) * page, page);
	long bad = 0;
	TIME("fork_range_pair", 100000 / scale, {
		char *p = buf + (i % 61) * page;
		bad += ibv_dontfork_range(p, 4 * page) != 0;
		bad += ibv_dofork_range(p, 4 * page) != 0;
	});
	if (bad)
		fprintf(stderr, "fork range failures: %ld\n", bad);

	struct ibv_comp_channel *ch = ibv_create_comp_channel(c);
	fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK);
	struct ibv_cq *cq = ibv_create_cq(c, 64, NULL, ch, 0);
	if (!cq)
		return 1;
	TIME("req_notify_cq", 10000 / scale, ibv_req_notify_cq(cq, 0));
	struct ibv_cq *ecq;
	void *ectx;
	TIME("get_cq_event_eagain", 10000 / scale, ibv_get_cq_event(ch, &ecq, &ectx));
	TIME("create_destroy_cq", 300 / scale + 1, {
		struct ibv_cq *x = ibv_create_cq(c, 64, NULL, ch, 0);
		if (x)
			ibv_destroy_cq(x);
	});
	/* Without a QP there are no real completions: ack on a CQ that got none. Its destroy
	 * would then wait for ever, so it is left to ibv_close_device. */
	TIME("ack_cq_events_1", 1000000 / scale, ibv_ack_cq_events(cq, 1));
	ibv_close_device(c);
	return 0;
}
