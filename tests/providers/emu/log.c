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
