/* The bad-input sweep: call every export of the libibverbs this program is linked with (the
 * system library or ours, picked by LD_LIBRARY_PATH) with NULL, zeroed, garbage-filled and
 * out-of-range arguments, each call in a forked child with a deadline, and print one line per
 * call:
 *
 *     SYMBOL<TAB>PATTERN<TAB>OUTCOME<TAB>DETAIL
 *
 * OUTCOME is `ret` (returned: DETAIL is the value and errno), `crash` (SIGSEGV, SIGBUS, SIGILL,
 * SIGFPE), `abort` (SIGABRT), `hang` (killed at the deadline), `exit` (the child called exit)
 * or `signal` (another signal). For a signal, DETAIL is the signal and the first line the child
 * wrote to stderr (a Rust panic or allocation-failure message, glibc's heap check, ...).
 *
 * usage: sweep EXPORTS_FILE [--jobs N] [--timeout SECONDS] [--only SYMBOL]
 *
 * The prototype table (exports.txt) gives each parameter a kind; each kind has a few variants
 * (ptr: null, zero, garbage, ones; int: 0, -1, max, min, garbage; ...). The patterns per export
 * are: every parameter at its null / zero / garbage / ones / max / huge variant at once, then
 * each parameter alone at each of its variants with the others at their base (zeroed buffers,
 * a real string, 0). Pointer variants point 8 KiB into their own 128 KiB buffer, so reads at
 * negative offsets (verbs_context before ibv_context) see the same bytes. The buffers are
 * filled once in the parent; every child sees a fresh copy. A symbol the library lacks prints
 * one `absent` line. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/verbs.h> /* links -libverbs: the library under test is the one loaded */

#define MAX_PARAMS 12
#define BUF_SIZE (128 * 1024)
#define BUF_OFFSET (8 * 1024)

enum kind { K_PTR, K_STR, K_INT, K_UINT, K_U8, K_U16, K_U64, K_SIZE, K_FD, K_FN };

struct param {
	char name[64];
	enum kind kind;
	char real[256]; /* K_STR: the value that reaches the function's work */
};

struct export {
	char sym[128];
	char name[96];
	char version[32];
	char ret[8];
	int nparams;
	int variadic;
	struct param p[MAX_PARAMS];
};

/* Variant names of each kind; index 0 is the base a parameter takes when another one varies. */
static const char *const variants[][8] = {
	[K_PTR] = { "zero", "null", "garbage", "ones", NULL },
	[K_STR] = { "real", "null", "empty", "garbage", "long", NULL },
	[K_INT] = { "0", "-1", "max", "min", "garbage", NULL },
	[K_UINT] = { "0", "1", "max", "garbage", NULL },
	[K_U8] = { "0", "1", "max", "garbage", NULL },
	[K_U16] = { "0", "1", "max", "garbage", NULL },
	[K_U64] = { "0", "1", "max", "garbage", NULL },
	[K_SIZE] = { "0", "1", "max", "huge", "garbage", NULL },
	[K_FD] = { "0", "-1", "big", "garbage", NULL },
	[K_FN] = { "dummy", "null", NULL },
};

/* The variant of each kind used by the whole-call patterns (NULL: the base). */
struct whole {
	const char *name;
	const char *by_kind[K_FN + 1];
};

static const struct whole wholes[] = {
	{ "all=null", { "null", "null", "0", "0", "0", "0", "0", "0", "0", "null" } },
	{ "all=zero", { "zero", "real", "0", "0", "0", "0", "0", "0", "0", "dummy" } },
	{ "all=garbage", { "garbage", "garbage", "garbage", "garbage", "garbage", "garbage", "garbage", "garbage",
			   "garbage", "dummy" } },
	{ "all=ones", { "ones", "long", "-1", "max", "max", "max", "max", "max", "-1", "dummy" } },
	{ "all=max", { "zero", "real", "max", "max", "max", "max", "max", "max", "big", "dummy" } },
	{ "all=huge", { "zero", "real", "max", "max", "max", "max", "max", "huge", "big", "dummy" } },
};

static unsigned char *buffers[3][MAX_PARAMS]; /* zero, garbage (0xa5), ones (0xff) */
static char long_string[70000];

static long dummy_fn(void)
{
	return 0;
}

static int kind_of(const char *s, enum kind *k)
{
	static const char *const names[] = { "ptr", "str", "int", "uint", "u8", "u16", "u64", "size", "fd", "fn" };
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*k = (enum kind)i;
			return 0;
		}
	return -1;
}

static int parse_line(char *line, struct export *e)
{
	char *save = NULL, *tok;

	memset(e, 0, sizeof(*e));
	tok = strtok_r(line, " \t\n", &save);
	if (!tok || strlen(tok) >= sizeof(e->sym))
		return -1;
	strcpy(e->sym, tok);
	char *at = strchr(tok, '@');
	if (!at || (size_t)(at - tok) >= sizeof(e->name))
		return -1;
	memcpy(e->name, tok, (size_t)(at - tok));
	snprintf(e->version, sizeof(e->version), "%s", at + (at[1] == '@' ? 2 : 1));
	tok = strtok_r(NULL, " \t\n", &save);
	if (!tok)
		return -1;
	snprintf(e->ret, sizeof(e->ret), "%s", tok);
	while ((tok = strtok_r(NULL, " \t\n", &save))) {
		if (!strcmp(tok, "...")) {
			e->variadic = 1;
			continue;
		}
		if (e->nparams == MAX_PARAMS)
			return -1;
		struct param *p = &e->p[e->nparams++];
		char *colon = strchr(tok, ':');
		if (!colon)
			return -1;
		*colon = 0;
		snprintf(p->name, sizeof(p->name), "%s", tok);
		char *eq = strchr(colon + 1, '=');
		snprintf(p->real, sizeof(p->real), "%s", eq ? eq + 1 : "x");
		if (eq)
			*eq = 0;
		if (kind_of(colon + 1, &p->kind))
			return -1;
	}
	return 0;
}

static long value(const struct param *p, int slot, const char *v)
{
	switch (p->kind) {
	case K_PTR:
		if (!strcmp(v, "null"))
			return 0;
		return (long)(buffers[!strcmp(v, "zero") ? 0 : !strcmp(v, "garbage") ? 1 : 2][slot] + BUF_OFFSET);
	case K_STR:
		if (!strcmp(v, "null"))
			return 0;
		if (!strcmp(v, "empty"))
			return (long)"";
		if (!strcmp(v, "garbage"))
			return (long)"\xff\xfe\x80garbage\xc3";
		if (!strcmp(v, "long"))
			return (long)long_string;
		return (long)p->real;
	case K_FN:
		return strcmp(v, "null") ? (long)dummy_fn : 0;
	default:
		break;
	}
	if (!strcmp(v, "0"))
		return 0;
	if (!strcmp(v, "1"))
		return 1;
	if (!strcmp(v, "-1"))
		return p->kind == K_INT || p->kind == K_FD ? -1 : (long)UINT64_MAX;
	if (!strcmp(v, "garbage"))
		return (long)0xa5a5a5a5a5a5a5a5ULL;
	if (!strcmp(v, "big"))
		return 1 << 30;
	if (!strcmp(v, "huge"))
		return 1L << 40;
	if (!strcmp(v, "min"))
		return INT_MIN;
	/* max */
	switch (p->kind) {
	case K_INT:
	case K_FD:
		return INT_MAX;
	case K_UINT:
		return UINT_MAX;
	case K_U8:
		return UINT8_MAX;
	case K_U16:
		return UINT16_MAX;
	default:
		return (long)UINT64_MAX;
	}
}

struct call {
	const struct export *e;
	char pattern[96];
	long args[MAX_PARAMS];
	/* outcome */
	char line[512];
};

typedef long (*fn12)(long, long, long, long, long, long, long, long, long, long, long, long);
typedef long (*fnva)(long, long, long, long, ...);

static void child(const struct call *c, void *fn, int out)
{
	long r;
	int err;

	dup2(out, 2);
	if (out != 2)
		close(out);
	int null = open("/dev/null", O_RDONLY);
	dup2(null, 0);
	dup2(null, 1);
	if (null > 2)
		close(null);
	struct rlimit as = { 4UL << 30, 4UL << 30 };
	setrlimit(RLIMIT_AS, &as);
	struct rlimit core = { 0, 0 };
	setrlimit(RLIMIT_CORE, &core);
	const long *a = c->args;
	errno = 0;
	if (c->e->variadic)
		r = ((fnva)fn)(a[0], a[1], a[2], a[3], 0L, 0L);
	else
		r = ((fn12)fn)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]);
	err = errno;
	char msg[128];
	const char *ret = c->e->ret;
	if (!strcmp(ret, "void"))
		snprintf(msg, sizeof(msg), "\001void errno=%d\n", err);
	else if (!strcmp(ret, "ptr") || !strcmp(ret, "str"))
		snprintf(msg, sizeof(msg), "\001%s errno=%d\n", r ? "non-NULL" : "NULL", err);
	else if (!strcmp(ret, "int"))
		snprintf(msg, sizeof(msg), "\001%d errno=%d\n", (int)r, err);
	else if (!strcmp(ret, "uint"))
		snprintf(msg, sizeof(msg), "\001%u errno=%d\n", (unsigned)r, err);
	else
		snprintf(msg, sizeof(msg), "\001%ld errno=%d\n", r, err);
	if (write(2, msg, strlen(msg)) < 0)
		_exit(3);
	_exit(0);
}

struct running {
	pid_t pid;
	int fd;
	size_t call;
	struct timespec start;
	char err[1024];
	size_t len;
};

static double since(const struct timespec *t)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static void drain(struct running *r)
{
	char tmp[4096];
	ssize_t n;
	while ((n = read(r->fd, tmp, sizeof(tmp))) > 0) {
		size_t room = sizeof(r->err) - 1 - r->len;
		size_t take = (size_t)n < room ? (size_t)n : room;
		memcpy(r->err + r->len, tmp, take);
		r->len += take;
		r->err[r->len] = 0;
	}
}

/* The first non-empty stderr line that is not the result marker, cut at 120 characters and tab-free. */
static void first_line(const char *err, char *out, size_t size)
{
	const char *s = err;
	while (*s == '\001' || *s == '\n') {
		const char *nl = strchr(s, '\n');
		if (!nl)
			break;
		s = nl + 1;
	}
	size_t i = 0;
	for (; s[i] && s[i] != '\n' && i + 1 < size && i < 120; i++)
		out[i] = s[i] == '\t' || s[i] == '\001' ? ' ' : s[i];
	out[i] = 0;
}

static void finish(struct running *r, int status, int hung, struct call *calls)
{
	struct call *c = &calls[r->call];
	char first[160];
	drain(r);
	first_line(r->err, first, sizeof(first));
	const char *mark = strchr(r->err, '\001');
	if (hung) {
		snprintf(c->line, sizeof(c->line), "hang\t%s", first);
	} else if (WIFEXITED(status)) {
		if (WEXITSTATUS(status) == 0 && mark) {
			char res[128];
			size_t i = 0;
			for (mark++; mark[i] && mark[i] != '\n' && i + 1 < sizeof(res); i++)
				res[i] = mark[i];
			res[i] = 0;
			snprintf(c->line, sizeof(c->line), "ret\t%s", res);
		} else {
			snprintf(c->line, sizeof(c->line), "exit\tstatus %d %s", WEXITSTATUS(status), first);
		}
	} else if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		const char *what = sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ? "crash"
				   : sig == SIGABRT ? "abort"
						      : "signal";
		snprintf(c->line, sizeof(c->line), "%s\t%s %s", what, strsignal(sig), first);
	}
	close(r->fd);
	r->pid = 0;
}

static void run_all(struct call *calls, size_t n, void **fns, int jobs, double timeout)
{
	struct running *slots = calloc((size_t)jobs, sizeof(*slots));
	struct pollfd *pfd = calloc((size_t)jobs, sizeof(*pfd));
	size_t next = 0, done = 0;

	while (done < n) {
		for (int i = 0; i < jobs && next < n; i++) {
			if (slots[i].pid)
				continue;
			int p[2];
			if (pipe2(p, O_CLOEXEC)) {
				perror("pipe");
				exit(2);
			}
			fflush(stdout);
			pid_t pid = fork();
			if (pid < 0) {
				perror("fork");
				exit(2);
			}
			if (pid == 0) {
				close(p[0]);
				child(&calls[next], fns[next], p[1]);
			}
			close(p[1]);
			fcntl(p[0], F_SETFL, O_NONBLOCK);
			slots[i] = (struct running){ .pid = pid, .fd = p[0], .call = next };
			clock_gettime(CLOCK_MONOTONIC, &slots[i].start);
			next++;
		}
		for (int i = 0; i < jobs; i++) {
			pfd[i].fd = slots[i].pid ? slots[i].fd : -1;
			pfd[i].events = POLLIN;
		}
		poll(pfd, (nfds_t)jobs, 20);
		for (int i = 0; i < jobs; i++) {
			struct running *r = &slots[i];
			if (!r->pid)
				continue;
			drain(r);
			int status;
			pid_t w = waitpid(r->pid, &status, WNOHANG);
			if (w == r->pid) {
				finish(r, status, 0, calls);
				done++;
			} else if (since(&r->start) > timeout) {
				kill(r->pid, SIGKILL);
				waitpid(r->pid, &status, 0);
				finish(r, status, 1, calls);
				done++;
			}
		}
	}
	free(slots);
	free(pfd);
}

static void base_args(const struct export *e, long *args)
{
	for (int i = 0; i < e->nparams; i++)
		args[i] = value(&e->p[i], i, variants[e->p[i].kind][0]);
}

int main(int argc, char **argv)
{
	const char *only = NULL;
	int jobs = 16;
	double timeout = 3;

	if (argc < 2) {
		fprintf(stderr, "usage: %s EXPORTS_FILE [--jobs N] [--timeout S] [--only SYMBOL]\n", argv[0]);
		return 2;
	}
	for (int i = 2; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "--jobs"))
			jobs = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "--timeout"))
			timeout = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "--only"))
			only = argv[i + 1];
	}
	if (jobs < 1)
		jobs = 1;
	/* the libibverbs the dynamic linker chose for this program (a reference keeps it linked) */
	void *volatile keep = (void *)ibv_get_device_list;
	(void)keep;
	void *lib = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_NOLOAD);
	if (!lib) {
		fprintf(stderr, "libibverbs.so.1 is not loaded: %s\n", dlerror());
		return 2;
	}
	FILE *f = fopen(argv[1], "r");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	memset(long_string, 'A', sizeof(long_string) - 1);
	for (int i = 0; i < MAX_PARAMS; i++)
		for (int b = 0; b < 3; b++) {
			buffers[b][i] = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			if (buffers[b][i] == MAP_FAILED) {
				perror("mmap");
				return 2;
			}
			memset(buffers[b][i], b == 0 ? 0 : b == 1 ? 0xa5 : 0xff, BUF_SIZE);
		}

	size_t cap = 1024, n = 0;
	struct call *calls = malloc(cap * sizeof(*calls));
	void **fns = malloc(cap * sizeof(*fns));
	char line[4096];
	int bad = 0;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		struct export *e = malloc(sizeof(*e));
		char copy[4096];
		snprintf(copy, sizeof(copy), "%s", line);
		if (parse_line(copy, e)) {
			fprintf(stderr, "bad line: %s", line);
			bad = 1;
			continue;
		}
		if (only && strcmp(only, e->sym) && strcmp(only, e->name))
			continue;
		void *fn = dlvsym(lib, e->name, e->version);
		if (!fn) {
			printf("%s\t-\tabsent\t-\n", e->sym);
			continue;
		}
		/* whole-call patterns, then one parameter at a time */
		size_t want = sizeof(wholes) / sizeof(wholes[0]) + (size_t)e->nparams * 8 + 1;
		while (n + want > cap) {
			cap *= 2;
			calls = realloc(calls, cap * sizeof(*calls));
			fns = realloc(fns, cap * sizeof(*fns));
		}
		size_t first = n;
		for (size_t w = 0; w < sizeof(wholes) / sizeof(wholes[0]); w++) {
			struct call *c = &calls[n];
			memset(c, 0, sizeof(*c));
			c->e = e;
			snprintf(c->pattern, sizeof(c->pattern), "%s", e->nparams ? wholes[w].name : "noargs");
			for (int i = 0; i < e->nparams; i++)
				c->args[i] = value(&e->p[i], i, wholes[w].by_kind[e->p[i].kind]);
			fns[n++] = fn;
			if (!e->nparams)
				break;
		}
		for (int i = 0; i < e->nparams; i++)
			for (int v = 1; variants[e->p[i].kind][v]; v++) {
				struct call *c = &calls[n];
				memset(c, 0, sizeof(*c));
				c->e = e;
				snprintf(c->pattern, sizeof(c->pattern), "%s=%s", e->p[i].name, variants[e->p[i].kind][v]);
				base_args(e, c->args);
				c->args[i] = value(&e->p[i], i, variants[e->p[i].kind][v]);
				fns[n++] = fn;
			}
		(void)first;
	}
	fclose(f);
	run_all(calls, n, fns, jobs, timeout);
	for (size_t i = 0; i < n; i++)
		printf("%s\t%s\t%s\n", calls[i].e->sym, calls[i].pattern, calls[i].line);
	return bad ? 2 : 0;
}
