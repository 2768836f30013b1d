/* Diff program: ibv_get_sysfs_path and ibv_read_sysfs_file (sysfs_read.cases sets SYSFS_PATH).
 * Every read is into a buffer pre-filled with '#', and the bytes up to two past the size given
 * are shown, so a write beyond the size, or a missing terminator, shows up. errno is zeroed
 * before each call and printed after it, also when the call succeeds. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>

/* Exported since IBVERBS_1.0 but declared only in rdma-core's uninstalled driver.h. */
const char *ibv_get_sysfs_path(void);
int ibv_read_sysfs_file(const char *dir, const char *file, char *buf, size_t size);

static const char *ename(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";
	return n ? n : "?";
}

static void show_bytes(const char *buf, size_t n)
{
	putchar('"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = buf[i];

		if (c == '\n')
			fputs("\\n", stdout);
		else if (c == 0)
			fputs("\\0", stdout);
		else if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 32 || c > 126)
			printf("\\x%02x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void try_read(const char *dir, const char *dir_label, const char *file)
{
	static const size_t sizes[] = { 0, 1, 2, 3, 8, 11, 12, 64 };
	char buf[80];

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t size = sizes[k];

		memset(buf, '#', sizeof(buf));
		errno = 0;
		int ret = ibv_read_sysfs_file(dir, file, buf, size);
		int e = errno;

		printf("read(%s, \"%s\", %zu) = %d errno=%s buf=", dir_label, file, size, ret, ename(e));
		show_bytes(buf, size + 2);
		printf("\n");
	}
}

/* Files of the fake trees, relative to the sysfs root (missing ones in some trees). */
static const char *const files[] = {
	"class/infiniband_verbs/abi_version",           /* "6\n" */
	"class/infiniband/mlx5_0/fw_ver",               /* "20.31.1014\n": 11 bytes */
	"class/infiniband/mlx5_0/device/modalias",      /* 57 bytes */
	"class/infiniband/rxe_nonl/node_type",          /* "4", no newline */
	"class/infiniband/rxe_ntempty/node_type",       /* empty */
	"class/infiniband/rxe_guidlong/node_guid",      /* 30 bytes */
	"class/infiniband_verbs/uverbs30/ibdev",        /* 63 characters and a newline */
	"class/infiniband_verbs/uverbs31/ibdev",        /* 64 characters and a newline */
	"class/infiniband_verbs/uverbs32/ibdev",        /* 63 characters, no newline */
	"class/infiniband_verbs/uverbs33/ibdev",        /* 64 characters, no newline */
	"class/infiniband_verbs/uverbs0/../abi_version", /* through a symlink and .. */
	"class/no-such-file",
	"class",                                        /* a directory */
	"",                                             /* the root itself, "<root>/" */
	"/class/infiniband_verbs/abi_version",          /* "<root>//class/..." */
};

int main(void)
{
	const char *root = ibv_get_sysfs_path();

	printf("ibv_get_sysfs_path = %s%s%s\n", root ? "\"" : "", root ? root : "(null)", root ? "\"" : "");
	printf("ibv_get_sysfs_path again is the same pointer: %s\n",
	       ibv_get_sysfs_path() == root ? "yes" : "no");
	if (!root)
		return 0;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		try_read(root, "root", files[i]);
	try_read("/nonexistent-dir", "/nonexistent-dir", "x");
	try_read("/proc/self", "/proc/self", "no-such-entry");

	/* Sizes no buffer has, and a NULL buffer: one read() decides (the kernel's EFAULT), never
	 * an allocation of that size. */
	static const size_t huge[] = { (size_t)1 << 40, (size_t)1 << 62, SIZE_MAX };
	for (size_t k = 0; k < sizeof(huge) / sizeof(huge[0]); k++) {
		char buf[80];

		memset(buf, '#', sizeof(buf));
		errno = 0;
		int ret = ibv_read_sysfs_file(root, files[0], buf, huge[k]);
		printf("read(root, \"%s\", 2^%d) = %d errno=%s buf=", files[0], huge[k] == SIZE_MAX ? 64 : __builtin_ctzl(huge[k]),
		       ret, ename(errno));
		show_bytes(buf, 4);
		printf("\n");
	}
	for (size_t size = 0; size < 16; size += 8) {
		errno = 0;
		int ret = ibv_read_sysfs_file(root, files[0], NULL, size);
		printf("read(root, \"%s\", NULL, %zu) = %d errno=%s\n", files[0], size, ret, ename(errno));
	}

	/* The provider-private reader refuses a NULL device (IBVERBS_PRIVATE_34). */
	int (*ibdev_read)(char *, size_t, void *, const char *, ...) =
		(int (*)(char *, size_t, void *, const char *, ...))dlsym(RTLD_DEFAULT, "ibv_read_ibdev_sysfs_file");
	if (ibdev_read) {
		char buf[8];

		errno = 0;
		int ret = ibdev_read(buf, sizeof(buf), NULL, "node_%s", "guid");
		printf("ibv_read_ibdev_sysfs_file(NULL device) = %d errno=%s\n", ret, ename(errno));
	} else {
		printf("ibv_read_ibdev_sysfs_file absent\n");
	}
	return 0;
}
