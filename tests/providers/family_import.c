/* The import family of the provider lifecycle (lifecycle import): a context shared through its
 * command fd, as a second process would take it over (ibv_import_device), and objects shared by
 * their handles (ibv_import_pd, ibv_import_mr; ibv_unimport_pd, ibv_unimport_mr).
 *
 * An fd that is no uverbs node (a pipe: the library's EINVAL, no command) and one opened without a
 * context (QUERY_CONTEXT refused) are refused; a dup() of the context's command fd is imported
 * (QUERY_CONTEXT: the core's num_comp_vectors and core_support and the driver's ucontext answer)
 * and used (a PD allocated and freed on it); the first context's PD and MR are imported into it by
 * handle (mlx5: its PD_QUERY method; QUERY_MR), unimported (no command), everything freed and the
 * imported context closed (its fd: the shared context stays).
 * Every result printed; a step that fails skips what needs it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "lifecycle.h"

/* Inside the lifecycle's buffer at its fixed address (lifecycle.c's FIXED_BASE, 64 KiB). */
#define MEM ((char *)0x7e000000c000ull)

static void use_imported(struct ibv_context *ictx, struct ibv_pd *pd, struct ibv_mr *mr)
{
	struct ibv_pd *ipd, *own;
	struct ibv_mr *imr = NULL;

	errno = 0;
	own = ibv_alloc_pd(ictx);
	if (made("alloc_pd (imported context)", own))
		result("dealloc_pd (imported context)", ibv_dealloc_pd(own));
	if (!pd) {
		skip("import_pd");
		return;
	}
	errno = 0;
	ipd = ibv_import_pd(ictx, pd->handle);
	if (!made("import_pd", ipd))
		return;
	SHOW("handle=%u same=%d", ipd->handle, ipd->handle == pd->handle);
	if (mr) {
		errno = 0;
		imr = ibv_import_mr(ipd, mr->handle);
		if (made("import_mr", imr))
			SHOW("handle=%u lkey=%#x rkey=%#x length=%zu addr=%p", imr->handle, imr->lkey, imr->rkey,
			     imr->length, imr->addr);
	} else {
		skip("import_mr");
	}
	if (imr)
		ibv_unimport_mr(imr);
	ibv_unimport_pd(ipd);
}

void family_import(struct ibv_context *ctx)
{
	struct ibv_context *ictx;
	struct ibv_pd *pd;
	struct ibv_mr *mr = NULL;
	char path[128];
	int pipefd[2], fd;

	if (pipe(pipefd) == 0) {
		errno = 0;
		ictx = ibv_import_device(pipefd[0]);
		if (made("import_device (a pipe)", ictx))
			ibv_close_device(ictx);
		close(pipefd[0]);
		close(pipefd[1]);
	}

	/* A node opened again has no context until GET_CONTEXT: nothing to import. A failed
	 * import closes the fd (the provider's uninit), so it is not closed here. */
	snprintf(path, sizeof(path), "/dev/infiniband/%s", ctx->device->dev_name);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		errno = 0;
		ictx = ibv_import_device(fd);
		if (made("import_device (no context)", ictx))
			ibv_close_device(ictx);
	} else {
		printf("open %s: %s\n", path, ename(errno));
	}

	errno = 0;
	pd = ibv_alloc_pd(ctx);
	made("alloc_pd", pd);
	if (pd) {
		errno = 0;
		mr = ibv_reg_mr(pd, MEM, 4096, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
		made("reg_mr", mr);
	}

	fd = dup(ctx->cmd_fd);
	errno = 0;
	ictx = fd >= 0 ? ibv_import_device(fd) : NULL;
	if (made("import_device", ictx)) {
		SHOW("num_comp_vectors=%d same device=%d", ictx->num_comp_vectors, ictx->device == ctx->device);
		use_imported(ictx, pd, mr);
		result("close_device (imported)", ibv_close_device(ictx));
	} else {
		skip("import_pd");
	}
	if (mr)
		result("dereg_mr", ibv_dereg_mr(mr));
	if (pd)
		result("dealloc_pd", ibv_dealloc_pd(pd));
}
