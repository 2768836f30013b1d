/* uvemu: the libc entry points both libraries and the providers reach the kernel through.
 *
 * A uverbs node is /dev/infiniband/<name> for every <name> under $SYSFS_PATH/class/infiniband_verbs
 * whose `dev` file reads MAJOR:MINOR: stat() answers for it as a character device, open() returns
 * an emulator fd (an eventfd underneath, so poll/select/epoll and O_NONBLOCK work unchanged), and
 * fstat() of that fd is the character device again. write()/ioctl()/mmap() on it are commands
 * (kernel.c); read() on an event fd hands out queued events. A NETLINK_RDMA socket is a datagram
 * socket pair whose other end the emulator writes the answers to (netlink.c); UVEMU_NETLINK=off
 * makes socket() fail as on a kernel without the RDMA netlink family. Everything else passes
 * through to libc.
 *
 * dup() of a command fd is the same file (ibv_import_device's copy): the context is released when
 * its last fd is closed. Not interposed (nothing in the lifecycles needs them): dup2/dup3 and
 * fcntl(F_DUPFD), and dup() of an event fd (the copy would be a plain eventfd).
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#else
#define CALLGRIND_TOGGLE_COLLECT
#endif

pthread_mutex_t emu_lock = PTHREAD_MUTEX_INITIALIZER;

/* bench/marks.h says when callgrind collects (uvemu_bench_collect): the emulator's work stands
 * for the kernel's, which callgrind never counts, so it takes itself out of the count. */
static int bench_collecting;

void uvemu_bench_collect(int on)
{
	bench_collecting = on;
}

static inline void kernel_enter(void)
{
	if (bench_collecting)
		CALLGRIND_TOGGLE_COLLECT;
}

static inline void kernel_leave(void)
{
	if (bench_collecting)
		CALLGRIND_TOGGLE_COLLECT;
}
struct emu_fd emu_fds[EMU_MAX_FD];
const struct emu_dev *emu_device;

int (*real_close)(int);
ssize_t (*real_read)(int, void *, size_t);
ssize_t (*real_write)(int, const void *, size_t);
void *(*real_mmap)(void *, size_t, int, int, int, off_t);
int (*real_munmap)(void *, size_t);
static int (*real_open)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int (*real_ioctl)(int, unsigned long, ...);
static int (*real_socket)(int, int, int);
static int (*real_bind)(int, const struct sockaddr *, socklen_t);
static int (*real_getsockname)(int, struct sockaddr *, socklen_t *);
static int (*real_setsockopt)(int, int, int, const void *, socklen_t);
static ssize_t (*real_sendto)(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
static ssize_t (*real_sendmsg)(int, const struct msghdr *, int);
static ssize_t (*real_recvmsg)(int, struct msghdr *, int);
static ssize_t (*real_recvfrom)(int, void *, size_t, int, struct sockaddr *, socklen_t *);
static int (*real_fstatat)(int, const char *, struct stat *, int);
static int (*real_fstat)(int, struct stat *);
static int (*real_statx)(int, const char *, int, unsigned, struct statx *);

/* The uverbs nodes served: name and device number. */
struct node {
	char name[64];
	dev_t devt;
};
static struct node nodes[16];
static unsigned num_nodes;

const char *emu_node_name(void)
{
	return num_nodes ? nodes[0].name : "uverbs0";
}

static void resolve(void)
{
#define R(x) real_##x = dlsym(RTLD_NEXT, #x)
	R(close); R(read); R(write); R(mmap); R(munmap); R(open); R(openat); R(ioctl);
	R(socket); R(bind); R(getsockname); R(setsockopt); R(sendto); R(sendmsg); R(recvmsg);
	R(recvfrom); R(fstatat); R(fstat); R(statx);
#undef R
}

static void scan_nodes(void)
{
	const char *sys = getenv("SYSFS_PATH");
	char path[4096];
	struct dirent *de;
	DIR *d;

	if (!sys)
		return;
	snprintf(path, sizeof(path), "%s/class/infiniband_verbs", sys);
	d = opendir(path);
	if (!d)
		return;
	while ((de = readdir(d)) && num_nodes < sizeof(nodes) / sizeof(nodes[0])) {
		char dev[64] = "";
		unsigned maj, min;
		FILE *f;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof(nodes[0].name))
			continue;
		snprintf(path, sizeof(path), "%s/class/infiniband_verbs/%s/dev", sys, de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(dev, sizeof(dev), f) && sscanf(dev, "%u:%u", &maj, &min) == 2) {
			strcpy(nodes[num_nodes].name, de->d_name);
			nodes[num_nodes++].devt = makedev(maj, min);
		}
		fclose(f);
	}
	closedir(d);
}

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init_once(void)
{
	const char *p = getenv("UVEMU_PROVIDER");

	resolve();
	scan_nodes();
	if (p) {
		emu_device = emu_dev_find(p);
		if (!emu_device) {
			fprintf(stderr, "uvemu: no device for UVEMU_PROVIDER=%s\n", p);
			abort();
		}
	}
}

static inline void init(void)
{
	pthread_once(&once, init_once);
}

__attribute__((constructor)) static void uvemu_ctor(void)
{
	init();
}

/* The served node a path names, or NULL. */
static const struct node *node_of(const char *path)
{
	static const char prefix[] = "/dev/infiniband/";

	if ((uintptr_t)path < 4096 || strncmp(path, prefix, sizeof(prefix) - 1))
		return NULL;
	for (unsigned i = 0; i < num_nodes; i++)
		if (!strcmp(path + sizeof(prefix) - 1, nodes[i].name))
			return &nodes[i];
	return NULL;
}

static bool in_fake_dir(const char *path)
{
	/* Not a NULL test: glibc declares the paths nonnull, so the compiler would drop it. */
	return (uintptr_t)path >= 4096 && !strncmp(path, "/dev/infiniband/", 16);
}

struct emu_fd *emu_fd_get(int fd)
{
	if (fd < 0 || fd >= EMU_MAX_FD || emu_fds[fd].kind == FD_NONE)
		return NULL;
	return &emu_fds[fd];
}

int emu_fd_new(enum emu_fd_kind kind, struct emu_ctx *ctx, bool cloexec, bool nonblock)
{
	static int counters[5];
	int fd = eventfd(0, EFD_SEMAPHORE | (cloexec ? EFD_CLOEXEC : 0) | (nonblock ? EFD_NONBLOCK : 0));

	if (fd < 0)
		return -1;
	if (fd >= EMU_MAX_FD) {
		real_close(fd);
		errno = EMFILE;
		return -1;
	}
	memset(&emu_fds[fd], 0, sizeof(emu_fds[fd]));
	emu_fds[fd].kind = kind;
	emu_fds[fd].ctx = ctx;
	emu_fds[fd].index = counters[kind]++;
	emu_fds[fd].peer = -1;
	return fd;
}

void emu_fd_push(int fd, const struct emu_event *ev)
{
	struct emu_fd *f = emu_fd_get(fd);
	uint64_t one = 1;

	if (!f || f->q.n == EMU_EVQ)
		return;
	f->q.ev[(f->q.head + f->q.n++) % EMU_EVQ] = *ev;
	if (real_write(fd, &one, sizeof(one)) != sizeof(one))
		f->q.n--;
}

static void fill_stat(struct stat *st, const struct node *n)
{
	memset(st, 0, sizeof(*st));
	st->st_mode = S_IFCHR | 0666;
	st->st_rdev = n->devt;
	st->st_dev = makedev(0, 5);
	st->st_ino = 1000 + (n - nodes);
	st->st_nlink = 1;
	st->st_blksize = 4096;
}

static void fill_statx(struct statx *sx, const struct node *n)
{
	memset(sx, 0, sizeof(*sx));
	sx->stx_mask = STATX_BASIC_STATS;
	sx->stx_mode = S_IFCHR | 0666;
	sx->stx_rdev_major = major(n->devt);
	sx->stx_rdev_minor = minor(n->devt);
	sx->stx_dev_major = 0;
	sx->stx_dev_minor = 5;
	sx->stx_ino = 1000 + (n - nodes);
	sx->stx_nlink = 1;
	sx->stx_blksize = 4096;
}

/* The node an emulator command fd was opened on. */
static const struct node *node_of_fd(int fd)
{
	struct emu_fd *f = emu_fd_get(fd);

	if (!f || f->kind != FD_CMD || !f->ctx)
		return NULL;
	return &nodes[f->ctx->node];
}

/* ---- open ---- */

static int open_common(const char *path, int flags, int *handled)
{
	const struct node *n;
	int fd;

	init();
	*handled = 0;
	if (!in_fake_dir(path))
		return 0;
	*handled = 1;
	n = node_of(path);
	if (!n) {
		errno = ENOENT;
		return -1;
	}
	if (!emu_device) {
		errno = ENXIO;
		return -1;
	}
	pthread_mutex_lock(&emu_lock);
	struct emu_ctx *c = calloc(1, sizeof(*c));

	if (!c) {
		pthread_mutex_unlock(&emu_lock);
		errno = ENOMEM;
		return -1;
	}
	c->async_fd = -1;
	c->refs = 1;
	c->dev = emu_device;
	c->node = n - nodes;
	fd = emu_fd_new(FD_CMD, c, flags & O_CLOEXEC, flags & O_NONBLOCK);
	if (fd < 0) {
		free(c);
	} else {
		char nb[32];

		c->cmd_fd = fd;
		emu_log("open %s -> %s\n", n->name, emu_fd_name(fd, nb));
		emu_log_provider_files(emu_device->provider);
	}
	pthread_mutex_unlock(&emu_lock);
	return fd;
}

static mode_t va_mode(int flags, va_list ap)
{
	return (flags & (O_CREAT | __O_TMPFILE)) ? va_arg(ap, mode_t) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;
	int handled, fd;

	kernel_enter();
	fd = open_common(path, flags, &handled);
	kernel_leave();
	if (handled)
		return fd;
	va_start(ap, flags);
	mode = va_mode(flags, ap);
	va_end(ap);
	return real_open(path, flags, mode);
}
int open64(const char *path, int flags, ...) __attribute__((alias("open")));

int __open_2(const char *path, int flags)
{
	return open(path, flags);
}
int __open64_2(const char *path, int flags) __attribute__((alias("__open_2")));

int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	mode_t mode;
	int handled, fd;

	kernel_enter();
	fd = open_common(path, flags, &handled);
	kernel_leave();
	if (handled)
		return fd;
	va_start(ap, flags);
	mode = va_mode(flags, ap);
	va_end(ap);
	return real_openat(dirfd, path, flags, mode);
}
int openat64(int dirfd, const char *path, int flags, ...) __attribute__((alias("openat")));

int __openat_2(int dirfd, const char *path, int flags)
{
	return openat(dirfd, path, flags);
}
int __openat64_2(int dirfd, const char *path, int flags) __attribute__((alias("__openat_2")));

/* ---- stat ---- */

int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	init();
	if (in_fake_dir(path)) {
		const struct node *n = node_of(path);

		if (!n) {
			errno = ENOENT;
			return -1;
		}
		fill_stat(st, n);
		return 0;
	}
	if ((flags & AT_EMPTY_PATH) && (uintptr_t)path >= 4096 && !*path && node_of_fd(dirfd)) {
		fill_stat(st, node_of_fd(dirfd));
		return 0;
	}
	return real_fstatat(dirfd, path, st, flags);
}
/* x86_64: struct stat64 is struct stat. */
int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	return fstatat(dirfd, path, (struct stat *)st, flags);
}

int stat(const char *path, struct stat *st)
{
	return fstatat(AT_FDCWD, path, st, 0);
}
int stat64(const char *path, struct stat64 *st)
{
	return fstatat(AT_FDCWD, path, (struct stat *)st, 0);
}

int lstat(const char *path, struct stat *st)
{
	return fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}
int lstat64(const char *path, struct stat64 *st)
{
	return fstatat(AT_FDCWD, path, (struct stat *)st, AT_SYMLINK_NOFOLLOW);
}

int fstat(int fd, struct stat *st)
{
	init();
	if (node_of_fd(fd)) {
		kernel_enter();
		fill_stat(st, node_of_fd(fd));
		kernel_leave();
		return 0;
	}
	return real_fstat(fd, st);
}
int fstat64(int fd, struct stat64 *st)
{
	return fstat(fd, (struct stat *)st);
}

/* glibc before 2.33 exported these; binaries built then still call them. */
int __xstat(int ver, const char *path, struct stat *st)
{
	(void)ver;
	return stat(path, st);
}
int __xstat64(int, const char *, struct stat *) __attribute__((alias("__xstat")));
int __lxstat(int ver, const char *path, struct stat *st)
{
	(void)ver;
	return lstat(path, st);
}
int __lxstat64(int, const char *, struct stat *) __attribute__((alias("__lxstat")));
int __fxstat(int ver, int fd, struct stat *st)
{
	(void)ver;
	return fstat(fd, st);
}
int __fxstat64(int, int, struct stat *) __attribute__((alias("__fxstat")));

int statx(int dirfd, const char *path, int flags, unsigned mask, struct statx *sx)
{
	init();
	if (in_fake_dir(path)) {
		const struct node *n = node_of(path);

		if (!n) {
			errno = ENOENT;
			return -1;
		}
		fill_statx(sx, n);
		return 0;
	}
	if ((flags & AT_EMPTY_PATH) && (uintptr_t)path >= 4096 && !*path && node_of_fd(dirfd)) {
		fill_statx(sx, node_of_fd(dirfd));
		return 0;
	}
	return real_statx(dirfd, path, flags, mask, sx);
}

/* ---- close ---- */

int close(int fd)
{
	struct emu_fd *f;
	int ret;

	init();
	kernel_enter();
	pthread_mutex_lock(&emu_lock);
	f = emu_fd_get(fd);
	if (f) {
		char nb[32];

		emu_log("close %s\n", emu_fd_name(fd, nb));
		if (f->kind == FD_CMD && f->ctx && --f->ctx->refs) {
			/* Another fd of the same file (dup) keeps the context. */
		} else if (f->kind == FD_CMD && f->ctx) {
			/* Its event fds may outlive it (the kernel keeps the file open): they forget it. */
			for (int i = 0; i < EMU_MAX_FD; i++)
				if (i != fd && emu_fds[i].ctx == f->ctx)
					emu_fds[i].ctx = NULL;
			emu_ctx_release(f->ctx);
			free(f->ctx);
		} else if (f->kind == FD_ASYNC && f->ctx && f->ctx->async_fd == fd) {
			f->ctx->async_fd = -1;
		} else if (f->kind == FD_NL && f->peer >= 0) {
			real_close(f->peer);
		}
		/* The kernel keeps a completion channel's events until its last CQ goes; nothing
		 * here reads them after the fd is closed. */
		memset(f, 0, sizeof(*f));
	}
	pthread_mutex_unlock(&emu_lock);
	ret = real_close(fd);
	kernel_leave();
	return ret;
}

/* dup of a command fd: another fd of the same file, named as the first (cmdfd#N). */
static int (*real_dup)(int);

int dup(int fd)
{
	struct emu_fd *f;
	int ret;

	init();
	if (!real_dup)
		real_dup = dlsym(RTLD_NEXT, "dup");
	kernel_enter();
	pthread_mutex_lock(&emu_lock);
	ret = real_dup(fd);
	f = emu_fd_get(fd);
	if (ret >= EMU_MAX_FD && f) {
		real_close(ret);
		errno = EMFILE;
		ret = -1;
	} else if (ret >= 0 && f && f->kind == FD_CMD && f->ctx) {
		char nb[32];

		emu_fds[ret] = *f;
		f->ctx->refs++;
		emu_log("dup %s\n", emu_fd_name(ret, nb));
	}
	pthread_mutex_unlock(&emu_lock);
	kernel_leave();
	return ret;
}

/* ---- ioctl, write, read ---- */

int emu_ioctl(int fd, struct ib_uverbs_ioctl_hdr *hdr);
ssize_t emu_write(int fd, const void *buf, size_t len);

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	struct emu_fd *f;

	init();
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	f = emu_fd_get(fd);
	if (f && f->kind == FD_CMD) {
		int ret;

		if (req != RDMA_VERBS_IOCTL) {
			errno = ENOTTY;
			return -1;
		}
		kernel_enter();
		ret = emu_ioctl(fd, arg);
		kernel_leave();
		return ret;
	}
	if (f) {
		errno = ENOTTY;
		return -1;
	}
	return real_ioctl(fd, req, arg);
}

ssize_t write(int fd, const void *buf, size_t len)
{
	struct emu_fd *f;

	init();
	f = emu_fd_get(fd);
	if (f && f->kind == FD_CMD) {
		ssize_t ret;

		kernel_enter();
		ret = emu_write(fd, buf, len);
		kernel_leave();
		return ret;
	}
	if (f && f->kind == FD_NL) {
		pthread_mutex_lock(&emu_lock);
		emu_nl_request(f, buf, len);
		pthread_mutex_unlock(&emu_lock);
		return len;
	}
	if (f) {
		errno = EINVAL;
		return -1;
	}
	return real_write(fd, buf, len);
}

/* An event read: one event per call, as the kernel's ib_uverbs_event_read. */
static ssize_t read_event(int fd, struct emu_fd *f, void *buf, size_t len)
{
	size_t sz = f->kind == FD_COMP ? sizeof(struct ib_uverbs_comp_event_desc)
				       : sizeof(struct ib_uverbs_async_event_desc);
	struct emu_event ev;
	uint64_t token;
	char nb[32];

	if (len < sz) {
		errno = EINVAL;
		return -1;
	}
	/* Wait for (and take) one token: the eventfd counts the queued events. */
	if (real_read(fd, &token, sizeof(token)) != sizeof(token))
		return -1;
	pthread_mutex_lock(&emu_lock);
	f = emu_fd_get(fd);
	if (!f || !f->q.n) {
		pthread_mutex_unlock(&emu_lock);
		errno = EIO;
		return -1;
	}
	ev = f->q.ev[f->q.head];
	f->q.head = (f->q.head + 1) % EMU_EVQ;
	f->q.n--;
	if (f->ctx) {
		struct emu_obj *o = emu_obj_get(f->ctx, ev.obj_type, ev.handle);

		if (o && f->kind == FD_COMP)
			o->comp_events++;
		else if (o)
			o->async_events++;
	}
	if (f->kind == FD_COMP) {
		struct ib_uverbs_comp_event_desc d = { .cq_handle = ev.element };

		memcpy(buf, &d, sizeof(d));
		emu_log("read %s: comp cq=%u\n", emu_fd_name(fd, nb), ev.handle);
	} else {
		struct ib_uverbs_async_event_desc d = { .element = ev.element, .event_type = ev.type };

		memcpy(buf, &d, sizeof(d));
		emu_log("read %s: async type=%u\n", emu_fd_name(fd, nb), ev.type);
	}
	pthread_mutex_unlock(&emu_lock);
	return sz;
}

ssize_t read(int fd, void *buf, size_t len)
{
	struct emu_fd *f;

	init();
	f = emu_fd_get(fd);
	if (f && (f->kind == FD_ASYNC || f->kind == FD_COMP || f->kind == FD_CMD)) {
		ssize_t ret;

		kernel_enter();
		ret = read_event(fd, f, buf, len);
		kernel_leave();
		return ret;
	}
	return real_read(fd, buf, len);
}

/* ---- mmap ---- */

void *emu_mmap(int fd, void *addr, size_t len, int prot, int flags, off_t off);
void emu_munmap_note(void *addr, size_t len);

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	init();
	if (emu_fd_get(fd) && emu_fd_get(fd)->kind == FD_CMD) {
		void *p;

		kernel_enter();
		p = emu_mmap(fd, addr, len, prot, flags, off);
		kernel_leave();
		return p;
	}
	return real_mmap(addr, len, prot, flags, fd, off);
}
void *mmap64(void *, size_t, int, int, int, off_t) __attribute__((alias("mmap")));

int munmap(void *addr, size_t len)
{
	int ret;

	init();
	kernel_enter();
	emu_munmap_note(addr, len);
	ret = real_munmap(addr, len);
	kernel_leave();
	return ret;
}

/* ---- netlink sockets ---- */

int socket(int domain, int type, int protocol)
{
	init();
	if (domain == AF_NETLINK && protocol == NETLINK_RDMA) {
		const char *mode = getenv("UVEMU_NETLINK");

		if (mode && !strcmp(mode, "off")) {
			errno = EPROTONOSUPPORT;
			return -1;
		}
		return emu_nl_socket(type);
	}
	return real_socket(domain, type, protocol);
}

int emu_nl_socket(int type)
{
	int sv[2];
	int cloexec = (type & SOCK_CLOEXEC) ? SOCK_CLOEXEC : 0;

	if (socketpair(AF_UNIX, SOCK_DGRAM | cloexec | (type & SOCK_NONBLOCK), 0, sv))
		return -1;
	if (sv[0] >= EMU_MAX_FD) {
		real_close(sv[0]);
		real_close(sv[1]);
		errno = EMFILE;
		return -1;
	}
	pthread_mutex_lock(&emu_lock);
	memset(&emu_fds[sv[0]], 0, sizeof(emu_fds[0]));
	emu_fds[sv[0]].kind = FD_NL;
	emu_fds[sv[0]].peer = sv[1];
	pthread_mutex_unlock(&emu_lock);
	return sv[0];
}

static struct emu_fd *nl_fd(int fd)
{
	struct emu_fd *f = emu_fd_get(fd);

	return f && f->kind == FD_NL ? f : NULL;
}

int bind(int fd, const struct sockaddr *sa, socklen_t len)
{
	struct emu_fd *f;

	init();
	f = nl_fd(fd);
	if (!f)
		return real_bind(fd, sa, len);
	if (len < sizeof(struct sockaddr_nl) || sa->sa_family != AF_NETLINK) {
		errno = EINVAL;
		return -1;
	}
	f->nl_pid = ((const struct sockaddr_nl *)sa)->nl_pid;
	if (!f->nl_pid)
		f->nl_pid = getpid();
	return 0;
}

static void kernel_addr(void *sa, socklen_t *len)
{
	struct sockaddr_nl k = { .nl_family = AF_NETLINK };

	if (sa && len) {
		memcpy(sa, &k, *len < sizeof(k) ? *len : sizeof(k));
		*len = sizeof(k);
	}
}

int getsockname(int fd, struct sockaddr *sa, socklen_t *len)
{
	struct emu_fd *f;
	struct sockaddr_nl me = { .nl_family = AF_NETLINK };

	init();
	f = nl_fd(fd);
	if (!f)
		return real_getsockname(fd, sa, len);
	me.nl_pid = f->nl_pid;
	memcpy(sa, &me, *len < sizeof(me) ? *len : sizeof(me));
	*len = sizeof(me);
	return 0;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	init();
	if (nl_fd(fd) && level == SOL_NETLINK)
		return 0;
	return real_setsockopt(fd, level, name, val, len);
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags, const struct sockaddr *sa, socklen_t alen)
{
	struct emu_fd *f;

	init();
	f = nl_fd(fd);
	if (!f)
		return real_sendto(fd, buf, len, flags, sa, alen);
	pthread_mutex_lock(&emu_lock);
	emu_nl_request(f, buf, len);
	pthread_mutex_unlock(&emu_lock);
	return len;
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	return sendto(fd, buf, len, flags, NULL, 0);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	struct emu_fd *f;
	uint8_t buf[65536];
	size_t n = 0;

	init();
	f = nl_fd(fd);
	if (!f)
		return real_sendmsg(fd, msg, flags);
	for (size_t i = 0; i < msg->msg_iovlen; i++) {
		size_t l = msg->msg_iov[i].iov_len;

		if (n + l > sizeof(buf)) {
			errno = EMSGSIZE;
			return -1;
		}
		memcpy(buf + n, msg->msg_iov[i].iov_base, l);
		n += l;
	}
	pthread_mutex_lock(&emu_lock);
	emu_nl_request(f, buf, n);
	pthread_mutex_unlock(&emu_lock);
	return n;
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	ssize_t n;

	init();
	if (!nl_fd(fd))
		return real_recvmsg(fd, msg, flags);
	void *name = msg->msg_name;
	socklen_t nlen = msg->msg_namelen;

	msg->msg_name = NULL;
	msg->msg_namelen = 0;
	n = real_recvmsg(fd, msg, flags);
	msg->msg_name = name;
	msg->msg_namelen = nlen;
	if (n >= 0)
		kernel_addr(name, &msg->msg_namelen);
	return n;
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *sa, socklen_t *alen)
{
	ssize_t n;

	init();
	if (!nl_fd(fd))
		return real_recvfrom(fd, buf, len, flags, sa, alen);
	n = real_recvfrom(fd, buf, len, flags, NULL, NULL);
	if (n >= 0)
		kernel_addr(sa, alen);
	return n;
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	return recvfrom(fd, buf, len, flags, NULL, NULL);
}

/* ---- test hooks: events the kernel would raise ---- */

/* A completion event on a CQ (what the device raises after ibv_req_notify_cq). 0, or -1 when the
 * CQ or its channel is unknown. */
int uvemu_comp_event(int cmd_fd, uint32_t cq_handle)
{
	struct emu_fd *f;
	struct emu_obj *cq;
	int ret = -1;

	init();
	pthread_mutex_lock(&emu_lock);
	f = emu_fd_get(cmd_fd);
	cq = f && f->kind == FD_CMD ? emu_obj_get(f->ctx, UVERBS_OBJECT_CQ, cq_handle) : NULL;
	if (cq && cq->channel >= 0) {
		struct emu_event ev = { .element = cq->user_handle, .handle = cq_handle,
					.obj_type = UVERBS_OBJECT_CQ };

		emu_log("event comp cq=%u\n", cq_handle);
		emu_fd_push(cq->channel, &ev);
		ret = 0;
	}
	pthread_mutex_unlock(&emu_lock);
	return ret;
}

/* An asynchronous event (enum ib_event_type) on an object of obj_type (UVERBS_OBJECT_QP, _CQ, _SRQ)
 * by handle, or on port `handle` when obj_type is UVERBS_OBJECT_DEVICE. 0, or -1. */
int uvemu_async_event(int cmd_fd, uint32_t type, uint16_t obj_type, uint32_t handle)
{
	struct emu_event ev = { .type = type, .handle = handle, .obj_type = obj_type, .element = handle };
	struct emu_fd *f;
	int ret = -1;

	init();
	pthread_mutex_lock(&emu_lock);
	f = emu_fd_get(cmd_fd);
	if (f && f->kind == FD_CMD && f->ctx && f->ctx->async_fd >= 0) {
		struct emu_obj *o = obj_type == UVERBS_OBJECT_DEVICE ? NULL : emu_obj_get(f->ctx, obj_type, handle);

		if (obj_type == UVERBS_OBJECT_DEVICE || o) {
			if (o)
				ev.element = o->user_handle;
			emu_log("event async type=%u obj=%u handle=%u\n", type, obj_type, handle);
			emu_fd_push(f->ctx->async_fd, &ev);
			ret = 0;
		}
	}
	pthread_mutex_unlock(&emu_lock);
	return ret;
}

/* ---- which provider file is loaded ---- */

/* UVEMU_DLOPEN="NAME=PATH": a dlopen of a file named NAME (in any directory) loads PATH instead.
 * tools/provider-check points both libraries at the provider file under test this way: rdma-core
 * loads providers only from the directory it was built with. */
void *dlopen(const char *file, int mode)
{
	static void *(*real_dlopen)(const char *, int);
	const char *map = getenv("UVEMU_DLOPEN");

	if (!real_dlopen)
		real_dlopen = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
	if (map && file) {
		const char *eq = strchr(map, '=');
		const char *base = strrchr(file, '/');

		base = base ? base + 1 : file;
		if (eq && (size_t)(eq - map) == strlen(base) && !strncmp(base, map, eq - map)) {
			emu_log("dlopen %s -> %s\n", base, eq + 1);
			file = eq + 1;
		}
	}
	return real_dlopen(file, mode);
}
