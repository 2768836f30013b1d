/* Diff program: fork protection (ibv_fork_init, ibv_is_fork_initialized,
 * ibv_dontfork_range, ibv_dofork_range). Prints return values, errno, and the
 * effect of the madvise calls as seen in /proc/self/smaps ("dc" in VmFlags,
 * one character per page: D = don't copy on fork, . = copied, - = unmapped),
 * and whether a forked child can touch the pages. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <infiniband/verbs.h>

/* Exported by libibverbs (IBVERBS_1.0) but declared in no installed header. */
int ibv_dontfork_range(void *base, size_t size);
int ibv_dofork_range(void *base, size_t size);

static long ps;

/* 'D', '.' or '-' for the page holding addr. */
static char page_flag(uintptr_t addr)
{
	char line[1024];
	int in = 0;
	char r = '-';
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return '?';
	while (fgets(line, sizeof(line), f)) {
		uintptr_t lo, hi;

		/* A mapping's header; field lines ("AnonHugePages:") never parse as two numbers. */
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2) {
			in = addr >= lo && addr < hi;
			continue;
		}
		if (in && !strncmp(line, "VmFlags:", 8)) {
			r = strstr(line, " dc") ? 'D' : '.';
			break;
		}
	}
	fclose(f);
	return r;
}

static void flags(const char *what, void *base, int pages)
{
	printf("  %s: ", what);
	for (int i = 0; i < pages; i++)
		putchar(page_flag((uintptr_t)base + i * ps));
	putchar('\n');
}

static void call(const char *what, int (*fn)(void *, size_t), void *base, size_t len)
{
	errno = 0;
	int r = fn(base, len);
	int e = errno;

	printf("%s = %d", what, r);
	if (r)
		printf(" errno %s", strerrorname_np(e));
	putchar('\n');
}

#define DONT(what, b, l) call("dontfork " what, ibv_dontfork_range, b, l)
#define DO(what, b, l) call("dofork " what, ibv_dofork_range, b, l)

/* Whether a child can write the first byte of each page. */
static void child_touch(const char *what, char *base, int pages)
{
	printf("  child %s: ", what);
	for (int i = 0; i < pages; i++) {
		fflush(stdout);
		pid_t pid = fork();
		int st;

		if (pid == 0) {
			base[i * ps] = 1;
			_exit(0);
		}
		waitpid(pid, &st, 0);
		putchar(WIFSIGNALED(st) ? (WTERMSIG(st) == SIGSEGV ? 'S' : 'K') : 'w');
	}
	putchar('\n');
}

static char *map(int pages)
{
	char *p = mmap(NULL, pages * ps, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	memset(p, 0, pages * ps);
	return p;
}

/* A range call before ibv_fork_init makes it fail. */
static void too_late(void)
{
	fflush(stdout);
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		char *p = map(1);

		printf("[child] dontfork before init = %d\n", ibv_dontfork_range(p, 1));
		flags("[child] page", p, 1);
		printf("[child] ibv_fork_init = %d\n", ibv_fork_init());
		printf("[child] status = %d\n", (int)ibv_is_fork_initialized());
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		printf("[child] dofork(NULL, 0) before init = %d\n", ibv_dofork_range(NULL, 0));
		printf("[child] ibv_fork_init = %d\n", ibv_fork_init());
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &st, 0);
}

int main(void)
{
	ps = sysconf(_SC_PAGESIZE);
	setvbuf(stdout, NULL, _IOLBF, 0);

	printf("status before = %d\n", (int)ibv_is_fork_initialized());
	too_late();
	printf("ibv_fork_init = %d\n", ibv_fork_init());
	printf("status after = %d\n", (int)ibv_is_fork_initialized());
	printf("ibv_fork_init again = %d\n", ibv_fork_init());
	if (ibv_is_fork_initialized() != IBV_FORK_ENABLED) {
		printf("fork protection not enabled; range calls are no-ops\n");
	}

	char *b = map(8);

	flags("fresh", b, 8);
	DONT("NULL", NULL, 100);
	DONT("size 0", b, 0);
	DO("NULL", NULL, 100);
	flags("after NULL/0", b, 8);

	DONT("A b+100 len 10", b + 100, 10);
	flags("A", b, 8);
	DONT("B b+ps+1 len 2ps", b + ps + 1, 2 * ps);
	flags("A+B", b, 8);
	child_touch("A+B", b, 8);
	DONT("C b+2ps len ps (inside B)", b + 2 * ps, ps);
	DO("A", b + 100, 10);
	flags("B+C", b, 8);
	DO("B", b + ps + 1, 2 * ps);
	flags("C", b, 8);
	DO("C", b + 2 * ps, ps);
	flags("none", b, 8);

	/* Adjacent ranges, then one release over all of them. */
	DONT("p4", b + 4 * ps, ps);
	DONT("p5", b + 5 * ps, ps);
	DONT("p6", b + 6 * ps, ps);
	flags("p4..p6", b, 8);
	DO("p5", b + 5 * ps, ps);
	flags("p4 p6", b, 8);
	DO("p4..p6", b + 4 * ps, 3 * ps);
	flags("p5 released twice", b, 8);
	DONT("p5 (count -1 -> 0)", b + 5 * ps, ps);
	flags("after", b, 8);
	DONT("p5 (0 -> 1)", b + 5 * ps, ps);
	flags("after", b, 8);
	DO("p5", b + 5 * ps, ps);
	flags("after", b, 8);

	/* Double release of a single range. */
	DONT("p7", b + 7 * ps, ps);
	DO("p7", b + 7 * ps, ps);
	DO("p7 again", b + 7 * ps, ps);
	DONT("p7 (count -1 -> 0)", b + 7 * ps, ps);
	flags("p7", b, 8);

	/* A malloc'd, unaligned buffer. */
	size_t ml = 3 * ps + 123;
	char *m = malloc(ml);
	uintptr_t m0 = (uintptr_t)m & ~(uintptr_t)(ps - 1);
	int mp = (int)(((uintptr_t)m + ml + ps - 1 - m0) / ps);

	DONT("malloc", m, ml);
	flags("malloc pages", (void *)m0, mp);
	DONT("malloc tail", m + ml - 1, 1);
	DO("malloc", m, ml);
	flags("malloc pages", (void *)m0, mp);
	DO("malloc tail", m + ml - 1, 1);
	flags("malloc pages", (void *)m0, mp);
	free(m);

	/* madvise failure: a hole in the range. */
	char *h = map(4);

	DONT("h1", h + ps, ps);
	munmap(h + 3 * ps, ps);
	DONT("h0..h3 (h3 unmapped)", h, 4 * ps);
	flags("h", h, 4);
	DO("h1", h + ps, ps);
	flags("h", h, 4);
	DO("h3 (unmapped, never advised)", h + 3 * ps, ps);

	/* DOFORK on memory unmapped after DONTFORK. */
	char *u = map(3);

	DONT("u0..u2", u, 3 * ps);
	munmap(u + ps, ps);
	DO("u0..u2 (u1 unmapped)", u, 3 * ps);
	flags("u", u, 3);
	return 0;
}
