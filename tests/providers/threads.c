/* Threads on the verbs library, for valgrind's helgrind and DRD (tests/providers/run --threads),
 * on the uverbs emulator's device (the emulator raises the events: uvemu_comp_event,
 * uvemu_async_event):
 *
 *   threads events    completion events of one CQ and port events, raised, read and acknowledged
 *                     from several threads at once; the CQ is destroyed after (it waits for the acks)
 *   threads fork      ibv_fork_init, then threads registering and deregistering memory while the
 *                     main thread forks (the child lists devices and exits)
 *   threads devlist   threads listing devices, opening and closing the first, freeing the list
 *
 * Prints a summary (the same under every library); exits non-zero when a verb fails.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define THREADS 4
#define ROUNDS 25

static struct ibv_context *ctx;
static struct ibv_comp_channel *ch;
static struct ibv_cq *cq;
static int (*comp_event)(int, uint32_t);
static int (*async_event)(int, uint32_t, uint16_t, uint32_t);
static int failures;
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, int e)
{
	pthread_mutex_lock(&fail_lock);
	failures++;
	fprintf(stderr, "threads: %s: %s\n", what, strerror(e));
	pthread_mutex_unlock(&fail_lock);
}

static void *cq_events(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		struct ibv_cq *ecq;
		void *ectx;

		if (comp_event(ctx->cmd_fd, cq->handle)) {
			fail("raise a completion event", EIO);
			continue;
		}
		if (ibv_get_cq_event(ch, &ecq, &ectx)) {
			fail("ibv_get_cq_event", errno);
			continue;
		}
		if (ecq != cq)
			fail("ibv_get_cq_event: another CQ", EINVAL);
		ibv_ack_cq_events(ecq, 1);
		if (ibv_req_notify_cq(cq, 0))
			fail("ibv_req_notify_cq", errno);
	}
	return NULL;
}

static void *port_events(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		struct ibv_async_event ev;

		if (async_event(ctx->cmd_fd, IBV_EVENT_PORT_ACTIVE, 0, 1)) {
			fail("raise a port event", EIO);
			continue;
		}
		if (ibv_get_async_event(ctx, &ev)) {
			fail("ibv_get_async_event", errno);
			continue;
		}
		if (ev.event_type != IBV_EVENT_PORT_ACTIVE || ev.element.port_num != 1)
			fail("ibv_get_async_event: another event", EINVAL);
		ibv_ack_async_event(&ev);
	}
	return NULL;
}

static int open_first(void)
{
	struct ibv_device **l = ibv_get_device_list(NULL);

	if (!l || !l[0]) {
		fprintf(stderr, "threads: no device\n");
		return -1;
	}
	ctx = ibv_open_device(l[0]);
	ibv_free_device_list(l);
	if (!ctx) {
		fprintf(stderr, "threads: ibv_open_device: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static int events(void)
{
	pthread_t t[2 * THREADS];
	int ret;

	comp_event = (int (*)(int, uint32_t))dlsym(RTLD_DEFAULT, "uvemu_comp_event");
	async_event = (int (*)(int, uint32_t, uint16_t, uint32_t))dlsym(RTLD_DEFAULT, "uvemu_async_event");
	if (!comp_event || !async_event) {
		fprintf(stderr, "threads: not on the uverbs emulator\n");
		return 2;
	}
	if (open_first())
		return 1;
	ch = ibv_create_comp_channel(ctx);
	cq = ch ? ibv_create_cq(ctx, 64, NULL, ch, 0) : NULL;
	if (!cq || ibv_req_notify_cq(cq, 0)) {
		fprintf(stderr, "threads: no CQ: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_create(&t[i], NULL, cq_events, NULL);
		pthread_create(&t[THREADS + i], NULL, port_events, NULL);
	}
	for (int i = 0; i < 2 * THREADS; i++)
		pthread_join(t[i], NULL);
	ret = ibv_destroy_cq(cq);
	if (ret)
		fail("ibv_destroy_cq", ret);
	ret = ibv_destroy_comp_channel(ch);
	if (ret)
		fail("ibv_destroy_comp_channel", ret);
	if (ibv_close_device(ctx))
		fail("ibv_close_device", errno);
	printf("events: %d completion and %d port events in %d threads, %d failures\n",
	       THREADS * ROUNDS, THREADS * ROUNDS, 2 * THREADS, failures);
	return failures != 0;
}

static struct ibv_pd *pd;

static void *register_memory(void *arg)
{
	char *buf = arg;

	for (int i = 0; i < ROUNDS; i++) {
		struct ibv_mr *mr = ibv_reg_mr(pd, buf + (i % 4) * 4096, 4096, IBV_ACCESS_LOCAL_WRITE);

		if (!mr) {
			fail("ibv_reg_mr", errno);
			continue;
		}
		if (ibv_dereg_mr(mr))
			fail("ibv_dereg_mr", errno);
	}
	return NULL;
}

static int fork_threads(void)
{
	pthread_t t[THREADS];
	char *bufs[THREADS];
	int ret = ibv_fork_init();

	if (ret)
		fail("ibv_fork_init", ret);
	if (open_first())
		return 1;
	pd = ibv_alloc_pd(ctx);
	if (!pd) {
		fprintf(stderr, "threads: ibv_alloc_pd: %s\n", strerror(errno));
		return 1;
	}
	for (int i = 0; i < THREADS; i++) {
		bufs[i] = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		pthread_create(&t[i], NULL, register_memory, bufs[i]);
	}
	for (int i = 0; i < 8; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			struct ibv_device **l = ibv_get_device_list(NULL);

			if (l)
				ibv_free_device_list(l);
			_exit(l ? 0 : 1);
		}
		if (pid > 0) {
			int st;

			waitpid(pid, &st, 0);
			if (!WIFEXITED(st) || WEXITSTATUS(st))
				fail("the child", ECHILD);
		}
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		munmap(bufs[i], 4 * 4096);
	}
	if (ibv_dealloc_pd(pd))
		fail("ibv_dealloc_pd", errno);
	if (ibv_close_device(ctx))
		fail("ibv_close_device", errno);
	printf("fork: %d registrations in %d threads, 8 forks, %d failures\n", THREADS * ROUNDS, THREADS,
	       failures);
	return failures != 0;
}

static void *list_devices(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		int n = -1;
		struct ibv_device **l = ibv_get_device_list(&n);
		struct ibv_context *c;

		if (!l || n < 1) {
			fail("ibv_get_device_list", errno);
			continue;
		}
		c = ibv_open_device(l[0]);
		if (!c)
			fail("ibv_open_device", errno);
		else if (ibv_close_device(c))
			fail("ibv_close_device", errno);
		ibv_free_device_list(l);
	}
	return NULL;
}

static int devlist(void)
{
	pthread_t t[THREADS];

	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, list_devices, NULL);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	printf("devlist: %d lists, opens and closes in %d threads, %d failures\n", THREADS * ROUNDS, THREADS,
	       failures);
	return failures != 0;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(what, "events"))
		return events();
	if (!strcmp(what, "fork"))
		return fork_threads();
	if (!strcmp(what, "devlist"))
		return devlist();
	fprintf(stderr, "usage: threads events|fork|devlist\n");
	return 2;
}
