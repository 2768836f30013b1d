/* PD, MR, MW, AH, XRCD, DM and import verbs on rxe0 (tests/vm/checks.txt runs this under the
 * system libibverbs and under ours; the output must be identical).
 *
 * Each line names a case and prints the return value (or ok/NULL for a returned object) and the
 * errno left (cleared before the call), plus the object fields the library fills in, compared
 * with what they must be (never pointers, handles or keys themselves). Objects are destroyed in
 * an order that also checks the kernel's use counts (dealloc_pd with a live MR, MW or AH). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <infiniband/verbs.h>

static struct ibv_context *ctx;

static const char *en(int e)
{
	return e ? strerrorname_np(e) : "0";
}

/* An int-returning call: its value and errno. */
#define INT(name, call)                                                                    \
	({                                                                                 \
		errno = 0;                                                                 \
		int r_ = (call);                                                           \
		int e_ = errno;                                                            \
		printf("%-34s ret %d errno %s\n", name, r_, en(e_));                       \
		r_;                                                                        \
	})

/* A pointer-returning call: ok, or NULL and errno. */
#define PTR(name, call)                                                                    \
	({                                                                                 \
		errno = 0;                                                                 \
		__typeof__(call) p_ = (call);                                              \
		int e_ = errno;                                                            \
		if (p_)                                                                    \
			printf("%-34s ok\n", name);                                        \
		else                                                                       \
			printf("%-34s NULL errno %s\n", name, en(e_));                     \
		p_;                                                                        \
	})

static void show_mr(const char *name, struct ibv_mr *mr, struct ibv_pd *pd, void *addr, size_t len)
{
	if (!mr)
		return;
	printf("%-34s context %d pd %d addr %d length %zu (%d) lkey==rkey %d\n", name,
	       mr->context == ctx, mr->pd == pd, mr->addr == addr, mr->length, mr->length == len,
	       mr->lkey == mr->rkey);
}

static void mr_case(const char *name, struct ibv_pd *pd, void *addr, size_t len, int access)
{
	struct ibv_mr *mr = PTR(name, ibv_reg_mr(pd, addr, len, access));

	show_mr("  fields", mr, pd, addr, len);
	if (mr)
		INT("  dereg", ibv_dereg_mr(mr));
}

static void rereg_case(const char *name, struct ibv_mr *mr, int flags, struct ibv_pd *pd, void *addr,
		       size_t len, int access)
{
	void *a0 = mr->addr;
	size_t l0 = mr->length;
	struct ibv_pd *p0 = mr->pd;

	INT(name, ibv_rereg_mr(mr, flags, pd, addr, len, access));
	printf("  unchanged addr %d length %d pd %d\n", mr->addr == a0, mr->length == l0, mr->pd == p0);
}

static struct ibv_ah_attr ah_attr(uint8_t port, uint8_t sgid_index, const union ibv_gid *dgid)
{
	struct ibv_ah_attr a;

	memset(&a, 0, sizeof(a));
	a.is_global = 1;
	a.port_num = port;
	a.grh.sgid_index = sgid_index;
	a.grh.hop_limit = 64;
	a.grh.dgid = *dgid;
	return a;
}

int main(void)
{
	struct ibv_device **list;
	struct ibv_pd *pd, *pd2;
	struct ibv_mr *mr, *mr2;
	struct ibv_mw *mw1, *mw2;
	struct ibv_ah *ah;
	struct ibv_ah_attr aa;
	union ibv_gid gid0;
	size_t big = 64 << 20;
	char *buf, *bigbuf;
	int n, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "rxe0"))
			ctx = ibv_open_device(list[i]);
	if (!ctx) {
		printf("no rxe0\n");
		return 1;
	}
	/* 1 MiB to use, then 1 MiB no one can map or touch ("unmapped" below): whatever the library
	 * and providers loaded before, the page after buf is not usable memory of the process. */
	buf = mmap(NULL, 2 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf != MAP_FAILED && mprotect(buf + (1 << 20), 1 << 20, PROT_NONE))
		buf = MAP_FAILED;
	bigbuf = mmap(NULL, big, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED || bigbuf == MAP_FAILED || ibv_query_gid(ctx, 1, 0, &gid0)) {
		printf("setup failed\n");
		return 1;
	}

	/* PD */
	pd = PTR("alloc_pd", ibv_alloc_pd(ctx));
	if (!pd)
		return 1;
	printf("  pd context %d\n", pd->context == ctx);
	pd2 = PTR("alloc_pd second", ibv_alloc_pd(ctx));
	INT("dealloc_pd second", ibv_dealloc_pd(pd2));

	/* MR: sizes, alignment, access flags */
	mr_case("reg_mr 4k", pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
	mr_case("reg_mr 64M", pd, bigbuf, big, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	mr_case("reg_mr unaligned", pd, buf + 100, 10000, IBV_ACCESS_LOCAL_WRITE);
	mr_case("reg_mr one byte", pd, buf + 4095, 1, 0);
	mr_case("reg_mr read-only", pd, buf, 8192, 0);
	mr_case("reg_mr all remote", pd, buf, 4096,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
			IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_MW_BIND);
	mr_case("reg_mr remote write w/o local", pd, buf, 4096, IBV_ACCESS_REMOTE_WRITE);
	mr_case("reg_mr remote atomic w/o local", pd, buf, 4096, IBV_ACCESS_REMOTE_ATOMIC);
	mr_case("reg_mr relaxed ordering", pd, buf, 4096,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING);
	mr_case("reg_mr unknown bit 15", pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE | (1 << 15));
	mr_case("reg_mr zero-based", pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ZERO_BASED);
	mr_case("reg_mr on-demand", pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND);
	mr_case("reg_mr implicit odp with addr", pd, buf, SIZE_MAX,
		IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND);
	mr_case("reg_mr NULL addr", pd, NULL, 4096, IBV_ACCESS_LOCAL_WRITE);
	mr_case("reg_mr length 0", pd, buf, 0, IBV_ACCESS_LOCAL_WRITE);
	mr_case("reg_mr unmapped", pd, buf + (1 << 20), 4096, IBV_ACCESS_LOCAL_WRITE);
	mr = PTR("reg_mr_iova", ibv_reg_mr_iova(pd, buf, 4096, 0x10000, IBV_ACCESS_LOCAL_WRITE));
	show_mr("  fields", mr, pd, buf, 4096);
	if (mr)
		INT("  dereg", ibv_dereg_mr(mr));
	mr = PTR("reg_mr_iova2", ibv_reg_mr_iova2(pd, buf + 8, 64, 8, IBV_ACCESS_LOCAL_WRITE));
	show_mr("  fields", mr, pd, buf + 8, 64);
	if (mr)
		INT("  dereg", ibv_dereg_mr(mr));
	{
		int fd = open("/dev/null", O_RDONLY);

		mr = PTR("reg_dmabuf_mr /dev/null", ibv_reg_dmabuf_mr(pd, 0, 4096, 0, fd, 0));
		if (mr)
			ibv_dereg_mr(mr);
		close(fd);
	}

	/* rereg: rxe has no rereg op, so valid requests fail as commands (and leave the MR) */
	mr = PTR("reg_mr for rereg", ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE));
	if (!mr)
		return 1;
	rereg_case("rereg translation", mr, IBV_REREG_MR_CHANGE_TRANSLATION, NULL, buf + 4096, 4096, 0);
	rereg_case("rereg pd", mr, IBV_REREG_MR_CHANGE_PD, pd, NULL, 0, 0);
	rereg_case("rereg access", mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
		   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	rereg_case("rereg no flags", mr, 0, NULL, NULL, 0, 0);
	rereg_case("rereg unknown flag", mr, 8, NULL, NULL, 0, 0);
	rereg_case("rereg negative flags", mr, -1, NULL, NULL, 0, 0);
	rereg_case("rereg translation NULL addr", mr, IBV_REREG_MR_CHANGE_TRANSLATION, NULL, NULL, 4096, 0);
	rereg_case("rereg translation length 0", mr, IBV_REREG_MR_CHANGE_TRANSLATION, NULL, buf, 0, 0);
	rereg_case("rereg access w/o flag", mr, IBV_REREG_MR_CHANGE_PD, pd, NULL, 0,
		   IBV_ACCESS_LOCAL_WRITE);

	/* MW */
	mw1 = PTR("alloc_mw type 1", ibv_alloc_mw(pd, IBV_MW_TYPE_1));
	if (mw1)
		printf("  mw context %d pd %d type %d\n", mw1->context == ctx, mw1->pd == pd, mw1->type);
	mw2 = PTR("alloc_mw type 2", ibv_alloc_mw(pd, IBV_MW_TYPE_2));
	if (mw2)
		printf("  mw context %d pd %d type %d\n", mw2->context == ctx, mw2->pd == pd, mw2->type);
	{
		struct ibv_mw *bad = PTR("alloc_mw type 3", ibv_alloc_mw(pd, 3));

		if (bad)
			ibv_dealloc_mw(bad);
	}

	/* AH */
	aa = ah_attr(1, 0, &gid0);
	ah = PTR("create_ah gid0", ibv_create_ah(pd, &aa));
	if (ah)
		printf("  ah context %d pd %d\n", ah->context == ctx, ah->pd == pd);
	{
		struct ibv_ah *bad;

		aa = ah_attr(2, 0, &gid0);
		bad = PTR("create_ah bad port", ibv_create_ah(pd, &aa));
		if (bad)
			ibv_destroy_ah(bad);
		aa = ah_attr(1, 200, &gid0);
		bad = PTR("create_ah bad sgid index", ibv_create_ah(pd, &aa));
		if (bad)
			ibv_destroy_ah(bad);
		aa = ah_attr(1, 2, &gid0);
		bad = PTR("create_ah empty sgid slot", ibv_create_ah(pd, &aa));
		if (bad)
			ibv_destroy_ah(bad);
		aa = ah_attr(1, 0, &gid0);
		aa.is_global = 0;
		bad = PTR("create_ah no grh", ibv_create_ah(pd, &aa));
		if (bad)
			ibv_destroy_ah(bad);
	}

	/* Destroy ordering: the PD is busy while any of them lives */
	INT("dealloc_pd with mr, mw, ah", ibv_dealloc_pd(pd));
	INT("dereg_mr", ibv_dereg_mr(mr));
	INT("dealloc_pd with mw, ah", ibv_dealloc_pd(pd));
	if (mw1)
		INT("dealloc_mw type 1", ibv_dealloc_mw(mw1));
	if (mw2)
		INT("dealloc_mw type 2", ibv_dealloc_mw(mw2));
	INT("dealloc_pd with ah", ibv_dealloc_pd(pd));
	if (ah)
		INT("destroy_ah", ibv_destroy_ah(ah));
	mr = PTR("reg_mr again", ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE));
	mr2 = PTR("reg_mr same range twice", ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE));
	INT("dealloc_pd with two mrs", ibv_dealloc_pd(pd));
	if (mr)
		INT("dereg_mr first", ibv_dereg_mr(mr));
	if (mr2)
		INT("dereg_mr second", ibv_dereg_mr(mr2));

	/* XRCD and DM: rxe has neither */
	{
		struct ibv_xrcd_init_attr xa = { .comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
						 .fd = -1, .oflags = O_CREAT };
		struct ibv_alloc_dm_attr da = { .length = 4096 };
		struct ibv_xrcd *x = PTR("open_xrcd", ibv_open_xrcd(ctx, &xa));
		struct ibv_dm *dm;

		if (x)
			ibv_close_xrcd(x);
		dm = PTR("alloc_dm", ibv_alloc_dm(ctx, &da));
		if (dm)
			ibv_free_dm(dm);
		dm = PTR("import_dm", ibv_import_dm(ctx, 1));
	}

	/* Import: rxe cannot import PDs or MRs */
	{
		int fd = dup(ctx->cmd_fd);
		struct ibv_context *ic = PTR("import_device", ibv_import_device(fd));
		struct ibv_context *on = ic ? ic : ctx;

		mr = ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE);
		pd2 = PTR("import_pd", ibv_import_pd(on, pd->handle));
		if (pd2) {
			struct ibv_mr *imr = PTR("import_mr", ibv_import_mr(pd2, mr->handle));

			if (imr)
				ibv_unimport_mr(imr);
			ibv_unimport_pd(pd2);
		}
		pd2 = PTR("import_pd bad handle", ibv_import_pd(on, 0xfffff));
		mr2 = PTR("import_mr via own pd", ibv_import_mr(pd, mr->handle));
		INT("dereg_mr", ibv_dereg_mr(mr));
		if (ic)
			ibv_close_device(ic);
		else
			close(fd);
	}

	INT("dealloc_pd", ibv_dealloc_pd(pd));
	INT("close_device", ibv_close_device(ctx));
	ibv_free_device_list(list);
	return 0;
}
