/* Registration verbs newer than the system library (rdma-core 44): ibv_reg_mr_ex (IBVERBS_1.15),
 * ibv_alloc_buf, ibv_reg_buf_mr, ibv_free_buf (1.17), ibv_export_buf_dmabuf_fd (1.18), on rxe0.
 *
 * At provider ABI 34 rdma-core v65 serves these without provider ops: ibv_reg_mr_ex becomes the
 * provider's reg_mr (or reg_dmabuf_mr), ibv_alloc_buf is page-aligned heap memory. So where the
 * library lacks a verb (dlsym finds nothing: the system run), this program makes the v44 call
 * that v65 makes in its place; tests/vm/checks.txt then compares our v65 verbs with rdma-core's
 * own primitive on the same provider and kernel. Only lines that hold for both are printed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <infiniband/verbs.h>

/* rdma-core v65 verbs.h */
struct ibv_buf;
struct v65_mr_init_attr {
	size_t length;
	int access;
	uint64_t comp_mask;
	uint64_t iova;
	void *addr;
	int fd;
	uint64_t fd_offset;
	void *dmah;
	struct ibv_buf *buf;
};
enum { MASK_IOVA = 1, MASK_ADDR = 2, MASK_FD = 4, MASK_FD_OFFSET = 8 };

static struct ibv_mr *(*reg_mr_ex)(struct ibv_pd *, struct v65_mr_init_attr *);
static void *(*alloc_buf)(struct ibv_pd *, size_t, struct ibv_buf **);
static struct ibv_mr *(*reg_buf_mr)(struct ibv_pd *, struct ibv_buf *, void *, size_t, int);
static void (*free_buf)(struct ibv_buf *);
static int (*export_buf_dmabuf_fd)(struct ibv_buf *);
static struct ibv_context *ctx;

static void show(const char *name, struct ibv_mr *mr, int err, struct ibv_pd *pd, void *addr,
		 size_t len)
{
	if (!mr) {
		printf("%-30s NULL errno %s\n", name, strerrorname_np(err));
		return;
	}
	printf("%-30s ok context %d pd %d addr %d length %zu (%d)\n", name, mr->context == ctx,
	       mr->pd == pd, mr->addr == addr, mr->length, mr->length == len);
	printf("  dereg %d\n", ibv_dereg_mr(mr));
}

/* ibv_reg_mr_ex with `mask` over addr/iova/fd, or the v44 call v65 makes for it. */
static void ex(const char *name, struct ibv_pd *pd, uint64_t mask, void *addr, size_t len,
	       uint64_t iova, int fd, int access)
{
	struct v65_mr_init_attr a = { .length = len, .access = access, .comp_mask = mask,
				      .iova = iova, .addr = addr, .fd = fd, .fd_offset = 0 };
	struct ibv_mr *mr;

	errno = 0;
	if (reg_mr_ex)
		mr = reg_mr_ex(pd, &a);
	else if (mask & MASK_FD)
		mr = ibv_reg_dmabuf_mr(pd, 0, len, iova, fd, access);
	else
		mr = ibv_reg_mr_iova2(pd, addr, len, (mask & MASK_IOVA) ? iova : (uintptr_t)addr, access);
	show(name, mr, errno, pd, (mask & MASK_FD) ? NULL : addr, len);
}

int main(void)
{
	struct ibv_device **list;
	struct ibv_buf *b = NULL;
	struct ibv_pd *pd;
	struct ibv_mr *mr;
	char *p;
	int n, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	reg_mr_ex = dlsym(RTLD_DEFAULT, "ibv_reg_mr_ex");
	alloc_buf = dlsym(RTLD_DEFAULT, "ibv_alloc_buf");
	reg_buf_mr = dlsym(RTLD_DEFAULT, "ibv_reg_buf_mr");
	free_buf = dlsym(RTLD_DEFAULT, "ibv_free_buf");
	export_buf_dmabuf_fd = dlsym(RTLD_DEFAULT, "ibv_export_buf_dmabuf_fd");
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "rxe0"))
			ctx = ibv_open_device(list[i]);
	if (!ctx || !(pd = ibv_alloc_pd(ctx))) {
		printf("no rxe0\n");
		return 1;
	}

	/* 64 KiB of page-aligned memory, registered in part */
	if (alloc_buf)
		p = alloc_buf(pd, 1 << 16, &b);
	else if (posix_memalign((void **)&p, sysconf(_SC_PAGESIZE), 1 << 16))
		p = NULL;
	printf("alloc_buf %s aligned %d\n", p ? "ok" : "NULL", ((uintptr_t)p & 4095) == 0);
	if (!p)
		return 1;
	memset(p, 0, 1 << 16);
	errno = 0;
	mr = reg_buf_mr ? reg_buf_mr(pd, b, p + 4096, 8192, IBV_ACCESS_LOCAL_WRITE)
			: ibv_reg_mr(pd, p + 4096, 8192, IBV_ACCESS_LOCAL_WRITE);
	show("reg_buf_mr middle", mr, errno, pd, p + 4096, 8192);
	errno = 0;
	mr = reg_buf_mr ? reg_buf_mr(pd, b, p, 1 << 16, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ)
			: ibv_reg_mr(pd, p, 1 << 16, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	show("reg_buf_mr whole", mr, errno, pd, p, 1 << 16);
	errno = 0;
	mr = reg_buf_mr ? reg_buf_mr(pd, b, p, 4096, IBV_ACCESS_REMOTE_WRITE)
			: ibv_reg_mr(pd, p, 4096, IBV_ACCESS_REMOTE_WRITE);
	show("reg_buf_mr bad access", mr, errno, pd, p, 4096);
	if (export_buf_dmabuf_fd) {
		errno = 0;
		i = export_buf_dmabuf_fd(b);
		printf("export_buf_dmabuf_fd %d errno %s\n", i, strerrorname_np(errno));
	} else {
		printf("export_buf_dmabuf_fd -1 errno ENODATA\n");
	}

	ex("reg_mr_ex addr", pd, MASK_ADDR, p, 4096, 0, -1, IBV_ACCESS_LOCAL_WRITE);
	ex("reg_mr_ex addr iova", pd, MASK_ADDR | MASK_IOVA, p + 100, 1000, 0x10064, -1, IBV_ACCESS_LOCAL_WRITE);
	ex("reg_mr_ex addr bad access", pd, MASK_ADDR, p, 4096, 0, -1, IBV_ACCESS_REMOTE_ATOMIC);
	ex("reg_mr_ex addr NULL", pd, MASK_ADDR, NULL, 4096, 0, -1, IBV_ACCESS_LOCAL_WRITE);
	{
		int fd = open("/dev/null", O_RDONLY);

		ex("reg_mr_ex fd", pd, MASK_FD | MASK_FD_OFFSET | MASK_IOVA, NULL, 4096, 0, fd, 0);
		close(fd);
	}

	if (free_buf)
		free_buf(b);
	else
		free(p);
	printf("dealloc_pd %d\n", ibv_dealloc_pd(pd));
	ibv_close_device(ctx);
	ibv_free_device_list(list);
	return 0;
}
