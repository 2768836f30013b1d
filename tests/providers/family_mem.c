/* The memory families of the provider lifecycle.
 *
 * lifecycle dm: device memory (ibv_alloc_dm, ibv_memcpy_to_dm and back, ibv_reg_dm_mr,
 * ibv_free_dm): a DM written and read back, a zero-based MR on it, the DM refused while the MR
 * lives (EBUSY), and the library's and the provider's own refusals (an MR that is not zero-based,
 * a DM larger than the device's max_dm_size).
 *
 * lifecycle mr: the MR variants beyond ibv_reg_mr: an ODP MR (IBV_ACCESS_ON_DEMAND) prefetched
 * with ibv_advise_mr (a plain MR's key and an empty list refused), the ODP MR imported again by
 * its handle (ibv_import_mr: QUERY_MR; a handle that is none refused), and a dma-buf MR on a
 * memfd (ibv_reg_dmabuf_mr; a closed fd: EBADF).
 * Every result printed; a step that fails skips what needs it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lifecycle.h"

/* Inside the lifecycle's buffer at its fixed address (lifecycle.c's FIXED_BASE, 64 KiB): the
 * stream shows it verbatim under both libraries. */
#define MEM ((char *)0x7e0000008000ull)

void family_dm(struct ibv_context *ctx)
{
	struct ibv_device_attr_ex dx = { 0 };
	struct ibv_alloc_dm_attr da = { .length = 4096, .log_align_req = 6 };
	struct ibv_mr *mr = NULL;
	struct ibv_dm *dm = NULL;
	struct ibv_pd *pd;
	char out[64], in[64];

	errno = 0;
	pd = ibv_alloc_pd(ctx);
	made("alloc_pd", pd);
	result("query_device_ex", ibv_query_device_ex(ctx, NULL, &dx));
	SHOW("max_dm_size=%llu", (unsigned long long)dx.max_dm_size);

	errno = 0;
	dm = ibv_alloc_dm(ctx, &da);
	if (made("alloc_dm", dm)) {
		for (unsigned i = 0; i < sizeof(out); i++)
			out[i] = (char)(i * 7 + 1);
		memset(in, 0, sizeof(in));
		result("memcpy_to_dm", ibv_memcpy_to_dm(dm, 128, out, sizeof(out)));
		result("memcpy_from_dm", ibv_memcpy_from_dm(in, dm, 128, sizeof(in)));
		SHOW("read back %s", memcmp(in, out, sizeof(in)) ? "differs" : "the same");
	}
	if (pd && dm) {
		errno = 0;
		mr = ibv_reg_dm_mr(pd, dm, 0, 2048, IBV_ACCESS_LOCAL_WRITE);
		made("reg_dm_mr (not zero-based)", mr);
		errno = 0;
		mr = ibv_reg_dm_mr(pd, dm, 1024, 2048,
				   IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
		if (made("reg_dm_mr", mr))
			SHOW("lkey=%#x rkey=%#x length=%zu addr=%p", mr->lkey, mr->rkey, mr->length, mr->addr);
	} else {
		skip("reg_dm_mr");
	}
	if (dm && mr)
		result("free_dm (in use)", ibv_free_dm(dm));
	if (mr)
		result("dereg_mr", ibv_dereg_mr(mr));
	if (dm)
		result("free_dm", ibv_free_dm(dm));

	da.length = 1ull << 40;
	errno = 0;
	dm = ibv_alloc_dm(ctx, &da);
	if (made("alloc_dm (too large)", dm))
		result("free_dm", ibv_free_dm(dm));
	if (pd)
		result("dealloc_pd", ibv_dealloc_pd(pd));
}

void family_mr(struct ibv_context *ctx)
{
	struct ibv_mr *odp = NULL, *plain = NULL, *imported = NULL, *dmabuf = NULL;
	struct ibv_pd *pd;
	int fd;

	errno = 0;
	pd = ibv_alloc_pd(ctx);
	if (!made("alloc_pd", pd))
		return;
	errno = 0;
	odp = ibv_reg_mr(pd, MEM, 8192, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ON_DEMAND);
	if (made("reg_mr ODP", odp))
		SHOW("lkey=%#x rkey=%#x", odp->lkey, odp->rkey);
	errno = 0;
	plain = ibv_reg_mr(pd, MEM + 8192, 4096, IBV_ACCESS_LOCAL_WRITE);
	made("reg_mr", plain);
	if (odp) {
		struct ibv_sge sge = { .addr = (uintptr_t)MEM, .length = 4096, .lkey = odp->lkey };

		result("advise_mr PREFETCH_WRITE",
		       ibv_advise_mr(pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE, IBV_ADVISE_MR_FLAG_FLUSH, &sge, 1));
		if (plain) {
			sge.addr = (uintptr_t)MEM + 8192;
			sge.lkey = plain->lkey;
			result("advise_mr PREFETCH (not ODP)",
			       ibv_advise_mr(pd, IBV_ADVISE_MR_ADVICE_PREFETCH, 0, &sge, 1));
		}
		result("advise_mr (no sge)", ibv_advise_mr(pd, IBV_ADVISE_MR_ADVICE_PREFETCH, 0, &sge, 0));
		errno = 0;
		imported = ibv_import_mr(pd, 1000);
		if (made("import_mr (no such handle)", imported))
			ibv_unimport_mr(imported);
		errno = 0;
		imported = ibv_import_mr(pd, odp->handle);
		if (made("import_mr", imported))
			SHOW("handle=%u lkey=%#x rkey=%#x length=%zu addr=%p", imported->handle, imported->lkey,
			     imported->rkey, imported->length, imported->addr);
	} else {
		skip("advise_mr PREFETCH_WRITE");
		skip("import_mr");
	}
	if (imported)
		ibv_unimport_mr(imported);

	fd = memfd_create("dmabuf", MFD_CLOEXEC);
	if (fd >= 0 && ftruncate(fd, 16384) == 0) {
		errno = 0;
		dmabuf = ibv_reg_dmabuf_mr(pd, 4096, 8192, 0x10000, fd, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
		if (made("reg_dmabuf_mr", dmabuf))
			SHOW("lkey=%#x rkey=%#x length=%zu addr=%p", dmabuf->lkey, dmabuf->rkey, dmabuf->length,
			     dmabuf->addr);
		errno = 0;
		close(fd);
		{
			struct ibv_mr *bad = ibv_reg_dmabuf_mr(pd, 0, 4096, 0, fd, IBV_ACCESS_LOCAL_WRITE);

			if (made("reg_dmabuf_mr (closed fd)", bad))
				result("dereg_mr", ibv_dereg_mr(bad));
		}
	} else {
		printf("memfd: %s\n", ename(errno));
	}
	if (dmabuf)
		result("dereg_mr dma-buf", ibv_dereg_mr(dmabuf));
	if (plain)
		result("dereg_mr", ibv_dereg_mr(plain));
	if (odp)
		result("dereg_mr ODP", ibv_dereg_mr(odp));
	result("dealloc_pd", ibv_dealloc_pd(pd));
}
