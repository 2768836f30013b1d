/* The measuring brackets bench/host.c and bench/vm.c share (bench/run builds both; not a test).
 *
 * on(LABEL) .. off(LABEL) brackets a measured stretch with CALLGRIND_TOGGLE_COLLECT (bench/run
 * runs callgrind with --collect-atstart=no, so collection is off elsewhere); dump(LABEL, N) writes
 * what was collected since the last dump under LABEL and prints "calls LABEL N" (nothing for
 * N < 0), which bench/run divides by. With `marks` set (option -m), on/off also make the system
 * calls access("/@bench/begin/LABEL") and access("/@bench/end/LABEL"), outside the collected
 * stretch, which show in an strace log: bench/run counts the system calls between them. Outside
 * valgrind the client requests do nothing. */
#ifndef BENCH_MARKS_H
#define BENCH_MARKS_H

#include <stdio.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

static int marks;

/* A system call strace shows with its path. */
static void mark(const char *what, const char *label)
{
	char path[160];

	if (!marks)
		return;
	snprintf(path, sizeof(path), "/@bench/%s/%s", what, label);
	(void)access(path, F_OK);
}

static void on(const char *label)
{
	mark("begin", label);
	CALLGRIND_TOGGLE_COLLECT;
}

static void off(const char *label)
{
	CALLGRIND_TOGGLE_COLLECT;
	mark("end", label);
}

static void dump(const char *label, long calls)
{
	CALLGRIND_DUMP_STATS_AT(label);
	if (calls >= 0)
		printf("calls %s %ld\n", label, calls);
}

#endif
