/* The dv family of the provider lifecycle (lifecycle-dv dv): mlx5's direct verbs (libmlx5.so.1,
 * <infiniband/mlx5dv.h>), which call the library's private exports (execute_ioctl, verbs_*) with
 * the driver's own objects and methods. mlx5dv_query_device on the lifecycle's context; a second
 * context by mlx5dv_open_device with DEVX; on it a general command (QUERY_HCA_CAP) and one the
 * kernel refuses there (a create: EINVAL), a DEVX object (a TIS) created, queried, modified (and
 * queried and modified with another object's number: EINVAL) and destroyed, a umem registered and
 * deregistered (and one at an unmapped address: EFAULT; one of no length: EINVAL), a completion
 * vector's EQ number (and a vector beyond the device's: EINVAL), a dedicated UAR allocated and
 * freed; a second TIS and umem left to the context's closing.
 *
 * Built as its own program (lifecycle-dv: lifecycle.c with this file, linked with -lmlx5), not
 * into the common lifecycle: a program linked with libmlx5.so.1 maps Debian's mlx5 provider file
 * (libmlx5-rdmav34.so is that file) whatever provider it runs, and a release's mlx5 run must map
 * only that release's. Its constructor sets UVEMU_DEVX=1: the emulated device then has DEVX
 * firmware behind it (drv_mlx5_devx.c); without it DEVX commands are EPROTONOSUPPORT, as for every
 * other family, so their streams stay as they were.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <infiniband/mlx5dv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "emu/mlx5_ops.h"
#include "lifecycle.h"

#define OP_QUERY_HCA_CAP MLX5_OP_QUERY_HCA_CAP
#define OP_ALLOC_PD MLX5_OP_ALLOC_PD
#define OP_CREATE_TIS MLX5_OP_CREATE_TIS
#define OP_MODIFY_TIS MLX5_OP_MODIFY_TIS
#define OP_QUERY_TIS MLX5_OP_QUERY_TIS
#define OUT_HDR MLX5_MBOX_HDR
#define TIS_IN MLX5_TIS_IN
#define HCA_CAP_OUT MLX5_HCA_CAP_OUT

static void __attribute__((constructor)) devx_firmware(void)
{
	setenv("UVEMU_DEVX", "1", 1);
}

/* A command mailbox: the opcode in the first word, op_mod in the second, an object number in the
 * third (big-endian, as the device reads it). */
static void mbox(uint32_t *in, uint16_t opcode, uint16_t op_mod, uint32_t num)
{
	in[0] = htobe32((uint32_t)opcode << 16);
	in[1] = htobe32(op_mod);
	in[2] = htobe32(num & 0xffffff);
}

static void show_out(const uint32_t *out)
{
	SHOW("status=%u syndrome=%#x word2=%#x", be32toh(out[0]) >> 24, be32toh(out[1]), be32toh(out[2]));
}

static struct mlx5dv_devx_obj *tis(struct ibv_context *ctx, const char *step, uint32_t *tisn)
{
	uint32_t in[TIS_IN / 4] = { 0 }, out[OUT_HDR / 4] = { 0 };
	struct mlx5dv_devx_obj *o;

	mbox(in, OP_CREATE_TIS, 0, 0);
	errno = 0;
	o = mlx5dv_devx_obj_create(ctx, in, sizeof(in), out, sizeof(out));
	if (made(step, o))
		show_out(out);
	*tisn = be32toh(out[2]) & 0xffffff;
	return o;
}

static void tis_use(struct mlx5dv_devx_obj *o, uint32_t tisn)
{
	uint32_t in[TIS_IN / 4] = { 0 }, out[TIS_IN / 4] = { 0 };

	mbox(in, OP_QUERY_TIS, 0, tisn);
	result("devx_obj_query", mlx5dv_devx_obj_query(o, in, OUT_HDR, out, sizeof(out)));
	show_out(out);
	mbox(in, OP_MODIFY_TIS, 0, tisn);
	in[4] = htobe32(1); /* modify_bitmask: prio */
	memset(out, 0, sizeof(out));
	result("devx_obj_modify", mlx5dv_devx_obj_modify(o, in, sizeof(in), out, OUT_HDR));
	show_out(out);
	mbox(in, OP_QUERY_TIS, 0, tisn + 1);
	result("devx_obj_query other", mlx5dv_devx_obj_query(o, in, OUT_HDR, out, sizeof(out)));
	mbox(in, OP_MODIFY_TIS, 0, tisn + 1);
	result("devx_obj_modify other", mlx5dv_devx_obj_modify(o, in, sizeof(in), out, OUT_HDR));
}

static struct mlx5dv_devx_umem *umem(struct ibv_context *ctx, const char *step, void *addr, size_t len)
{
	struct mlx5dv_devx_umem *u;

	errno = 0;
	u = mlx5dv_devx_umem_reg(ctx, addr, len, IBV_ACCESS_LOCAL_WRITE);
	if (made(step, u))
		SHOW("umem_id=%u", u->umem_id);
	return u;
}

static void devx(struct ibv_context *dctx)
{
	uint32_t in[4] = { 0 }, *out = calloc(1, HCA_CAP_OUT), eqn = 0, tisn = 0, tisn2 = 0;
	struct mlx5dv_devx_obj *o, *o2;
	struct mlx5dv_devx_umem *u, *u2;
	struct mlx5dv_devx_uar *uar;

	if (!out)
		return;
	mbox(in, OP_QUERY_HCA_CAP, 1 /* general device caps, current */, 0);
	result("devx_general_cmd", mlx5dv_devx_general_cmd(dctx, in, sizeof(in), out, HCA_CAP_OUT));
	show_out(out);
	mbox(in, OP_ALLOC_PD, 0, 0);
	result("devx_general_cmd create", mlx5dv_devx_general_cmd(dctx, in, sizeof(in), out, OUT_HDR));
	free(out);

	o = tis(dctx, "devx_obj_create", &tisn);
	if (o) {
		tis_use(o, tisn);
		result("devx_obj_destroy", mlx5dv_devx_obj_destroy(o));
	} else {
		skip("devx_obj_query");
	}

	u = umem(dctx, "devx_umem_reg", (char *)FIXED_BASE + 0x8000, 0x2000);
	if (u)
		result("devx_umem_dereg", mlx5dv_devx_umem_dereg(u));
	umem(dctx, "devx_umem_reg unmapped", (void *)0x10000, 0x1000);
	umem(dctx, "devx_umem_reg empty", (char *)FIXED_BASE + 0x8000, 0);

	result("devx_query_eqn", mlx5dv_devx_query_eqn(dctx, 1, &eqn));
	SHOW("eqn=%u", eqn);
	result("devx_query_eqn beyond", mlx5dv_devx_query_eqn(dctx, 64, &eqn));

	errno = 0;
	uar = mlx5dv_devx_alloc_uar(dctx, MLX5DV_UAR_ALLOC_TYPE_BF);
	if (made("devx_alloc_uar", uar)) {
		SHOW("page_id=%u mmap_off=%#llx", uar->page_id, (unsigned long long)uar->mmap_off);
		mlx5dv_devx_free_uar(uar);
		printf("devx_free_uar: done\n");
	}

	/* left to the context's closing */
	o2 = tis(dctx, "devx_obj_create kept", &tisn2);
	u2 = umem(dctx, "devx_umem_reg kept", (char *)FIXED_BASE + 0x8000, 0x1000);
	(void)o2;
	(void)u2;
}

/* mlx5dv_create_cq (128-byte CQEs; compressed CQEs, which the device does not offer: the
 * provider's refusal) and mlx5dv_create_qp (a DCI and a DCT on an SRQ; the provider decides from
 * the device's DC capabilities whether a command is sent). */
static void queues(struct ibv_context *ctx)
{
	struct ibv_cq_init_attr_ex ca = { .cqe = 16, .wc_flags = IBV_WC_EX_WITH_BYTE_LEN };
	struct mlx5dv_cq_init_attr dca = { .comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_CQE_SIZE, .cqe_size = 128 };
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct mlx5dv_qp_init_attr dqa = { .comp_mask = MLX5DV_QP_INIT_ATTR_MASK_DC };
	struct ibv_qp_init_attr_ex qa = {
		.qp_type = IBV_QPT_DRIVER, .comp_mask = IBV_QP_INIT_ATTR_PD,
		.cap = { .max_send_wr = 8, .max_send_sge = 1 },
	};
	struct ibv_cq_ex *cq, *cq2;
	struct ibv_srq *srq = NULL;
	struct ibv_qp *qp;
	struct ibv_pd *pd;

	errno = 0;
	pd = ibv_alloc_pd(ctx);
	made("alloc_pd", pd);
	errno = 0;
	cq = mlx5dv_create_cq(ctx, &ca, &dca);
	if (made("dv_create_cq", cq))
		SHOW("cqe=%d", cq->cqe);
	dca.comp_mask = MLX5DV_CQ_INIT_ATTR_MASK_COMPRESSED_CQE;
	dca.cqe_comp_res_format = MLX5DV_CQE_RES_FORMAT_HASH;
	errno = 0;
	cq2 = mlx5dv_create_cq(ctx, &ca, &dca);
	made("dv_create_cq compressed", cq2);
	if (cq2)
		ibv_destroy_cq(ibv_cq_ex_to_cq(cq2));
	if (pd && cq) {
		qa.pd = pd;
		qa.send_cq = qa.recv_cq = ibv_cq_ex_to_cq(cq);
		dqa.dc_init_attr.dc_type = MLX5DV_DCTYPE_DCI;
		errno = 0;
		qp = mlx5dv_create_qp(ctx, &qa, &dqa);
		if (made("dv_create_qp dci", qp))
			result("destroy_qp dci", ibv_destroy_qp(qp));
		errno = 0;
		srq = ibv_create_srq(pd, &sa);
		made("create_srq", srq);
		qa.srq = srq;
		qa.cap.max_send_wr = 0;
		dqa.dc_init_attr.dc_type = MLX5DV_DCTYPE_DCT;
		dqa.dc_init_attr.dct_access_key = 0x1234;
		errno = 0;
		qp = srq ? mlx5dv_create_qp(ctx, &qa, &dqa) : NULL;
		if (made("dv_create_qp dct", qp))
			result("destroy_qp dct", ibv_destroy_qp(qp));
	}
	if (srq)
		result("destroy_srq", ibv_destroy_srq(srq));
	if (cq)
		result("destroy_cq", ibv_destroy_cq(ibv_cq_ex_to_cq(cq)));
	if (pd)
		result("dealloc_pd", ibv_dealloc_pd(pd));
}

void family_dv(struct ibv_context *ctx)
{
	struct mlx5dv_context attr = {
		.comp_mask = MLX5DV_CONTEXT_MASK_CQE_COMPRESION | MLX5DV_CONTEXT_MASK_SWP |
			     MLX5DV_CONTEXT_MASK_STRIDING_RQ | MLX5DV_CONTEXT_MASK_TUNNEL_OFFLOADS |
			     MLX5DV_CONTEXT_MASK_DYN_BFREGS | MLX5DV_CONTEXT_MASK_CLOCK_INFO_UPDATE |
			     MLX5DV_CONTEXT_MASK_FLOW_ACTION_FLAGS | MLX5DV_CONTEXT_MASK_DC_ODP_CAPS |
			     MLX5DV_CONTEXT_MASK_NUM_LAG_PORTS,
	};
	struct mlx5dv_context_attr oattr = { .flags = MLX5DV_CONTEXT_FLAGS_DEVX };
	struct ibv_context *dctx;

	printf("is_supported: %d\n", mlx5dv_is_supported(ctx->device));
	result("query_device", mlx5dv_query_device(ctx, &attr));
	SHOW("version=%u flags=%#llx comp_mask=%#llx max_dynamic_bfregs=%u dc_odp_caps=%#x num_lag_ports=%u",
	     attr.version, (unsigned long long)attr.flags, (unsigned long long)attr.comp_mask,
	     attr.max_dynamic_bfregs, attr.dc_odp_caps, attr.num_lag_ports);
	oattr.flags = 1u << 31;
	errno = 0;
	dctx = mlx5dv_open_device(ctx->device, &oattr);
	made("open_device reserved flag", dctx);
	if (dctx)
		ibv_close_device(dctx);
	oattr.flags = MLX5DV_CONTEXT_FLAGS_DEVX;
	errno = 0;
	dctx = mlx5dv_open_device(ctx->device, &oattr);
	if (!made("open_device devx", dctx))
		return;
	devx(dctx);
	queues(dctx);
	result("close_device devx", ibv_close_device(dctx));
}
