/* uvemu: the core methods newer than the system's uapi headers (Debian 12's, Linux 6.1), which
 * rdma-core sends from 61.0 (REG_MR: ibv_reg_mr_ex; DMAH: ibv_alloc_dmah) and 64.0
 * (QUERY_PORT_SPEED: ibv_query_port_speed) on; the newest release's lifecycle (lifecycle_new.c) reaches them.
 *
 * QUERY_PORT_SPEED as uverbs_std_types_device.c: EOPNOTSUPP for a driver without query_port_speed
 * (emu_dev's port_speed 0), EINVAL for a port that is none, else the driver's speed (100 Mb/s
 * units). REG_MR as uverbs_std_types_mr.c: the iova and length; an address (its offset in the
 * page the iova's) or a dma-buf fd with its offset (a driver without reg_user_mr_dmabuf:
 * EOPNOTSUPP; then only the access flags a dma-buf MR takes), never both; the access flags known
 * and ib_check_mr_access's rules; a DMA handle none of which exists here (EINVAL); then the MR as
 * the write command makes it (core_obj.c), holding its DMA handle. DMAH_ALLOC and DMAH_FREE on a
 * device whose driver has DMA handles (emu_dev's dmah; mlx5's TPH steering tags), the handle
 * refused while an MR holds it (EBUSY). DMABUF_ALLOC (ibv_dm_export_dmabuf_fd, 64.0 on) of a DM's
 * pages on a device whose driver maps offsets to entries (emu_drv's dmabuf_dm: mlx5).
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

/* The kernel uapi's numbers (include/uapi/rdma/ib_user_ioctl_cmds.h; the system's headers
 * predate them). */
#define EMU_METHOD_QUERY_PORT_SPEED (UVERBS_METHOD_QUERY_GID_ENTRY + 1)
enum { SPEED_PORT_NUM, SPEED_RESP };
#define EMU_METHOD_REG_MR (UVERBS_METHOD_REG_DMABUF_MR + 1)
enum {
	MR_HANDLE, MR_PD_HANDLE, MR_DMA_HANDLE, MR_IOVA, MR_ADDR, MR_LENGTH, MR_ACCESS_FLAGS, MR_FD,
	MR_FD_OFFSET, MR_RESP_LKEY, MR_RESP_RKEY,
};

/* The DMAH object (EMU_OBJECT_DMAH, uvemu.h). */
enum { DMAH_ALLOC, DMAH_FREE };
enum { DMAH_HANDLE, DMAH_CPU_ID, DMAH_TPH_MEM_TYPE, DMAH_PH };
#define TPH_MEM_TYPES 2 /* the enum's elements: volatile and persistent memory */

/* The DMABUF object (EMU_OBJECT_DMABUF, uvemu.h). */
enum { DMABUF_ALLOC };
enum { DMABUF_HANDLE, DMABUF_PGOFF };

#define PAGE_OFF(x) ((x) & 4095)
/* IB_ACCESS_SUPPORTED: every flag up to HUGETLB and the optional ones. */
#define ACCESS_SUPPORTED (((IB_UVERBS_ACCESS_HUGETLB << 1) - 1) | IB_UVERBS_ACCESS_OPTIONAL_RANGE)
#define ACCESS_DMABUF (IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_READ | \
		       IB_UVERBS_ACCESS_REMOTE_WRITE | IB_UVERBS_ACCESS_REMOTE_ATOMIC | \
		       IB_UVERBS_ACCESS_RELAXED_ORDERING)

bool emu_newer_method(uint16_t obj, uint16_t meth)
{
	return (obj == UVERBS_OBJECT_DEVICE && meth == EMU_METHOD_QUERY_PORT_SPEED) ||
	       (obj == UVERBS_OBJECT_MR && meth == EMU_METHOD_REG_MR) || obj == EMU_OBJECT_DMAH ||
	       obj == EMU_OBJECT_DMABUF;
}

/* A u64 PTR_IN attribute: 0, ENOENT when absent, EINVAL when not 8 bytes. */
static int in_u64(struct emu_req *r, uint16_t id, uint64_t *v)
{
	size_t len;
	const void *p = emu_attr_in(r, id, &len);

	if (!p)
		return ENOENT;
	if (len != sizeof(*v))
		return EINVAL;
	memcpy(v, p, sizeof(*v));
	return 0;
}

static int query_port_speed(struct emu_req *r)
{
	uint64_t speed = r->dev->port_speed;

	if (!speed)
		return EOPNOTSUPP;
	if (emu_attr_u64(r, SPEED_PORT_NUM, 0) != 1)
		return EINVAL;
	return emu_attr_out(r, SPEED_RESP, &speed, sizeof(speed));
}

static int reg_mr(struct emu_req *r)
{
	uint64_t iova, length, addr = 0, off = 0, flags = emu_attr_u64(r, MR_ACCESS_FLAGS, 0), valid = ACCESS_SUPPORTED;
	uint32_t pdh = emu_attr_handle(r, MR_PD_HANDLE), h;
	bool has_addr, has_off, has_fd = emu_attr(r, MR_FD) != NULL;
	struct emu_obj *mr;

	uint32_t dmah = emu_attr_handle(r, MR_DMA_HANDLE);

	if (!emu_obj_get(r->ctx, UVERBS_OBJECT_PD, pdh))
		return EINVAL;
	if (emu_attr(r, MR_DMA_HANDLE) && !emu_obj_get(r->ctx, EMU_OBJECT_DMAH, dmah))
		return EINVAL;
	if (in_u64(r, MR_IOVA, &iova) || in_u64(r, MR_LENGTH, &length))
		return EINVAL;
	has_addr = !in_u64(r, MR_ADDR, &addr);
	has_off = !in_u64(r, MR_FD_OFFSET, &off);
	if (has_fd) {
		if (!r->dev->dmabuf)
			return EOPNOTSUPP;
		if (!has_off || has_addr || PAGE_OFF(off) != PAGE_OFF(iova))
			return EINVAL;
		valid = ACCESS_DMABUF;
	} else if (!has_addr || has_off || PAGE_OFF(addr) != PAGE_OFF(iova)) {
		return EINVAL;
	}
	if (flags & ~valid)
		return EINVAL;
	/* ib_check_mr_access */
	if ((flags & (IB_UVERBS_ACCESS_REMOTE_WRITE | IB_UVERBS_ACCESS_REMOTE_ATOMIC)) &&
	    !(flags & IB_UVERBS_ACCESS_LOCAL_WRITE))
		return EINVAL;
	if ((flags & IB_UVERBS_ACCESS_ON_DEMAND) && !r->dev->odp)
		return EOPNOTSUPP;
	if (has_fd && fcntl((int)emu_attr_u64(r, MR_FD, ~0ull), F_GETFD) < 0)
		return EBADF;
	mr = emu_obj_new(r->ctx, UVERBS_OBJECT_MR, &h);
	if (!mr)
		return ENOMEM;
	mr->num = emu_next_num(r->ctx, UVERBS_OBJECT_MR) << 8;
	mr->pd = pdh;
	mr->length = length;
	mr->iova = iova;
	mr->odp = flags & IB_UVERBS_ACCESS_ON_DEMAND;
	emu_obj_use(r->ctx, UVERBS_OBJECT_PD, pdh, 1);
	if (emu_attr(r, MR_DMA_HANDLE)) {
		mr->dmah = dmah;
		emu_obj_use(r->ctx, EMU_OBJECT_DMAH, dmah, 1);
	}
	emu_attr_new_handle(r, MR_HANDLE, h);
	emu_attr_out(r, MR_RESP_LKEY, &mr->num, sizeof(mr->num));
	return emu_attr_out(r, MR_RESP_RKEY, &mr->num, sizeof(mr->num));
}

/* DMAH_ALLOC: the core's (uverbs_std_types_dmah.c: a CPU that is none, EINVAL; one the caller may
 * not run on, EPERM; the memory type an element of its enum, else EOPNOTSUPP), then the driver's
 * (mlx5_ib_alloc_dmah: PH required; a steering tag needs both the CPU and the memory type). */
static int dmah_alloc(struct emu_req *r)
{
	struct ib_uverbs_attr *cpu = emu_attr(r, DMAH_CPU_ID), *mem = emu_attr(r, DMAH_TPH_MEM_TYPE);
	struct emu_obj *o;
	cpu_set_t set;
	uint32_t h;

	if (!r->dev->dmah)
		return EPROTONOSUPPORT; /* the object needs the driver's alloc_dmah */
	if (cpu) {
		uint32_t id = emu_attr_u64(r, DMAH_CPU_ID, 0);

		if (cpu->len != sizeof(id) || id >= CPU_SETSIZE)
			return EINVAL;
		if (sched_getaffinity(0, sizeof(set), &set) || !CPU_ISSET(id, &set))
			return EPERM;
	}
	if (mem && mem->attr_data.enum_data.elem_id >= TPH_MEM_TYPES)
		return EOPNOTSUPP;
	if (!emu_attr(r, DMAH_PH) || !cpu != !mem)
		return EINVAL;
	o = emu_obj_new(r->ctx, EMU_OBJECT_DMAH, &h);
	if (!o)
		return ENOMEM;
	emu_attr_new_handle(r, DMAH_HANDLE, h);
	return 0;
}

/* DMABUF_ALLOC (uverbs_std_types_dmabuf.c): the driver's mmap entry at the offset (none:
 * EINVAL), exported as a dma-buf fd (here a memfd of the DM's pages, close-on-exec) written into
 * the handle attribute. */
static int dmabuf_alloc(struct emu_req *r)
{
	const struct emu_drv *d = emu_req_drv(r);
	struct ib_uverbs_attr *a = emu_attr(r, DMABUF_HANDLE);
	int64_t num;
	int fd;

	if (!d->dmabuf_dm)
		return EPROTONOSUPPORT;
	if (!a || r->hdr->method_id != DMABUF_ALLOC)
		return EINVAL;
	num = d->dmabuf_dm(emu_attr_u64(r, DMABUF_PGOFF, ~0ull));
	for (uint32_t h = 0; num >= 0 && h < EMU_MAX_OBJ; h++) {
		struct emu_obj *dm = emu_obj_get(r->ctx, UVERBS_OBJECT_DM, h);

		if (!dm || dm->num != num)
			continue;
		fd = memfd_create("uverbs-dmabuf", MFD_CLOEXEC);
		if (fd < 0)
			return errno;
		if (ftruncate(fd, (dm->length + 4095) & ~4095ull)) {
			int e = errno;

			real_close(fd);
			return e;
		}
		a->data = fd;
		return 0;
	}
	return EINVAL;
}

int emu_newer_ioctl(struct emu_req *r)
{
	if (r->hdr->object_id == EMU_OBJECT_DMABUF)
		return dmabuf_alloc(r);
	if (r->hdr->object_id == EMU_OBJECT_DMAH) {
		if (!r->dev->dmah)
			return EPROTONOSUPPORT;
		if (r->hdr->method_id == DMAH_ALLOC)
			return dmah_alloc(r);
		if (r->hdr->method_id == DMAH_FREE)
			return emu_obj_destroy(r, EMU_OBJECT_DMAH, emu_attr_handle(r, DMAH_HANDLE));
		return EPROTONOSUPPORT;
	}
	return r->hdr->object_id == UVERBS_OBJECT_DEVICE ? query_port_speed(r) : reg_mr(r);
}

char emu_newer_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr)
{
	if (obj == UVERBS_OBJECT_DEVICE)
		return attr == SPEED_PORT_NUM ? 'c' : attr == SPEED_RESP ? 'o' : 0;
	if (obj == EMU_OBJECT_DMABUF)
		return attr == DMABUF_HANDLE ? 'F' : attr == DMABUF_PGOFF ? 'c' : 0;
	if (obj == EMU_OBJECT_DMAH) {
		if (meth == DMAH_FREE)
			return attr == DMAH_HANDLE ? 'h' : 0;
		return attr == DMAH_HANDLE ? 'n' : attr == DMAH_CPU_ID ? 'c' : attr == DMAH_TPH_MEM_TYPE ? 'e'
		       : attr == DMAH_PH ? 'c' : 0;
	}
	switch (attr) {
	case MR_HANDLE: return 'n';
	case MR_PD_HANDLE:
	case MR_DMA_HANDLE: return 'h';
	case MR_FD: return 'f';
	case MR_RESP_LKEY:
	case MR_RESP_RKEY: return 'o';
	case MR_ACCESS_FLAGS: return 'c';
	}
	return attr < MR_RESP_LKEY ? 'i' : 0;
}
