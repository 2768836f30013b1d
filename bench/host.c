/* Benchmark driver (not a test) for the host part of `make bench` (bench/run host): the calls
 * whose user-space instructions bench/run counts under callgrind, with the system libibverbs
 * and with ours. Built against the installed rdma-core headers and valgrind's callgrind.h.
 *
 *   bench_host [-m] devlist K              cold first ibv_get_device_list; then K warm list+free
 *   bench_host [-m] fork KIND N            N ranges of KIND (distinct, overlap, adjacent)
 *   bench_host [-m] strings R              each string/rate helper over its inputs, R rounds
 *
 * Every measured section runs twice: with the library's functions, then the same loop with
 * empty functions of the same type in their place (the harness). Each run is bracketed by
 * CALLGRIND_TOGGLE_COLLECT (collection is off outside: bench/run passes --collect-atstart=no)
 * and dumped under its label with CALLGRIND_DUMP_STATS_AT; bench/run subtracts the harness dump
 * from the library's and divides by the number of calls. The program prints one line per
 * section, "calls LABEL N" (N: library calls in it). Outside valgrind the client requests do
 * nothing. -m brackets each measured section with access("/@bench/begin/LABEL") and
 * access("/@bench/end/LABEL"), which show in an strace log, so bench/run can count the system
 * calls in between (the harness run makes none).
 *
 * fork: ibv_fork_init first; the program refuses RDMA netlink sockets (it defines socket()) so
 * that neither library can learn that the kernel copies pinned pages on fork: fork protection
 * is on in both (rdma-core 44 turns it on regardless). Ranges are page-sized and page-aligned
 * on a fresh anonymous mapping, called in address order, all dontfork calls then all dofork:
 *   distinct  N one-page ranges on every other page, inside one range already held over the
 *             whole mapping (taken before the measured section): every call moves a page's
 *             count between 1 and 2 and advises nothing. The tracker holds up to 2N+1 runs.
 *             (Without the covering range each call would split the mapping: 2N mappings pass
 *             the kernel's default vm.max_map_count of 65,530 before N = 100k.)
 *   overlap   N three-page ranges at a two-page stride (each shares its last page with the
 *             next one's first), inside the covering range: counts 2 and 3 alternate.
 *   adjacent  N one-page ranges on consecutive pages, no covering range: every call advises
 *             its page (madvise DONTFORK, then DOFORK); the tracker stays at three runs.
 * Two sections: "calls" (2N calls) and "harness". */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <infiniband/verbs.h>
#include "marks.h"

/* Exported by libibverbs (IBVERBS_1.0) but declared in no installed header. */
int ibv_dontfork_range(void *base, size_t size);
int ibv_dofork_range(void *base, size_t size);


int socket(int domain, int type, int protocol)
{
	if (domain == AF_NETLINK && protocol == NETLINK_RDMA) {
		errno = EPROTONOSUPPORT;
		return -1;
	}
	return syscall(SYS_socket, domain, type, protocol);
}

static void die(const char *what)
{
	fprintf(stderr, "bench_host: %s\n", what);
	exit(1);
}

/* A measured stretch ends: collection off, dumped under its label. */
static void end(const char *label, long calls)
{
	off(label);
	dump(label, calls);
}

/* ---- device list ---- */

typedef struct ibv_device **(*list_fn)(int *);
typedef void (*free_fn)(struct ibv_device **);

static struct ibv_device *nop_devs[1];

__attribute__((noinline)) static struct ibv_device **nop_list(int *n)
{
	*n = 0;
	return nop_devs;
}

__attribute__((noinline)) static void nop_free(struct ibv_device **l)
{
	(void)l;
}

__attribute__((noinline)) static int warm_loop(list_fn list, free_fn fr, long k)
{
	int n = 0;

	for (long i = 0; i < k; i++) {
		struct ibv_device **l = list(&n);

		if (!l)
			die("ibv_get_device_list failed");
		fr(l);
	}
	return n;
}

static int devlist(long k)
{
	list_fn volatile list = ibv_get_device_list, nlist = nop_list;
	free_fn volatile fr = ibv_free_device_list, nfr = nop_free;
	struct ibv_device **l;
	int n = 0, unused;

	on("cold");
	l = list(&n);
	end("cold", 1);
	on("cold.harness");
	nlist(&unused);
	end("cold.harness", -1);
	if (!l)
		die("ibv_get_device_list failed");
	printf("devices %d\n", n);
	ibv_free_device_list(l);
	warm_loop(list, fr, 1); /* the first warm call may still settle state */
	on("warm");
	warm_loop(list, fr, k);
	end("warm", k);
	on("warm.harness");
	warm_loop(nlist, nfr, k);
	end("warm.harness", -1);
	return 0;
}

/* ---- fork ranges ---- */

typedef int (*range_fn)(void *, size_t);

__attribute__((noinline)) static int nop_range(void *base, size_t size)
{
	(void)base;
	(void)size;
	return 0;
}

/* N calls of fn over the ranges of kind (first page, pages, stride). */
__attribute__((noinline)) static int range_loop(range_fn fn, char *b, long ps, long n, long pages,
						long stride, long first)
{
	int bad = 0;

	for (long i = 0; i < n; i++)
		bad |= fn(b + (first + i * stride) * ps, pages * ps);
	return bad;
}

static int fork_ranges(const char *kind, long n)
{
	range_fn volatile dont = ibv_dontfork_range, dofk = ibv_dofork_range, nop = nop_range;
	long ps = sysconf(_SC_PAGESIZE), pages, stride, first, total;
	int cover, bad = 0;
	char *b;

	if (!strcmp(kind, "distinct")) {
		pages = 1, stride = 2, first = 1, cover = 1;
	} else if (!strcmp(kind, "overlap")) {
		pages = 3, stride = 2, first = 1, cover = 1;
	} else if (!strcmp(kind, "adjacent")) {
		pages = 1, stride = 1, first = 0, cover = 0;
	} else {
		die("unknown fork kind");
	}
	if (ibv_fork_init())
		die("ibv_fork_init failed");
	if (ibv_is_fork_initialized() != IBV_FORK_ENABLED)
		die("fork protection is not enabled");
	total = first + (n - 1) * stride + pages + 1;
	b = mmap(NULL, total * ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED)
		die("mmap failed");
	if (cover && ibv_dontfork_range(b, total * ps))
		die("covering ibv_dontfork_range failed");
	on("calls");
	bad |= range_loop(dont, b, ps, n, pages, stride, first);
	bad |= range_loop(dofk, b, ps, n, pages, stride, first);
	end("calls", 2 * n);
	on("harness");
	range_loop(nop, b, ps, n, pages, stride, first);
	range_loop(nop, b, ps, n, pages, stride, first);
	end("harness", -1);
	if (bad)
		die("a range call failed");
	if (cover && ibv_dofork_range(b, total * ps))
		die("covering ibv_dofork_range failed");
	return 0;
}

/* ---- string and rate helpers ---- */

typedef const char *(*str_fn)(int);
typedef int (*int_fn)(int);

__attribute__((noinline)) static const char *nop_str(int v)
{
	(void)v;
	return "";
}

__attribute__((noinline)) static int nop_int(int v)
{
	return v;
}

/* Inputs: every value rdma-core names plus a few outside (negative, one past, large). */
static const int wc_status_in[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
				    17, 18, 19, 20, 21, 22, 23, -1, 24, 1000 };
static const int event_in[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
				18, 19, -1, 20, 1000 };
static const int node_in[] = { -1, 0, 1, 2, 3, 4, 5, 6, 7, 1000 };
static const int port_in[] = { 0, 1, 2, 3, 4, 5, 6, -1, 1000 };
static const int rate_in[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18,
			       19, 20, 21, 22, 23, -1, 24, 1000 };
static const int mult_in[] = { 0, 1, 2, 4, 8, 10, 12, 14, 16, 20, 24, 28, 30, 32, 40, 48, 56, 64,
			       80, 96, 112, 128, 160, 192, 240, 320, 480, 3, -1, 1000 };
static const int mbps_in[] = { 0, 2500, 5000, 10000, 14062, 20000, 25000, 25781, 28125, 30000,
			       40000, 50000, 53125, 56250, 60000, 80000, 100000, 103125, 106250,
			       112500, 120000, 168750, 200000, 212500, 225000, 300000, 400000,
			       600000, 800000, 1200000, 1, -1 };

#define N_OF(a) ((long)(sizeof(a) / sizeof((a)[0])))

__attribute__((noinline)) static long str_loop(str_fn fn, const int *in, long n, long rounds)
{
	long sum = 0;

	for (long r = 0; r < rounds; r++)
		for (long i = 0; i < n; i++)
			sum += (long)(fn(in[i]) != NULL);
	return sum;
}

__attribute__((noinline)) static long int_loop(int_fn fn, const int *in, long n, long rounds)
{
	long sum = 0;

	for (long r = 0; r < rounds; r++)
		for (long i = 0; i < n; i++)
			sum += fn(in[i]);
	return sum;
}

static void str_row(const char *name, str_fn fn, const int *in, long n, long rounds)
{
	str_fn volatile f = fn, nop = nop_str;
	char h[64];

	f(in[0]); /* nothing first-call-only in the row */
	on(name);
	str_loop(f, in, n, rounds);
	end(name, n * rounds);
	snprintf(h, sizeof(h), "%s.harness", name);
	on(h);
	str_loop(nop, in, n, rounds);
	end(h, -1);
}

static void int_row(const char *name, int_fn fn, const int *in, long n, long rounds)
{
	int_fn volatile f = fn, nop = nop_int;
	char h[64];

	f(in[0]);
	on(name);
	int_loop(f, in, n, rounds);
	end(name, n * rounds);
	snprintf(h, sizeof(h), "%s.harness", name);
	on(h);
	int_loop(nop, in, n, rounds);
	end(h, -1);
}

static int strings(long rounds)
{
	/* The enum parameters are int-sized: calling through an int signature is the C ABI's. */
	str_row("ibv_wc_status_str", (str_fn)(void *)ibv_wc_status_str, wc_status_in,
		N_OF(wc_status_in), rounds);
	str_row("ibv_event_type_str", (str_fn)(void *)ibv_event_type_str, event_in,
		N_OF(event_in), rounds);
	str_row("ibv_node_type_str", (str_fn)(void *)ibv_node_type_str, node_in, N_OF(node_in),
		rounds);
	str_row("ibv_port_state_str", (str_fn)(void *)ibv_port_state_str, port_in, N_OF(port_in),
		rounds);
	int_row("ibv_rate_to_mult", (int_fn)(void *)ibv_rate_to_mult, rate_in, N_OF(rate_in),
		rounds);
	int_row("mult_to_ibv_rate", (int_fn)(void *)mult_to_ibv_rate, mult_in, N_OF(mult_in),
		rounds);
	int_row("ibv_rate_to_mbps", (int_fn)(void *)ibv_rate_to_mbps, rate_in, N_OF(rate_in),
		rounds);
	int_row("mbps_to_ibv_rate", (int_fn)(void *)mbps_to_ibv_rate, mbps_in, N_OF(mbps_in),
		rounds);
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (i < argc && !strcmp(argv[i], "-m"))
		marks = 1, i++;
	if (i >= argc)
		die("usage: bench_host [-m] devlist K | fork KIND N | strings R");
	if (!strcmp(argv[i], "devlist") && i + 1 < argc)
		return devlist(atol(argv[i + 1]));
	if (!strcmp(argv[i], "fork") && i + 2 < argc)
		return fork_ranges(argv[i + 1], atol(argv[i + 2]));
	if (!strcmp(argv[i], "strings") && i + 1 < argc)
		return strings(atol(argv[i + 1]));
	die("usage: bench_host [-m] devlist K | fork KIND N | strings R");
	return 2;
}
