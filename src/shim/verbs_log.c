/* __verbs_log: the one C variadic of the provider ABI (stable Rust cannot define C variadics).
 * It only formats; filtering by VERBS_LOG_LEVEL and writing to VERBS_LOG_FILE happen in Rust
 * (src/log.rs) through the two hidden entry points declared here. rdma-core: init.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int ibverbs_rs_log_enabled(uint32_t level);
void ibverbs_rs_log_write(const char *msg, size_t len);

void __verbs_log(void *ctx, uint32_t level, const char *fmt, ...)
{
	char small[512];
	char *msg = small;
	va_list ap;
	int n;

	(void)ctx;
	if (!fmt || !ibverbs_rs_log_enabled(level))
		return;
	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		msg = malloc((size_t)n + 1);
		if (!msg)
			return;
		va_start(ap, fmt);
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	}
	ibverbs_rs_log_write(msg, (size_t)n);
	if (msg != small)
		free(msg);
}

/* ibv_read_ibdev_sysfs_file: the provider ABI's other C variadic. The path is formatted here and
 * read in Rust (src/capi/sysfs.rs, ibverbs_rs_read_ibdev_sysfs_file). rdma-core: sysfs.c. */
int ibverbs_rs_read_ibdev_sysfs_file(char *buf, size_t size, void *sysfs_dev, const char *path);

int ibv_read_ibdev_sysfs_file(char *buf, size_t size, void *sysfs_dev, const char *fnfmt, ...)
{
	char *path;
	va_list ap;
	int res;

	if (!sysfs_dev || !fnfmt) {
		errno = EINVAL;
		return -1;
	}
	va_start(ap, fnfmt);
	res = vasprintf(&path, fnfmt, ap);
	va_end(ap);
	if (res < 0)
		return -1;
	res = ibverbs_rs_read_ibdev_sysfs_file(buf, size, sysfs_dev, path);
	free(path);
	return res;
}
