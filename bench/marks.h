/* The measuring brackets bench/host.c and bench/vm.c share (bench/run builds both; not a test).
 *
 * on(LABEL) .. off(LABEL) brackets a measured stretch with CALLGRIND_TOGGLE_COLLECT (bench/run
 * runs callgrind with --collect-atstart=no, so collection is off elsewhere); dump(LABEL, N) writes
 * what was collected since the last dump under LABEL and prints "calls LABEL N" (nothing for
 * N < 0), which bench/run divides by. On the uverbs emulator on/off also tell it collection is on
(uvemu_bench_collect), so that it takes its own work, the kernel's stand-in, out. With `marks` set (option -m), on/off also make the system
 * calls access("/@bench/begin/LABEL") and access("/@bench/end/LABEL"), outside the collected
 * stretch, which show in an strace log: bench/run counts the system calls between them. Outside
 * valgrind the client requests do nothing. */
#ifndef BENCH_MARKS_H
#define BENCH_MARKS_H

#include <dlfcn.h>
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

/* On the uverbs emulator (tests/providers/emu) its work stands for the kernel's, which callgrind
 * does not count: it is told when collection is on and takes itself out of it. */
static void emulator_collecting(int on)
{
	static void (*hook)(int);
	static int looked;

	if (!looked) {
		hook = (void (*)(int))dlsym(RTLD_DEFAULT, "uvemu_bench_collect");
		looked = 1;
	}
	if (hook)
		hook(on);
}

static void on(const char *label)
{
	mark("begin", label);
	emulator_collecting(1);
	CALLGRIND_TOGGLE_COLLECT;
}

static void off(const char *label)
{
	CALLGRIND_TOGGLE_COLLECT;
	emulator_collecting(0);
	mark("end", label);
}

static void dump(const char *label, long calls)
{
	CALLGRIND_DUMP_STATS_AT(label);
	if (calls >= 0)
		printf("calls %s %ld\n", label, calls);
}

#endif
