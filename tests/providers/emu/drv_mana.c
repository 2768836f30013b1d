/* uvemu: mana's kernel driver (drivers/infiniband/hw/mana) in its first form (Linux 6.2, what the
 * rdma-core 44 provider speaks): Ethernet queues only (RAW_PACKET QPs, WQs, RSS), the doorbell page
 * at mmap offset 0, CQ buffers the provider allocates. The uapi structs are not in this machine's
 * kernel headers (linux-libc-dev 6.1): the one used is written out here.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <string.h>

#define DOORBELL_PAGE 4096u

struct mana_ib_create_cq {
	uint64_t buf_addr;
};

static int create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct mana_ib_create_cq req;

	(void)cq;
	if (r->uin_len < sizeof(req))
		return EINVAL;
	memcpy(&req, r->uin, sizeof(req));
	return req.buf_addr ? 0 : EINVAL;
}

static int mmap_check(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off)
{
	(void)c;
	(void)addr;
	(void)prot;
	return off == 0 && len == DOORBELL_PAGE ? 0 : EINVAL;
}

const struct emu_drv emu_drv_mana = {
	.name = "mana",
	.create_cq = create_cq,
	.mmap = mmap_check,
};
