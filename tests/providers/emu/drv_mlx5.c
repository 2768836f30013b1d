/* uvemu: mlx5's kernel driver (drivers/infiniband/hw/mlx5) as a ConnectX-5 on a 6.x kernel answers
 * the provider: a ucontext with dynamic UARs (the provider asks for MLX5_LIB_CAP_DYN_UAR, so no
 * static blue-flame registers are mapped: tot_bfregs 0), CQE version 1, the core clock page, DEVX
 * accepted (its methods: drv_mlx5_devx.c, with firmware behind them only for the family dv), UAR objects
 * (MLX5_IB_METHOD_UAR_OBJ_ALLOC) whose pages are mapped at offsets from the kernel's mmap entry range,
 * and cqn/qpn/srqn/pdn for every object.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <rdma/mlx5-abi.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <rdma/mlx5_user_ioctl_verbs.h>
#include <string.h>
#include <sys/mman.h>

#define PAGE 4096ull
/* rdma_user_mmap entries: pgoff from MLX5_IB_MMAP_OFFSET_START << 16. */
#define ENTRY_BASE ((9ull << 16) * PAGE)
#define CLOCK_OFFSET 0x10
#define INVALID_BFREG (1u << 31)

/* The mmap command and index a legacy offset encodes (the provider's set_command/set_index). */
static void decode(uint64_t off, unsigned *cmd, unsigned *idx)
{
	uint64_t pg = off / PAGE;

	*cmd = (pg >> 8) & 0xff;
	*idx = (pg & 0xff) | ((pg >> 16) << 8);
}

/* The ucontext's description (the kernel's set_ucontext_resp), from what GET_CONTEXT settled:
 * tot_bfregs in drv[0], cqe_version in drv[2] (drv[3..5]: DEVX, drv_mlx5_devx.c). */
static void ucontext_resp(struct emu_req *r, struct mlx5_ib_alloc_ucontext_resp *resp)
{
	memset(resp, 0, sizeof(*resp));
	resp->qp_tab_size = 1 << 18;
	resp->bf_reg_size = 512;
	resp->tot_bfregs = r->ctx->drv[0];
	resp->cache_line_size = 64;
	resp->max_sq_desc_sz = 1024;
	resp->max_rq_desc_sz = 512;
	resp->max_send_wqebb = 1 << 15;
	resp->max_recv_wr = 1 << 15;
	resp->max_srq_recv_wr = (1 << 15) - 1;
	resp->num_ports = 1;
	resp->comp_mask = MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_CORE_CLOCK_OFFSET |
			  MLX5_IB_ALLOC_UCONTEXT_RESP_MASK_DUMP_FILL_MKEY;
	resp->response_length = sizeof(*resp);
	resp->cqe_version = r->ctx->drv[2];
	resp->cmds_supp_uhw = MLX5_USER_CMDS_SUPP_UHW_QUERY_DEVICE | MLX5_USER_CMDS_SUPP_UHW_CREATE_AH;
	resp->eth_min_inline = r->dev->link_layer == IB_LINK_LAYER_ETHERNET ? MLX5_USER_INLINE_MODE_NONE + 1 : 0;
	resp->hca_core_clock_offset = CLOCK_OFFSET;
	resp->log_uar_size = 12;
	resp->num_uars_per_page = 1;
	resp->num_dyn_bfregs = 64;
	resp->dump_fill_mkey = 0x100;
}

static int get_context(struct emu_req *r)
{
	struct mlx5_ib_alloc_ucontext_req_v2 req = { 0 };
	struct mlx5_ib_alloc_ucontext_resp resp;

	if (r->uin_len < offsetof(struct mlx5_ib_alloc_ucontext_req_v2, flags))
		return EINVAL;
	memcpy(&req, r->uin, r->uin_len < sizeof(req) ? r->uin_len : sizeof(req));
	if (req.comp_mask || req.reserved0 || req.reserved1 || req.reserved2)
		return EOPNOTSUPP;
	if (req.total_num_bfregs > 512 * 2 /* MLX5_MAX_UARS * MLX5_NON_FP_BFREGS_PER_UAR */)
		return ENOMEM;
	if (req.num_low_latency_bfregs > (req.total_num_bfregs ? req.total_num_bfregs - 1 : 0))
		return EINVAL;
	/* Dynamic UARs came with the ioctl framework's UAR objects (5.x): an older kernel maps the
	 * blue-flame registers the library asked for statically. */
	if ((req.lib_caps & MLX5_LIB_CAP_DYN_UAR) && !emu_write_only_kernel())
		r->ctx->drv[0] = 0;
	else
		r->ctx->drv[0] = (req.total_num_bfregs + 1) & ~1u;
	r->ctx->drv[2] = req.max_cqe_version < 1 ? req.max_cqe_version : 1;
	r->ctx->next_key = ENTRY_BASE;
	ucontext_resp(r, &resp);
	r->ctx->drv[5] = req.flags & MLX5_IB_ALLOC_UCTX_DEVX; /* a DEVX uid (drv_mlx5_devx.c) */
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

/* QUERY_CONTEXT's driver part (mlx5_ib_query_ucontext: ibv_import_device): the ucontext's
 * description again, its response_length what the attribute holds. */
static int query_context(struct emu_req *r)
{
	struct ib_uverbs_attr *a = emu_attr(r, MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX);
	struct mlx5_ib_alloc_ucontext_resp resp;
	size_t n = sizeof(resp);

	if (!a)
		return 0;
	ucontext_resp(r, &resp);
	if (a->len < n)
		resp.response_length = a->len;
	/* uverbs_copy_to_struct_or_zero: the rest of the caller's buffer zeroed; a short answer (an
	 * older driver's smaller struct) gives half. */
	if (r->short_answer)
		n /= 2;
	memset((void *)(uintptr_t)a->data, 0, a->len);
	return emu_attr_out(r, MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX, &resp, n);
}

static int query_device(struct emu_req *r)
{
	struct mlx5_ib_query_device_resp resp = { 0 };

	resp.response_length = r->uout_len < sizeof(resp) ? r->uout_len : sizeof(resp);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int alloc_pd(struct emu_req *r, struct emu_obj *pd)
{
	struct mlx5_ib_alloc_pd_resp resp = { .pdn = pd->num };

	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_cq(struct emu_req *r, struct emu_obj *cq)
{
	struct mlx5_ib_create_cq req = { 0 };
	struct mlx5_ib_create_cq_resp resp = { .cqn = cq->num };

	if (r->uin_len < offsetof(struct mlx5_ib_create_cq, flags))
		return EINVAL;
	memcpy(&req, r->uin, r->uin_len < sizeof(req) ? r->uin_len : sizeof(req));
	if ((req.cqe_size != 64 && req.cqe_size != 128) || !req.buf_addr || !req.db_addr)
		return EINVAL;
	cq->cqe = (1u << (32 - __builtin_clz(cq->cqe))) - 1; /* a power of two less one */
	cq->drv[0] = req.buf_addr;
	cq->drv[1] = req.cqe_size;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

/* The device ends a resize with a RESIZE_CQ completion in the old buffer, where the provider
 * (mlx5_cq_resize_copy_cqes) copies entries until it finds it: at the consumer index, 0 here. */
static int resize_cq(struct emu_req *r, struct emu_obj *cq, uint32_t cqe)
{
	struct mlx5_ib_resize_cq req = { 0 };
	uint8_t *op_own;

	if (r->uin_len < offsetof(struct mlx5_ib_resize_cq, reserved0))
		return EINVAL;
	memcpy(&req, r->uin, r->uin_len < sizeof(req) ? r->uin_len : sizeof(req));
	if (!req.buf_addr || (req.cqe_size != 64 && req.cqe_size != 128))
		return EINVAL;
	op_own = (uint8_t *)(uintptr_t)cq->drv[0] + (cq->drv[1] == 128 ? 64 : 0) + 63;
	*op_own = 5 << 4; /* MLX5_CQE_RESIZE_CQ, software ownership at index 0 */
	cq->drv[0] = req.buf_addr;
	cq->drv[1] = req.cqe_size;
	cq->cqe = (1u << (32 - __builtin_clz(cqe))) - 1;
	return 0;
}

/* drv_mlx5_wq.c: WQs, indirection tables, RSS QPs, flows. */
int emu_mlx5_create_wq(struct emu_req *r, struct emu_obj *wq);
int emu_mlx5_modify_wq(struct emu_req *r, struct emu_obj *wq);
int emu_mlx5_create_rwq_ind_tbl(struct emu_req *r, struct emu_obj *tbl);
int emu_mlx5_rss_qp(struct emu_req *r, struct emu_obj *qp);
int emu_mlx5_create_flow(struct emu_req *r, struct emu_obj *flow);
/* drv_mlx5_devx.c: the DEVX objects' methods and their attributes' kinds. */
int emu_mlx5_devx_ioctl(struct emu_req *r);
char emu_mlx5_devx_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr);

static int create_qp(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init)
{
	struct mlx5_ib_create_qp req = { 0 };
	struct mlx5_ib_create_qp_resp resp = { 0 };

	if (init->rss)
		return emu_mlx5_rss_qp(r, qp);
	if (r->uin_len < offsetof(struct mlx5_ib_create_qp, sq_buf_addr))
		return EINVAL;
	memcpy(&req, r->uin, r->uin_len < sizeof(req) ? r->uin_len : sizeof(req));
	/* An XRC target QP has no work queues of its own: the kernel reads nothing of the request
	 * and answers nothing (create_xrc_tgt_qp). */
	if (init->qp_type == IB_UVERBS_QPT_XRC_TGT)
		return 0;
	if (!req.buf_addr || !req.db_addr)
		return EINVAL;
	if (req.flags & MLX5_QP_FLAG_BFREG_INDEX)
		resp.bfreg_index = INVALID_BFREG;
	else
		resp.bfreg_index = r->ctx->drv[0] ? 1 + (qp->num % (r->ctx->drv[0] - 1)) : INVALID_BFREG;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int modify_qp(struct emu_req *r, struct emu_obj *qp)
{
	struct mlx5_ib_modify_qp_resp resp = { 0 };

	(void)qp;
	resp.response_length = r->uout_len < sizeof(resp) ? r->uout_len : sizeof(resp);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_srq(struct emu_req *r, struct emu_obj *srq, uint32_t *max_wr, uint32_t *max_sge)
{
	struct mlx5_ib_create_srq req = { 0 };
	struct mlx5_ib_create_srq_resp resp = { .srqn = srq->num };

	(void)max_sge;
	if (r->uin_len < offsetof(struct mlx5_ib_create_srq, uidx))
		return EINVAL;
	memcpy(&req, r->uin, r->uin_len < sizeof(req) ? r->uin_len : sizeof(req));
	if (!req.buf_addr || !req.db_addr)
		return EINVAL;
	*max_wr = (1u << (32 - __builtin_clz(*max_wr))) - 1;
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

static int create_ah(struct emu_req *r, struct emu_obj *ah)
{
	struct mlx5_ib_create_ah_resp resp = { 0 };

	(void)ah;
	resp.response_length = r->uout_len < sizeof(resp) ? r->uout_len : sizeof(resp);
	memcpy(resp.dmac, "\x02\x00\x00\x00\x00\x01", 6);
	emu_udata_out(r, &resp, sizeof(resp));
	return 0;
}

/* DM_ALLOC's driver part (mlx5_ib_alloc_dm): MEMIC only (the other types need steering ICM), the
 * page index of its mmap entry (the lowest free) and the start offset within that page. */
static int alloc_dm(struct emu_req *r, struct emu_obj *dm)
{
	uint64_t type = emu_attr_u64(r, MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE, MLX5_IB_UAPI_DM_TYPE_MEMIC);
	uint64_t start = 0;
	uint16_t idx = 0;

	if (type != MLX5_IB_UAPI_DM_TYPE_MEMIC)
		return EOPNOTSUPP;
	while (emu_dm_mmap_check(r->ctx, idx, PAGE) == 0)
		idx++;
	dm->num = idx;
	emu_attr_out(r, MLX5_IB_ATTR_ALLOC_DM_RESP_START_OFFSET, &start, sizeof(start));
	return emu_attr_out(r, MLX5_IB_ATTR_ALLOC_DM_RESP_PAGE_INDEX, &idx, sizeof(idx));
}

/* MLX5_IB_OBJECT_UAR: a dynamically allocated UAR page. */
static int uar_ioctl(struct emu_req *r)
{
	uint32_t h;

	if (r->hdr->method_id == MLX5_IB_METHOD_UAR_OBJ_DESTROY) {
		uint32_t handle = emu_attr_u64(r, MLX5_IB_ATTR_UAR_OBJ_DESTROY_HANDLE, ~0u);

		if (!emu_obj_get(r->ctx, MLX5_IB_OBJECT_UAR, handle))
			return EINVAL;
		emu_obj_free(r->ctx, handle);
		return 0;
	}
	if (r->hdr->method_id == MLX5_IB_METHOD_UAR_OBJ_ALLOC) {
		uint64_t type = emu_attr_u64(r, MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE, ~0ull), off;
		struct ib_uverbs_attr *ha = emu_attr(r, MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE);
		uint32_t len = PAGE, page;
		struct emu_obj *o;

		if (!ha || type > MLX5_IB_UAPI_UAR_ALLOC_TYPE_NC)
			return EINVAL;
		o = emu_obj_new(r->ctx, MLX5_IB_OBJECT_UAR, &h);
		if (!o)
			return ENOMEM;
		o->num = 0x20 + r->ctx->drv[1]++;
		page = o->num;
		off = emu_key_new(r->ctx, PAGE, type, 0);
		ha->data = h;
		emu_attr_out(r, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_OFFSET, &off, sizeof(off));
		emu_attr_out(r, MLX5_IB_ATTR_UAR_OBJ_ALLOC_MMAP_LENGTH, &len, sizeof(len));
		emu_attr_out(r, MLX5_IB_ATTR_UAR_OBJ_ALLOC_PAGE_ID, &page, sizeof(page));
		return 0;
	}
	return EPROTONOSUPPORT;
}

/* MLX5_IB_METHOD_PD_QUERY (ibv_import_pd): a PD of the context by handle, its pdn. */
static int pd_query(struct emu_req *r)
{
	struct emu_obj *pd = emu_obj_get(r->ctx, UVERBS_OBJECT_PD,
					 emu_attr_u64(r, MLX5_IB_ATTR_QUERY_PD_HANDLE, ~0u));

	if (!pd)
		return EINVAL;
	return emu_attr_out(r, MLX5_IB_ATTR_QUERY_PD_RESP_PDN, &pd->num, sizeof(pd->num));
}

static int ioctl(struct emu_req *r)
{
	if (r->hdr->object_id == MLX5_IB_OBJECT_UAR)
		return uar_ioctl(r);
	if (r->hdr->object_id == UVERBS_OBJECT_PD && r->hdr->method_id == MLX5_IB_METHOD_PD_QUERY)
		return pd_query(r);
	if (r->hdr->object_id >= MLX5_IB_OBJECT_DEVX && r->hdr->object_id <= MLX5_IB_OBJECT_DEVX_UMEM)
		return emu_mlx5_devx_ioctl(r);
	return EPROTONOSUPPORT;
}

static char attr_kind(uint16_t obj, uint16_t meth, uint16_t attr)
{
	if (obj == MLX5_IB_OBJECT_UAR && meth == MLX5_IB_METHOD_UAR_OBJ_ALLOC) {
		switch (attr) {
		case MLX5_IB_ATTR_UAR_OBJ_ALLOC_HANDLE: return 'n';
		case MLX5_IB_ATTR_UAR_OBJ_ALLOC_TYPE: return 'c';
		default: return 'o';
		}
	}
	if (obj == MLX5_IB_OBJECT_UAR && meth == MLX5_IB_METHOD_UAR_OBJ_DESTROY)
		return 'h';
	if (obj >= MLX5_IB_OBJECT_DEVX && obj <= MLX5_IB_OBJECT_DEVX_UMEM)
		return emu_mlx5_devx_attr_kind(obj, meth, attr);
	if (obj == UVERBS_OBJECT_DM && meth == UVERBS_METHOD_DM_ALLOC)
		return attr == MLX5_IB_ATTR_ALLOC_DM_REQ_TYPE ? 'c' : 'o';
	if (obj == UVERBS_OBJECT_PD && meth == MLX5_IB_METHOD_PD_QUERY)
		return attr == MLX5_IB_ATTR_QUERY_PD_HANDLE ? 'h' : 'o';
	if (obj == UVERBS_OBJECT_DEVICE && meth == UVERBS_METHOD_QUERY_CONTEXT)
		return attr == MLX5_IB_ATTR_QUERY_CONTEXT_RESP_UCTX ? 'o' : 0;
	return 0;
}

/* DMABUF_ALLOC's entry (mlx5_ib_pgoff_to_mmap_entry: the byte offset's page, its command and
 * extended index): a DM's MEMIC pages, the one kind of entry here mmap_get_pfns exports. */
static int64_t dmabuf_dm(uint64_t off)
{
	unsigned cmd, idx;

	decode(off, &cmd, &idx);
	return cmd == MLX5_IB_MMAP_DEVICE_MEM ? (int64_t)idx : -1;
}

static int mmap_check(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off)
{
	unsigned cmd, idx;

	(void)prot;
	if ((uint64_t)off >= ENTRY_BASE)
		return emu_key_check(c, len, off);
	decode(off, &cmd, &idx);
	if (cmd == MLX5_IB_MMAP_DEVICE_MEM)
		return emu_dm_mmap_check(c, idx, len);
	if (len != PAGE)
		return EINVAL;
	switch (cmd) {
	case MLX5_IB_MMAP_REGULAR_PAGE:
	case MLX5_IB_MMAP_WC_PAGE:
	case MLX5_IB_MMAP_NC_PAGE:
		return idx < c->drv[0] / 2 ? 0 : EINVAL;
	case MLX5_IB_MMAP_CORE_CLOCK:
		if (prot & PROT_WRITE)
			return EPERM;
		/* The free-running counter the provider reads, at the offset the context named. */
		memset((char *)addr + CLOCK_OFFSET, 0, 8);
		return 0;
	}
	return EINVAL;
}

const struct emu_drv emu_drv_mlx5 = {
	.name = "mlx5",
	.get_context = get_context,
	.query_context = query_context,
	.dmabuf_dm = dmabuf_dm,
	.query_device = query_device,
	.alloc_pd = alloc_pd,
	.create_cq = create_cq,
	.resize_cq = resize_cq,
	.create_qp = create_qp,
	.modify_qp = modify_qp,
	.create_srq = create_srq,
	.create_ah = create_ah,
	.alloc_dm = alloc_dm,
	.ioctl = ioctl,
	.attr_kind = attr_kind,
	.mmap = mmap_check,
	.create_wq = emu_mlx5_create_wq,
	.modify_wq = emu_mlx5_modify_wq,
	.create_rwq_ind_tbl = emu_mlx5_create_rwq_ind_tbl,
	.create_flow = emu_mlx5_create_flow,
};
