/* uvemu: device memory and the MR methods beyond REG_MR (drivers/infiniband/core/
 * uverbs_std_types_dm.c and uverbs_std_types_mr.c): DM_ALLOC and DM_FREE, DM_MR_REG, ADVISE_MR,
 * QUERY_MR and REG_DMABUF_MR, on a device whose kernel driver has them (emu_dev's dm, odp, dmabuf;
 * the others answer EOPNOTSUPP as a driver without alloc_dm, advise_mr or reg_user_mr_dmabuf).
 *
 * DM_ALLOC takes the driver's part from its alloc_dm hook (mlx5: the MEMIC page index and start
 * offset the provider maps, drv_mlx5.c). A DM MR is zero-based (the core refuses one without
 * IB_ACCESS_ZERO_BASED) and keeps its DM in use (freeing the DM then is EBUSY). ADVISE_MR prefetches
 * only ODP MRs of its PD. A dma-buf MR takes any open fd as its dma-buf (a closed one: EBADF, as
 * dma_buf_get).
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>

#define MR_KEY_SHIFT 8

static uint32_t handle_of(struct emu_req *r, uint16_t id)
{
	return (uint32_t)emu_attr_u64(r, id, ~0u);
}

/* The access flags a verbs MR may have (IB_ACCESS_SUPPORTED, kernel-internal: bits 0-9, 20). */
static bool access_ok(struct emu_req *r, uint64_t access)
{
	if (access & ~(uint64_t)((1u << 10) - 1) & ~(uint64_t)(1u << 20))
		return false;
	/* ib_check_mr_access: remote write or atomic needs local write */
	if ((access & (IB_UVERBS_ACCESS_REMOTE_WRITE | IB_UVERBS_ACCESS_REMOTE_ATOMIC)) &&
	    !(access & IB_UVERBS_ACCESS_LOCAL_WRITE))
		return false;
	return !(access & IB_UVERBS_ACCESS_ON_DEMAND) || r->dev->odp;
}

/* A new MR on pd (the caller checked it), its keys written to the two output attributes. */
static int new_mr(struct emu_req *r, uint32_t pd, uint64_t length, uint64_t iova, uint32_t dm,
		  uint16_t handle_attr, uint16_t lkey_attr, uint16_t rkey_attr)
{
	struct ib_uverbs_attr *ha = emu_attr(r, handle_attr);
	struct emu_obj *mr;
	uint32_t h;

	if (!ha)
		return EINVAL;
	mr = emu_obj_new(r->ctx, UVERBS_OBJECT_MR, &h);
	if (!mr)
		return ENOMEM;
	mr->num = emu_next_num(r->ctx, UVERBS_OBJECT_MR) << MR_KEY_SHIFT;
	mr->pd = pd;
	mr->length = length;
	mr->iova = iova;
	mr->dm = dm;
	emu_obj_use(r->ctx, UVERBS_OBJECT_PD, pd, 1);
	emu_obj_use(r->ctx, UVERBS_OBJECT_DM, dm, 1);
	ha->data = h;
	emu_attr_out(r, lkey_attr, &mr->num, sizeof(mr->num));
	return emu_attr_out(r, rkey_attr, &mr->num, sizeof(mr->num));
}

/* ---- DM ---- */

static int dm_alloc(struct emu_req *r)
{
	struct ib_uverbs_attr *ha = emu_attr(r, UVERBS_ATTR_ALLOC_DM_HANDLE);
	uint64_t length = emu_attr_u64(r, UVERBS_ATTR_ALLOC_DM_LENGTH, 0);
	struct emu_obj *dm;
	uint32_t h;
	int ret;

	if (!ha || !emu_attr(r, UVERBS_ATTR_ALLOC_DM_LENGTH) || !emu_attr(r, UVERBS_ATTR_ALLOC_DM_ALIGNMENT))
		return EINVAL;
	if (!r->dev->dm || !emu_req_drv(r)->alloc_dm)
		return EOPNOTSUPP;
	if (!length || length > EMU_DM_MAX)
		return EINVAL;
	dm = emu_obj_new(r->ctx, UVERBS_OBJECT_DM, &h);
	if (!dm)
		return ENOMEM;
	dm->length = length;
	dm->num = ~0u;
	ret = emu_req_drv(r)->alloc_dm(r, dm);
	if (ret) {
		emu_obj_free(r->ctx, h);
		return ret;
	}
	ha->data = h;
	return 0;
}

/* The DM whose driver number (mlx5: the MEMIC page index) is num, mapped with len bytes: 0, else
 * EINVAL (for the drivers' mmap hooks). */
int emu_dm_mmap_check(struct emu_ctx *c, uint32_t num, size_t len)
{
	for (uint32_t h = 0; h < EMU_MAX_OBJ; h++) {
		struct emu_obj *o = emu_obj_get(c, UVERBS_OBJECT_DM, h);

		if (o && o->num == num)
			return len && len <= ((o->length + 4095) & ~4095ull) ? 0 : EINVAL;
	}
	return EINVAL;
}

static int dm_mr_reg(struct emu_req *r)
{
	uint32_t pd = handle_of(r, UVERBS_ATTR_REG_DM_MR_PD_HANDLE), dmh = handle_of(r, UVERBS_ATTR_REG_DM_MR_DM_HANDLE);
	uint64_t off = emu_attr_u64(r, UVERBS_ATTR_REG_DM_MR_OFFSET, 0);
	uint64_t len = emu_attr_u64(r, UVERBS_ATTR_REG_DM_MR_LENGTH, 0);
	uint64_t access = emu_attr_u64(r, UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS, 0);
	struct emu_obj *dm = emu_obj_get(r->ctx, UVERBS_OBJECT_DM, dmh);

	if (!emu_obj_get(r->ctx, UVERBS_OBJECT_PD, pd) || !dm)
		return EINVAL;
	if (!(access & IB_UVERBS_ACCESS_ZERO_BASED) || !access_ok(r, access))
		return EINVAL;
	if (off > dm->length || len > dm->length - off)
		return EINVAL;
	/* mlx5_ib_reg_dm_mr for MEMIC: local and remote read, write and atomics only */
	if (access & ~(uint64_t)(IB_UVERBS_ACCESS_LOCAL_WRITE | IB_UVERBS_ACCESS_REMOTE_WRITE |
				 IB_UVERBS_ACCESS_REMOTE_READ | IB_UVERBS_ACCESS_REMOTE_ATOMIC |
				 IB_UVERBS_ACCESS_ZERO_BASED))
		return EINVAL;
	return new_mr(r, pd, len, 0, dmh, UVERBS_ATTR_REG_DM_MR_HANDLE, UVERBS_ATTR_REG_DM_MR_RESP_LKEY,
		      UVERBS_ATTR_REG_DM_MR_RESP_RKEY);
}

/* ---- ODP, dma-buf, query ---- */

static int advise_mr(struct emu_req *r)
{
	uint32_t pd = handle_of(r, UVERBS_ATTR_ADVISE_MR_PD_HANDLE);
	uint64_t advice = emu_attr_u64(r, UVERBS_ATTR_ADVISE_MR_ADVICE, ~0ull);
	uint64_t flags = emu_attr_u64(r, UVERBS_ATTR_ADVISE_MR_FLAGS, 0);
	size_t len = 0;
	const struct ib_uverbs_sge *sge = emu_attr_in(r, UVERBS_ATTR_ADVISE_MR_SGE_LIST, &len);

	if (!emu_obj_get(r->ctx, UVERBS_OBJECT_PD, pd) || !sge || !len || len % sizeof(*sge))
		return EINVAL;
	if (flags & ~(uint64_t)IB_UVERBS_ADVISE_MR_FLAG_FLUSH)
		return EINVAL;
	if (!r->dev->odp)
		return EOPNOTSUPP;
	if (advice > IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT)
		return EOPNOTSUPP;
	/* each lkey: an ODP MR of this PD covering the range */
	for (size_t i = 0; i < len / sizeof(*sge); i++) {
		struct emu_obj *mr = NULL;

		for (uint32_t h = 0; h < EMU_MAX_OBJ && !mr; h++) {
			struct emu_obj *o = emu_obj_get(r->ctx, UVERBS_OBJECT_MR, h);

			if (o && o->num == sge[i].lkey)
				mr = o;
		}
		if (!mr || mr->pd != pd || !mr->odp || sge[i].addr < mr->iova ||
		    sge[i].addr + sge[i].length > mr->iova + mr->length)
			return EINVAL;
	}
	return 0;
}

static int reg_dmabuf_mr(struct emu_req *r)
{
	uint32_t pd = handle_of(r, UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE);
	uint64_t off = emu_attr_u64(r, UVERBS_ATTR_REG_DMABUF_MR_OFFSET, 0);
	uint64_t len = emu_attr_u64(r, UVERBS_ATTR_REG_DMABUF_MR_LENGTH, 0);
	uint64_t iova = emu_attr_u64(r, UVERBS_ATTR_REG_DMABUF_MR_IOVA, 0);
	int fd = (int)emu_attr_u64(r, UVERBS_ATTR_REG_DMABUF_MR_FD, -1);
	uint64_t access = emu_attr_u64(r, UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS, 0);

	if (!emu_attr(r, UVERBS_ATTR_REG_DMABUF_MR_OFFSET) || !emu_attr(r, UVERBS_ATTR_REG_DMABUF_MR_LENGTH) ||
	    !emu_attr(r, UVERBS_ATTR_REG_DMABUF_MR_IOVA) || !emu_attr(r, UVERBS_ATTR_REG_DMABUF_MR_FD))
		return EINVAL;
	if (!emu_obj_get(r->ctx, UVERBS_OBJECT_PD, pd) || !access_ok(r, access))
		return EINVAL;
	if (!r->dev->dmabuf)
		return EOPNOTSUPP;
	/* ib_umem_dmabuf_get: the range within the buffer, the offset and iova in the same page */
	if (!len || off + len < off || (off & 4095) != (iova & 4095))
		return EINVAL;
	if (fd < 0 || fcntl(fd, F_GETFD) < 0)
		return EBADF;
	return new_mr(r, pd, len, iova, ~0u, UVERBS_ATTR_REG_DMABUF_MR_HANDLE, UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY,
		      UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY);
}

static int query_mr(struct emu_req *r)
{
	struct emu_obj *mr = emu_obj_get(r->ctx, UVERBS_OBJECT_MR, handle_of(r, UVERBS_ATTR_QUERY_MR_HANDLE));

	if (!mr)
		return EINVAL;
	emu_attr_out(r, UVERBS_ATTR_QUERY_MR_RESP_LKEY, &mr->num, sizeof(mr->num));
	emu_attr_out(r, UVERBS_ATTR_QUERY_MR_RESP_RKEY, &mr->num, sizeof(mr->num));
	emu_attr_out(r, UVERBS_ATTR_QUERY_MR_RESP_LENGTH, &mr->length, sizeof(mr->length));
	emu_attr_out(r, UVERBS_ATTR_QUERY_MR_RESP_IOVA, &mr->iova, sizeof(mr->iova));
	return 0;
}

int emu_mem_ioctl(struct emu_req *r)
{
	uint16_t obj = r->hdr->object_id, meth = r->hdr->method_id;

	if (obj == UVERBS_OBJECT_DM) {
		if (meth == UVERBS_METHOD_DM_ALLOC)
			return dm_alloc(r);
		if (meth == UVERBS_METHOD_DM_FREE)
			return emu_obj_destroy(r, UVERBS_OBJECT_DM, handle_of(r, UVERBS_ATTR_FREE_DM_HANDLE));
		return EPROTONOSUPPORT;
	}
	switch (meth) {
	case UVERBS_METHOD_DM_MR_REG:
		return dm_mr_reg(r);
	case UVERBS_METHOD_ADVISE_MR:
		return advise_mr(r);
	case UVERBS_METHOD_QUERY_MR:
		return query_mr(r);
	case UVERBS_METHOD_REG_DMABUF_MR:
		return reg_dmabuf_mr(r);
	}
	return EPROTONOSUPPORT;
}

char emu_mem_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr)
{
	if (obj == UVERBS_OBJECT_DM) {
		if (meth == UVERBS_METHOD_DM_FREE)
			return attr == UVERBS_ATTR_FREE_DM_HANDLE ? 'h' : 0;
		return attr == UVERBS_ATTR_ALLOC_DM_HANDLE ? 'n' : attr <= UVERBS_ATTR_ALLOC_DM_ALIGNMENT ? 'i' : 0;
	}
	switch (meth) {
	case UVERBS_METHOD_DM_MR_REG:
		switch (attr) {
		case UVERBS_ATTR_REG_DM_MR_HANDLE: return 'n';
		case UVERBS_ATTR_REG_DM_MR_PD_HANDLE:
		case UVERBS_ATTR_REG_DM_MR_DM_HANDLE: return 'h';
		case UVERBS_ATTR_REG_DM_MR_RESP_LKEY:
		case UVERBS_ATTR_REG_DM_MR_RESP_RKEY: return 'o';
		case UVERBS_ATTR_REG_DM_MR_OFFSET:
		case UVERBS_ATTR_REG_DM_MR_LENGTH:
		case UVERBS_ATTR_REG_DM_MR_ACCESS_FLAGS: return 'i';
		}
		return 0;
	case UVERBS_METHOD_ADVISE_MR:
		return attr == UVERBS_ATTR_ADVISE_MR_PD_HANDLE ? 'h' : attr == UVERBS_ATTR_ADVISE_MR_ADVICE ? 'c'
		       : attr <= UVERBS_ATTR_ADVISE_MR_SGE_LIST ? 'i' : 0;
	case UVERBS_METHOD_QUERY_MR:
		return attr == UVERBS_ATTR_QUERY_MR_HANDLE ? 'h' : attr <= UVERBS_ATTR_QUERY_MR_RESP_IOVA ? 'o' : 0;
	case UVERBS_METHOD_REG_DMABUF_MR:
		switch (attr) {
		case UVERBS_ATTR_REG_DMABUF_MR_HANDLE: return 'n';
		case UVERBS_ATTR_REG_DMABUF_MR_PD_HANDLE: return 'h';
		case UVERBS_ATTR_REG_DMABUF_MR_FD: return 'f';
		case UVERBS_ATTR_REG_DMABUF_MR_RESP_LKEY:
		case UVERBS_ATTR_REG_DMABUF_MR_RESP_RKEY: return 'o';
		case UVERBS_ATTR_REG_DMABUF_MR_OFFSET:
		case UVERBS_ATTR_REG_DMABUF_MR_LENGTH:
		case UVERBS_ATTR_REG_DMABUF_MR_IOVA:
		case UVERBS_ATTR_REG_DMABUF_MR_ACCESS_FLAGS: return 'i';
		}
		return 0;
	}
	return 0;
}
