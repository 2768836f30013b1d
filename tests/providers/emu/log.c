/* uvemu: the canonical command stream, appended to the file UVEMU_LOG names.
 *
 * Everything a library hands the kernel is written out so that two runs can be diffed: method and
 * command ids, every attribute with its contents, the driver data. What depends on the process
 * and not on the library's behaviour is normalised: a 64-bit word of a request that points into
 * mapped memory is written "ptr" (user_handle, response and buffer addresses), and file
 * descriptors by role (cmdfd#N, asyncfd#N, comp#N). Callers hold emu_lock.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int log_fd = -2;

static int out_fd(void)
{
	if (log_fd == -2) {
		const char *p = getenv("UVEMU_LOG");
		int saved = errno;

		log_fd = p ? (int)syscall(SYS_openat, AT_FDCWD, p, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
		errno = saved;
	}
	return log_fd;
}

void emu_log(const char *fmt, ...)
{
	char buf[8192];
	va_list ap;
	int n, fd = out_fd(), saved = errno;

	if (fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	if (n > 0 && real_write(fd, buf, n) < 0)
		n = 0;
	errno = saved;
}

void emu_cover(const char *fmt, ...)
{
	static int fd = -2;
	char buf[256];
	va_list ap;
	int n, saved = errno;

	if (fd == -2) {
		const char *p = getenv("UVEMU_COVER");

		fd = p ? (int)syscall(SYS_openat, AT_FDCWD, p, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644) : -1;
		/* Out of the way: the descriptors the libraries get must not depend on it (the
		 * stream shows a completion channel's number as sent). */
		if (fd >= 0) {
			int high = fcntl(fd, F_DUPFD_CLOEXEC, 900);

			real_close(fd);
			fd = high;
		}
	}
	if (fd >= 0) {
		va_start(ap, fmt);
		n = vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		if (n > 0 && real_write(fd, buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1) < 0)
			n = 0;
	}
	errno = saved;
}

bool emu_looks_like_ptr(uint64_t v)
{
	unsigned char vec;
	int saved = errno;
	bool mapped;

	if (v < 0x10000 || v >= 0x800000000000ull)
		return false;
	/* The lifecycle's buffers: at a fixed address, the same in every run. */
	if (v >= 0x7e0000000000ull && v < 0x7e0000010000ull)
		return false;
	mapped = mincore((void *)(uintptr_t)(v & ~4095ull), 1, &vec) == 0;
	errno = saved;
	return mapped;
}

void emu_log_bytes(const char *label, const void *p, size_t len)
{
	const uint8_t *b = p;
	char line[8192];
	size_t o = 0, i;

	o += snprintf(line + o, sizeof(line) - o, "%s", label);
	for (i = 0; i + 8 <= len && o < sizeof(line) - 40; i += 8) {
		uint64_t w;

		memcpy(&w, b + i, 8);
		if (emu_looks_like_ptr(w))
			o += snprintf(line + o, sizeof(line) - o, " ptr");
		else
			o += snprintf(line + o, sizeof(line) - o, " %016llx", (unsigned long long)w);
	}
	if (i < len && o < sizeof(line) - 40) {
		o += snprintf(line + o, sizeof(line) - o, " ");
		for (; i < len && o < sizeof(line) - 8; i++)
			o += snprintf(line + o, sizeof(line) - o, "%02x", b[i]);
	}
	if (i < len)
		o += snprintf(line + o, sizeof(line) - o, " ...");
	emu_log("%s\n", line);
}

const char *emu_fd_name(int fd, char buf[32])
{
	static const char *const kinds[] = { "fd?", "cmdfd", "asyncfd", "comp", "nl" };
	struct emu_fd *f = emu_fd_get(fd);

	if (fd == -1)
		return "-1";
	if (!f)
		snprintf(buf, 32, "fd?");
	else
		snprintf(buf, 32, "%s#%d", kinds[f->kind], f->index);
	return buf;
}

/* Whether a mapped file's name is the provider's plugin (lib<p>-rdmav<N>.so) or the library a
 * plugin link points at (lib<p>.so.1.x: Debian's and an in-place build's mlx5 and efa). */
static bool provider_file(const char *path, const char *provider)
{
	const char *base = strrchr(path, '/');
	size_t n = strlen(provider);

	base = base ? base + 1 : path;
	if (strncmp(base, "lib", 3) || strncmp(base + 3, provider, n))
		return false;
	return !strncmp(base + 3 + n, "-rdmav", 6) || !strncmp(base + 3 + n, ".so", 3);
}

void emu_log_provider_files(const char *provider)
{
	static bool done;
	static char buf[1 << 20];
	char last[4096] = "";
	size_t len = 0;
	ssize_t r;
	int fd, saved = errno;

	if (done || !provider)
		return;
	done = true;
	fd = (int)syscall(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto out;
	while (len < sizeof(buf) - 1 && (r = real_read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)r;
	real_close(fd);
	buf[len] = 0;
	/* address perms offset dev inode path */
	for (char *line = buf, *nl, *path; line && *line; line = nl ? nl + 1 : NULL) {
		/* the line ends first: a line without a path (an anonymous mapping) must not take the
		 * next line's, nor a path run on to the end of the buffer */
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		path = strchr(line, '/');
		if (!path || !provider_file(path, provider) || !strcmp(path, last))
			continue;
		snprintf(last, sizeof(last), "%s", path);
		emu_log("mapped %s\n", path);
	}
out:
	errno = saved;
}
