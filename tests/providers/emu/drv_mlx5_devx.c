/* uvemu: mlx5's DEVX methods (drivers/infiniband/hw/mlx5/devx.c, the MLX5_IB_OBJECT_DEVX* objects of
 * <rdma/mlx5_user_ioctl_cmds.h>), with firmware behind them only when UVEMU_DEVX=1 (the family dv
 * sets it; without it every DEVX method is EPROTONOSUPPORT, a kernel whose device has no DEVX
 * firmware capability, and the provider's own QUERY_HCA_CAP at open fails as before).
 *
 * As the kernel: a command needs a context opened with MLX5_IB_ALLOC_UCTX_DEVX (EINVAL); its
 * mailboxes hold at least their header (16 bytes in, 16 out: EINVAL); a general command (OTHER)
 * may not be one that makes an object, and an object's create is one that does (EINVAL); a query
 * or modify names the object's own number (EINVAL); a umem needs a length and mapped memory
 * (EINVAL, EFAULT) and known access flags (EOPNOTSUPP); QUERY_EQN a vector below the device's
 * count (EINVAL). The firmware answers every command with status 0 and zeros, a new object's
 * number in its third word. Objects are handles of the context, freed at its closing.
 */
#define _GNU_SOURCE
#include "uvemu.h"
#include "mlx5_ops.h"

#include <endian.h>
#include <errno.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/mlx5_user_ioctl_cmds.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Each object kind by its create, modify, query and destroy opcodes (0: none). */
static const struct kind {
	uint16_t create, modify, query, destroy;
} kinds[] = {
	{ MLX5_OP_ALLOC_PD, 0, 0, MLX5_OP_DEALLOC_PD },
	{ MLX5_OP_ALLOC_TRANSPORT_DOMAIN, 0, 0, MLX5_OP_DEALLOC_TRANSPORT_DOMAIN },
	{ MLX5_OP_CREATE_TIS, MLX5_OP_MODIFY_TIS, MLX5_OP_QUERY_TIS, MLX5_OP_DESTROY_TIS },
	{ MLX5_OP_CREATE_TIR, MLX5_OP_MODIFY_TIR, MLX5_OP_QUERY_TIR, MLX5_OP_DESTROY_TIR },
	{ MLX5_OP_CREATE_CQ, MLX5_OP_MODIFY_CQ, MLX5_OP_QUERY_CQ, MLX5_OP_DESTROY_CQ },
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))
#define HDR MLX5_MBOX_HDR
#define MAX_OUT 8192
#define COMP_VECTORS 2 /* the device's num_comp_vectors (LIMITS in device.c) */

static bool firmware(void)
{
	const char *e = getenv("UVEMU_DEVX");

	return e && !strcmp(e, "1");
}

static uint16_t opcode(const uint8_t *in)
{
	return (uint16_t)(in[0] << 8 | in[1]);
}

/* The command mailbox in (at least a header) and the out attribute's length (at least one). */
static const uint8_t *mailbox(struct emu_req *r, uint16_t in_id, uint16_t out_id, size_t *out_len)
{
	size_t len = 0;
	const uint8_t *in = emu_attr_in(r, in_id, &len);
	struct ib_uverbs_attr *out = emu_attr(r, out_id);

	if (!in || len < HDR || !out || out->len < HDR || out->len > MAX_OUT)
		return NULL;
	*out_len = out->len;
	return in;
}

/* The firmware's answer: status 0, zeros, num (a new object's) in the third word. */
static int answer(struct emu_req *r, uint16_t out_id, size_t len, uint32_t num)
{
	uint8_t buf[MAX_OUT] = { 0 };
	uint32_t be = htobe32(num & 0xffffff);

	memcpy(buf + 8, &be, 4);
	return emu_attr_out(r, out_id, buf, len);
}

static int kind_of(uint16_t op, int which)
{
	for (unsigned i = 0; i < NKINDS; i++) {
		uint16_t o = which == 0 ? kinds[i].create : which == 1 ? kinds[i].modify : kinds[i].query;

		if (o && o == op)
			return (int)i;
	}
	return -1;
}

static int other(struct emu_req *r)
{
	size_t olen;
	const uint8_t *in = mailbox(r, MLX5_IB_ATTR_DEVX_OTHER_CMD_IN, MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT, &olen);

	if (!in || kind_of(opcode(in), 0) >= 0)
		return EINVAL;
	return answer(r, MLX5_IB_ATTR_DEVX_OTHER_CMD_OUT, olen, 0);
}

static int obj_create(struct emu_req *r)
{
	size_t olen;
	const uint8_t *in = mailbox(r, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT, &olen);
	int k = in ? kind_of(opcode(in), 0) : -1;
	struct emu_obj *o;
	uint32_t h;

	if (k < 0)
		return EINVAL;
	o = emu_obj_new(r->ctx, MLX5_IB_OBJECT_DEVX_OBJ, &h);
	if (!o)
		return ENOMEM;
	o->num = 0x100 + (uint32_t)r->ctx->drv[3]++;
	o->drv[0] = (uint64_t)k;
	emu_attr_new_handle(r, MLX5_IB_ATTR_DEVX_OBJ_CREATE_HANDLE, h);
	return answer(r, MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_OUT, olen, o->num);
}

/* QUERY and MODIFY: a command of the object's kind naming its number. */
static int obj_use(struct emu_req *r, bool modify)
{
	uint16_t hid = modify ? MLX5_IB_ATTR_DEVX_OBJ_MODIFY_HANDLE : MLX5_IB_ATTR_DEVX_OBJ_QUERY_HANDLE;
	uint16_t iid = modify ? MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_IN : MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_IN;
	uint16_t oid = modify ? MLX5_IB_ATTR_DEVX_OBJ_MODIFY_CMD_OUT : MLX5_IB_ATTR_DEVX_OBJ_QUERY_CMD_OUT;
	struct emu_obj *o = emu_obj_get(r->ctx, MLX5_IB_OBJECT_DEVX_OBJ, emu_attr_handle(r, hid));
	size_t olen;
	const uint8_t *in = mailbox(r, iid, oid, &olen);
	uint32_t num;

	if (!o)
		return ENOENT;
	if (!in || kind_of(opcode(in), modify ? 1 : 2) != (int)o->drv[0])
		return EINVAL;
	memcpy(&num, in + 8, 4);
	if ((be32toh(num) & 0xffffff) != o->num)
		return EINVAL;
	return answer(r, oid, olen, o->num);
}

static int umem_reg(struct emu_req *r)
{
	uint64_t addr = emu_attr_u64(r, MLX5_IB_ATTR_DEVX_UMEM_REG_ADDR, 0);
	uint64_t len = emu_attr_u64(r, MLX5_IB_ATTR_DEVX_UMEM_REG_LEN, 0);
	uint64_t access = emu_attr_u64(r, MLX5_IB_ATTR_DEVX_UMEM_REG_ACCESS, 0);
	uint64_t page = addr & ~4095ull;
	struct emu_obj *o;
	uint32_t h, id;

	if (!emu_attr(r, MLX5_IB_ATTR_DEVX_UMEM_REG_HANDLE) || !emu_attr(r, MLX5_IB_ATTR_DEVX_UMEM_REG_OUT_ID))
		return EINVAL;
	/* IB_ACCESS_LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ, REMOTE_ATOMIC, RELAXED_ORDERING */
	if (access & ~(0xfull | (1ull << 20)))
		return EOPNOTSUPP;
	if (!len)
		return EINVAL;
	/* pinning the pages: each must be mapped */
	if (msync((void *)(uintptr_t)page, addr + len - page, MS_ASYNC))
		return EFAULT;
	o = emu_obj_new(r->ctx, MLX5_IB_OBJECT_DEVX_UMEM, &h);
	if (!o)
		return ENOMEM;
	o->num = id = 0x200 + (uint32_t)r->ctx->drv[4]++;
	o->iova = addr;
	o->length = len;
	emu_attr_new_handle(r, MLX5_IB_ATTR_DEVX_UMEM_REG_HANDLE, h);
	return emu_attr_out(r, MLX5_IB_ATTR_DEVX_UMEM_REG_OUT_ID, &id, sizeof(id));
}

static int destroy(struct emu_req *r, uint16_t type, uint16_t hid)
{
	uint32_t h = emu_attr_handle(r, hid);

	if (!emu_obj_get(r->ctx, type, h))
		return ENOENT;
	emu_obj_free(r->ctx, h);
	return 0;
}

int emu_mlx5_devx_ioctl(struct emu_req *r)
{
	uint16_t obj = r->hdr->object_id, meth = r->hdr->method_id;

	if (!firmware())
		return EPROTONOSUPPORT;
	if (!r->ctx->drv[5])
		return EINVAL; /* no DEVX uid: a context opened without MLX5_IB_ALLOC_UCTX_DEVX */
	if (obj == MLX5_IB_OBJECT_DEVX && meth == MLX5_IB_METHOD_DEVX_OTHER)
		return other(r);
	if (obj == MLX5_IB_OBJECT_DEVX && meth == MLX5_IB_METHOD_DEVX_QUERY_EQN) {
		uint32_t vec = emu_attr_u64(r, MLX5_IB_ATTR_DEVX_QUERY_EQN_USER_VEC, ~0u), eqn;

		if (vec >= COMP_VECTORS)
			return EINVAL;
		eqn = 0x10 + vec;
		return emu_attr_out(r, MLX5_IB_ATTR_DEVX_QUERY_EQN_DEV_EQN, &eqn, sizeof(eqn));
	}
	if (obj == MLX5_IB_OBJECT_DEVX && meth == MLX5_IB_METHOD_DEVX_QUERY_UAR) {
		uint32_t idx = emu_attr_u64(r, MLX5_IB_ATTR_DEVX_QUERY_UAR_USER_IDX, ~0u);

		if (idx >= r->ctx->drv[0])
			return EINVAL;
		return emu_attr_out(r, MLX5_IB_ATTR_DEVX_QUERY_UAR_DEV_IDX, &idx, sizeof(idx));
	}
	if (obj == MLX5_IB_OBJECT_DEVX_OBJ && meth == MLX5_IB_METHOD_DEVX_OBJ_CREATE)
		return obj_create(r);
	if (obj == MLX5_IB_OBJECT_DEVX_OBJ && (meth == MLX5_IB_METHOD_DEVX_OBJ_QUERY ||
					       meth == MLX5_IB_METHOD_DEVX_OBJ_MODIFY))
		return obj_use(r, meth == MLX5_IB_METHOD_DEVX_OBJ_MODIFY);
	if (obj == MLX5_IB_OBJECT_DEVX_OBJ && meth == MLX5_IB_METHOD_DEVX_OBJ_DESTROY)
		return destroy(r, MLX5_IB_OBJECT_DEVX_OBJ, MLX5_IB_ATTR_DEVX_OBJ_DESTROY_HANDLE);
	if (obj == MLX5_IB_OBJECT_DEVX_UMEM && meth == MLX5_IB_METHOD_DEVX_UMEM_REG)
		return umem_reg(r);
	if (obj == MLX5_IB_OBJECT_DEVX_UMEM && meth == MLX5_IB_METHOD_DEVX_UMEM_DEREG)
		return destroy(r, MLX5_IB_OBJECT_DEVX_UMEM, MLX5_IB_ATTR_DEVX_UMEM_DEREG_HANDLE);
	return EPROTONOSUPPORT;
}

char emu_mlx5_devx_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr)
{
	if (obj == MLX5_IB_OBJECT_DEVX) {
		if (meth == MLX5_IB_METHOD_DEVX_OTHER)
			return attr == MLX5_IB_ATTR_DEVX_OTHER_CMD_IN ? 'i' : 'o';
		if (meth == MLX5_IB_METHOD_DEVX_QUERY_EQN)
			return attr == MLX5_IB_ATTR_DEVX_QUERY_EQN_USER_VEC ? 'c' : 'o';
		if (meth == MLX5_IB_METHOD_DEVX_QUERY_UAR)
			return attr == MLX5_IB_ATTR_DEVX_QUERY_UAR_USER_IDX ? 'c' : 'o';
		return 0;
	}
	if (obj == MLX5_IB_OBJECT_DEVX_OBJ) {
		/* every method's handle is its first attribute, CMD_IN its second, CMD_OUT its third */
		if (attr == (1u << UVERBS_ID_NS_SHIFT))
			return meth == MLX5_IB_METHOD_DEVX_OBJ_CREATE ? 'n' : 'h';
		return attr == MLX5_IB_ATTR_DEVX_OBJ_CREATE_CMD_IN ? 'i' : 'o';
	}
	if (obj == MLX5_IB_OBJECT_DEVX_UMEM) {
		switch (attr) {
		case MLX5_IB_ATTR_DEVX_UMEM_REG_HANDLE:
			return meth == MLX5_IB_METHOD_DEVX_UMEM_REG ? 'n' : 'h';
		case MLX5_IB_ATTR_DEVX_UMEM_REG_OUT_ID: return 'o';
		case MLX5_IB_ATTR_DEVX_UMEM_REG_DMABUF_FD: return 'f';
		default: return 'c';
		}
	}
	return 0;
}
