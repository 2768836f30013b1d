/* The verbs newer than rdma-core 44, on a provider of the newest rdma-core release: built against
 * that release's headers and run under its libibverbs and under ours (tests/providers/newest.py),
 * on the uverbs emulator, every result printed as lifecycle.c prints them.
 *
 *   ibv_query_port_speed: port 1 (QUERY_PORT_SPEED), a port that is none (the kernel's EINVAL);
 *   ibv_reg_mr_ex: from an address with its iova (REG_MR), with another iova in the same page
 *   offset, ODP; refused by the library (an fd offset without an fd, no address: EINVAL, no
 *   command) and by the kernel (an iova in another page offset: EINVAL); each MR deregistered;
 *   ibv_alloc_dmah, ibv_dealloc_dmah (DMAH_ALLOC, DMAH_FREE) and an MR holding a DMA handle;
 *   ibv_dm_export_dmabuf_fd of a DM (DMABUF_ALLOC).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <infiniband/verbs.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The lifecycle's buffer address (lifecycle.h's FIXED_BASE): the stream shows it verbatim. */
#define FIXED_BASE ((void *)0x7e0000000000ull)

static const char *ename(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";

	return n ? n : "?";
}

static void result(const char *step, int ret)
{
	printf("%s: %s\n", step, ename(ret));
}

static int made(const char *step, const void *obj)
{
	int e = errno;

	printf("%s: %s\n", step, obj ? "ok" : ename(e ? e : -1));
	return obj != NULL;
}

static struct ibv_mr *reg_keep(struct ibv_pd *pd, const char *step, uint64_t mask, uint64_t iova, int access,
			       struct ibv_dmah *dmah)
{
	struct ibv_mr_init_attr a = {
		.length = 4096, .access = access, .comp_mask = mask,
		.addr = (char *)FIXED_BASE + 0x4000, .iova = iova, .dmah = dmah,
	};
	struct ibv_mr *mr;

	errno = 0;
	mr = ibv_reg_mr_ex(pd, &a);
	if (made(step, mr))
		printf("  lkey=%#x rkey=%#x length=%zu addr=%p\n", mr->lkey, mr->rkey, mr->length, mr->addr);
	return mr;
}

static void reg(struct ibv_pd *pd, const char *step, uint64_t mask, uint64_t iova, int access)
{
	struct ibv_mr *mr = reg_keep(pd, step, mask, iova, access, NULL);

	if (mr)
		result("dereg_mr", ibv_dereg_mr(mr));
}

/* DMA handles: one with a processing hint only, one with a steering tag (CPU 0, volatile memory),
 * refusals (no hint: the provider's EINVAL; a CPU that is none: the kernel's EINVAL), one held by
 * an MR (freeing it then: EBUSY). */
static void dmah(struct ibv_context *ctx, struct ibv_pd *pd)
{
	struct ibv_dmah_init_attr ph = { .comp_mask = IBV_DMAH_INIT_ATTR_MASK_PH, .ph = 1 };
	struct ibv_dmah_init_attr st = {
		.comp_mask = IBV_DMAH_INIT_ATTR_MASK_PH | IBV_DMAH_INIT_ATTR_MASK_CPU_ID |
			     IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE,
		.ph = 2, .cpu_id = 0, .tph_mem_type = IBV_TPH_MEM_TYPE_VM,
	};
	struct ibv_dmah_init_attr none = { .comp_mask = IBV_DMAH_INIT_ATTR_MASK_CPU_ID };
	struct ibv_dmah_init_attr far = st;
	const struct {
		const char *what;
		struct ibv_dmah_init_attr *attr;
	} tries[] = {
		{ "alloc_dmah (no hint)", &none },
		{ "alloc_dmah (a CPU that is none)", &far },
		{ "alloc_dmah (steering tag)", &st },
	};
	struct ibv_dmah *d, *e;
	struct ibv_mr *mr;

	far.cpu_id = 1u << 20;
	for (size_t i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		errno = 0;
		e = ibv_alloc_dmah(ctx, tries[i].attr);
		if (made(tries[i].what, e))
			result("dealloc_dmah", ibv_dealloc_dmah(e));
	}
	errno = 0;
	d = ibv_alloc_dmah(ctx, &ph);
	if (!made("alloc_dmah", d))
		return;
	mr = reg_keep(pd, "reg_mr_ex (dma handle)", IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_DMAH, 0,
		      IBV_ACCESS_LOCAL_WRITE, d);
	if (mr) {
		result("dealloc_dmah (in use)", ibv_dealloc_dmah(d));
		result("dereg_mr", ibv_dereg_mr(mr));
	}
	result("dealloc_dmah", ibv_dealloc_dmah(d));
}

/* A DM's pages exported as a dma-buf (DMABUF_ALLOC), the fd closed, the DM freed. */
static void dmabuf(struct ibv_context *ctx)
{
	struct ibv_alloc_dm_attr da = { .length = 4096 };
	struct ibv_dm *dm;
	int fd;

	errno = 0;
	dm = ibv_alloc_dm(ctx, &da);
	if (!made("alloc_dm", dm))
		return;
	errno = 0;
	fd = ibv_dm_export_dmabuf_fd(dm);
	result("dm_export_dmabuf_fd", fd < 0 ? errno : 0);
	if (fd >= 0)
		close(fd);
	result("free_dm", ibv_free_dm(dm));
}

int main(void)
{
	struct ibv_device **list;
	struct ibv_context *ctx;
	struct ibv_pd *pd;
	uint64_t speed = 0;
	int num = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (mmap(FIXED_BASE, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
		 -1, 0) != FIXED_BASE) {
		fprintf(stderr, "lifecycle_new: cannot map the buffer at %p\n", FIXED_BASE);
		return 2;
	}
	errno = 0;
	list = ibv_get_device_list(&num);
	if (!made("get_device_list", list) || num < 1)
		return 0;
	errno = 0;
	ctx = ibv_open_device(list[0]);
	if (!made("open_device", ctx))
		goto out;

	result("query_port_speed", ibv_query_port_speed(ctx, 1, &speed));
	printf("  speed=%llu\n", (unsigned long long)speed);
	result("query_port_speed (port 9)", ibv_query_port_speed(ctx, 9, &speed));

	errno = 0;
	pd = ibv_alloc_pd(ctx);
	if (made("alloc_pd", pd)) {
		int rw = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;

		reg(pd, "reg_mr_ex", IBV_REG_MR_MASK_ADDR, 0, rw);
		reg(pd, "reg_mr_ex (iova)", IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_IOVA, 0x1000000, rw);
		reg(pd, "reg_mr_ex ODP", IBV_REG_MR_MASK_ADDR, 0, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND);
		reg(pd, "reg_mr_ex (iova in another page offset)", IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_IOVA,
		    0x1000100, rw);
		reg(pd, "reg_mr_ex (remote write, no local write)", IBV_REG_MR_MASK_ADDR, 0,
		    IBV_ACCESS_REMOTE_WRITE);
		reg(pd, "reg_mr_ex (fd offset, no fd)", IBV_REG_MR_MASK_ADDR | IBV_REG_MR_MASK_FD_OFFSET, 0, rw);
		reg(pd, "reg_mr_ex (no address)", 0, 0, rw);
		dmah(ctx, pd);
		result("dealloc_pd", ibv_dealloc_pd(pd));
	}
	dmabuf(ctx);
	result("close_device", ibv_close_device(ctx));
out:
	ibv_free_device_list(list);
	return 0;
}
