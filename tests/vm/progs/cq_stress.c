/* Stress (not a behaviour probe): THREADS threads (default 8) for SECONDS (default 3) on one rxe0
 * context create and destroy completion channels and CQs (own channel, a shared channel, none),
 * arm and resize them, poll their non-blocking channels (EAGAIN), acknowledge (zero) completion
 * events, and register/unregister overlapping fork ranges of one shared buffer; an event thread
 * flaps dummy0 once (down, up) and acknowledges the port events. A watchdog ends a hang (exit 3).
 * Prints only what must hold: no unexpected result, both port events seen, the shared channel
 * back to refcnt 0, no fd left behind.
 *
 * Built for ThreadSanitizer too (tests/vm/tsan). With STRESS_NO_COPY_ON_FORK=1 in the environment
 * the program refuses RDMA netlink sockets (it defines socket(), which the libraries resolve to),
 * so neither library learns that the kernel copies pinned pages on fork: fork protection is then
 * really enabled and the ranges reach madvise() under both. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
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

/* Exported by libibverbs for providers (infiniband/driver.h). */
int ibv_dontfork_range(void *base, size_t size);
int ibv_dofork_range(void *base, size_t size);

int socket(int domain, int type, int protocol)
{
	const char *e = getenv("STRESS_NO_COPY_ON_FORK");
	if (e && *e == '1' && domain == AF_NETLINK && protocol == NETLINK_RDMA) {
		errno = EPROTONOSUPPORT;
		return -1;
	}
	return syscall(SYS_socket, domain, type, protocol);
}

#define PAGES 64
static struct ibv_context *ctx;
static struct ibv_comp_channel *shared_ch;
static char *fork_buf;
static long page;
static atomic_int stop, errors, total_iters, port_err, port_active, min_iters = 1 << 30;
static char first_error[256];
static pthread_mutex_t err_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, int r, int e)
{
	pthread_mutex_lock(&err_lock);
	if (!errors++)
		snprintf(first_error, sizeof first_error, "%s: %d (errno %d)", what, r, e);
	pthread_mutex_unlock(&err_lock);
}

static unsigned rnd(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void *worker(void *arg)
{
	unsigned seed = (unsigned)(long)arg * 7919u + 1;
	int iters = 0;
	while (!atomic_load(&stop)) {
		struct ibv_comp_channel *own = ibv_create_comp_channel(ctx);
		if (!own) {
			fail("create_comp_channel", 0, errno);
			break;
		}
		fcntl(own->fd, F_SETFL, fcntl(own->fd, F_GETFL) | O_NONBLOCK);
		struct ibv_cq *cq[3];
		int n = 1 + rnd(&seed) % 3;
		for (int i = 0; i < n; i++) {
			struct ibv_comp_channel *ch = i == 0 ? own : i == 1 ? shared_ch : NULL;
			cq[i] = ibv_create_cq(ctx, 1 + rnd(&seed) % 64, &cq[i], ch, 0);
			if (!cq[i]) {
				fail("create_cq", 0, errno);
				n = i;
				break;
			}
			int r = ibv_req_notify_cq(cq[i], i & 1);
			if (r)
				fail("req_notify_cq", r, errno);
		}
		if (n > 0) {
			int r = ibv_resize_cq(cq[0], 1 + rnd(&seed) % 128);
			if (r)
				fail("resize_cq", r, errno);
		}
		struct ibv_cq *ecq;
		void *ectx;
		if (ibv_get_cq_event(own, &ecq, &ectx) != -1 || errno != EAGAIN)
			fail("get_cq_event on an idle channel", 0, errno);
		/* Overlapping ranges of the shared buffer, released in reverse order. */
		size_t a = rnd(&seed) % (PAGES / 2), b = rnd(&seed) % (PAGES / 2);
		size_t la = 1 + rnd(&seed) % (PAGES / 2 * page), lb = 1 + rnd(&seed) % (PAGES / 2 * page);
		if (ibv_dontfork_range(fork_buf + a * page + 1, la))
			fail("dontfork_range", -1, errno);
		if (ibv_dontfork_range(fork_buf + b * page, lb))
			fail("dontfork_range", -1, errno);
		for (int i = 0; i < n; i++)
			ibv_ack_cq_events(cq[i], 0);
		if (ibv_dofork_range(fork_buf + b * page, lb))
			fail("dofork_range", -1, errno);
		if (ibv_dofork_range(fork_buf + a * page + 1, la))
			fail("dofork_range", -1, errno);
		if (n > 0) {
			int r = ibv_destroy_comp_channel(own);
			if (r != EBUSY)
				fail("destroy_comp_channel in use", r, errno);
		}
		for (int i = n - 1; i >= 0; i--) {
			int r = ibv_destroy_cq(cq[i]);
			if (r)
				fail("destroy_cq", r, errno);
		}
		int r = ibv_destroy_comp_channel(own);
		if (r)
			fail("destroy_comp_channel", r, errno);
		iters++;
	}
	total_iters += iters;
	int m = atomic_load(&min_iters);
	while (iters < m && !atomic_compare_exchange_weak(&min_iters, &m, iters))
		;
	return NULL;
}

/* Wait up to ms for async events; ack them; count port events. */
static void take_events(int ms)
{
	struct pollfd p = { .fd = ctx->async_fd, .events = POLLIN };
	while (poll(&p, 1, ms) > 0) {
		struct ibv_async_event ev;
		if (ibv_get_async_event(ctx, &ev)) {
			if (errno != EAGAIN)
				fail("get_async_event", -1, errno);
			return;
		}
		if (ev.event_type == IBV_EVENT_PORT_ERR)
			port_err++;
		if (ev.event_type == IBV_EVENT_PORT_ACTIVE)
			port_active++;
		ibv_ack_async_event(&ev);
		ms = 0;
	}
}

static void *events(void *arg)
{
	(void)arg;
	usleep(300000);
	if (system("ip link set dummy0 down"))
		fail("ip link set dummy0 down", -1, 0);
	for (int i = 0; i < 300 && !port_err; i++)
		take_events(100);
	if (system("ip link set dummy0 up"))
		fail("ip link set dummy0 up", -1, 0);
	for (int i = 0; i < 300 && !port_active; i++)
		take_events(100);
	while (!atomic_load(&stop))
		take_events(100);
	return NULL;
}

static int count_fds(void)
{
	int n = 0;
	DIR *d = opendir("/proc/self/fd");
	for (struct dirent *e; d && (e = readdir(d));)
		n += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

static void watchdog(int sig)
{
	(void)sig;
	static const char m[] = "watchdog: no progress (deadlock?)\n";
	write(1, m, sizeof m - 1);
	_exit(3);
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 8;
	int seconds = argc > 2 ? atoi(argv[2]) : 3;
	signal(SIGALRM, watchdog);
	alarm(seconds + 120);
	setvbuf(stdout, NULL, _IOLBF, 0);
	page = sysconf(_SC_PAGESIZE);
	printf("fork_init: %d\n", ibv_fork_init());
	/* With copy-on-fork visible, rdma-core 44 enables protection anyway and v51+ (and ours)
	 * report it unneeded: the status is only compared with it hidden. */
	static const char *fs[] = { "DISABLED", "ENABLED", "UNNEEDED" };
	enum ibv_fork_status st = ibv_is_fork_initialized();
	const char *e = getenv("STRESS_NO_COPY_ON_FORK");
	if (e && *e == '1')
		printf("fork protection: %s\n", st <= IBV_FORK_UNNEEDED ? fs[st] : "?");
	fork_buf = mmap(NULL, PAGES * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct ibv_device **l = ibv_get_device_list(NULL);
	for (int i = 0; l && l[i]; i++)
		if (!strcmp(ibv_get_device_name(l[i]), "rxe0"))
			ctx = ibv_open_device(l[i]);
	ibv_free_device_list(l);
	if (!ctx) {
		printf("cannot open rxe0\n");
		return 1;
	}
	fcntl(ctx->async_fd, F_SETFL, fcntl(ctx->async_fd, F_GETFL) | O_NONBLOCK);
	shared_ch = ibv_create_comp_channel(ctx);
	int fds = count_fds();
	pthread_t t[64], ev;
	if (threads > 64)
		threads = 64;
	pthread_create(&ev, NULL, events, NULL);
	for (long i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	sleep(seconds);
	/* Keep going until the port is back, so the flap always completes. */
	for (int i = 0; i < 600 && !port_active; i++)
		usleep(100000);
	atomic_store(&stop, 1);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	pthread_join(ev, NULL);
	printf("threads %d: every thread iterated: %d\n", threads, min_iters > 0);
	if (getenv("STRESS_VERBOSE"))
		fprintf(stderr, "iterations: %d in all, %d at least per thread\n", total_iters,
			min_iters);
	printf("unexpected results: %d%s%s\n", errors, errors ? ", first " : "", first_error);
	printf("port events: PORT_ERR %d PORT_ACTIVE %d\n", port_err > 0, port_active > 0);
	int refcnt = shared_ch->refcnt;
	printf("shared channel refcnt %d, destroy %d\n", refcnt, ibv_destroy_comp_channel(shared_ch));
	printf("fds left behind: %d\n", count_fds() - (fds - 1));
	printf("close: %d\n", ibv_close_device(ctx));
	return errors != 0;
}
