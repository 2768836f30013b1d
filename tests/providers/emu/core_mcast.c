/* uvemu: multicast groups of UD QPs and CQ moderation (drivers/infiniband/core/uverbs_cmd.c:
 * ib_uverbs_attach_mcast, ib_uverbs_detach_mcast, ib_uverbs_ex_modify_cq; verbs.c: ib_attach_mcast,
 * rdma_set_cq_moderation).
 *
 * ATTACH_MCAST of a group the QP already has succeeds without the driver; otherwise the driver must
 * have attach_mcast (emu_dev's mcast, else EOPNOTSUPP), the GID be multicast (ff00::/8), the QP UD
 * and, on an InfiniBand port, the LID a multicast LID (0xc000..0xfffe). DETACH_MCAST of a group
 * the QP does not have is EINVAL. A QP with groups attached cannot be destroyed (EBUSY: the user
 * must detach first); closing the device detaches them. EX_MODIFY_CQ needs a mask of
 * IB_CQ_MODERATE exactly and a driver with modify_cq (emu_dev's cq_max_period, the period mlx5
 * refuses beyond: EINVAL; mlx4 checks none, its maximum is the u16 the core passes on).
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <string.h>

#define MAX_GROUPS 64
#define CQ_MODERATE 1u         /* IB_CQ_MODERATE */

struct group {
	const struct emu_ctx *ctx;
	uint32_t qp;
	uint8_t gid[16];
	uint16_t lid;
};

static struct group groups[MAX_GROUPS];

/* The group entry of (qp, gid, lid), or NULL. */
static struct group *find(struct emu_req *r, uint32_t qp, const uint8_t *gid, uint16_t lid)
{
	for (unsigned i = 0; i < MAX_GROUPS; i++) {
		struct group *g = &groups[i];

		if (g->ctx == r->ctx && g->qp == qp && g->lid == lid && !memcmp(g->gid, gid, 16))
			return g;
	}
	return NULL;
}

void emu_mcast_release(const struct emu_ctx *c)
{
	for (unsigned i = 0; i < MAX_GROUPS; i++)
		if (groups[i].ctx == c)
			memset(&groups[i], 0, sizeof(groups[i]));
}

static int check(struct emu_req *r, struct emu_obj *qp, const uint8_t *gid, uint16_t lid)
{
	if (!r->dev->mcast)
		return EOPNOTSUPP;
	if (gid[0] != 0xff || qp->qp_type != IB_UVERBS_QPT_UD)
		return EINVAL;
	if (r->dev->link_layer == IB_LINK_LAYER_INFINIBAND && (lid < 0xc000 || lid == 0xffff))
		return EINVAL;
	return 0;
}

static int attach(struct emu_req *r)
{
	EMU_REQ(struct ib_uverbs_attach_mcast, c);
	struct emu_obj *qp = emu_obj_get(r->ctx, UVERBS_OBJECT_QP, c.qp_handle);
	int ret;

	if (!qp)
		return EINVAL;
	if (find(r, c.qp_handle, c.gid, c.mlid))
		return 0;
	ret = check(r, qp, c.gid, c.mlid);
	if (ret)
		return ret;
	for (unsigned i = 0; i < MAX_GROUPS; i++) {
		struct group *g = &groups[i];

		if (!g->ctx) {
			*g = (struct group){ .ctx = r->ctx, .qp = c.qp_handle, .lid = c.mlid };
			memcpy(g->gid, c.gid, 16);
			emu_obj_use(r->ctx, UVERBS_OBJECT_QP, c.qp_handle, 1);
			return 0;
		}
	}
	return ENOMEM;
}

static int detach(struct emu_req *r)
{
	EMU_REQ(struct ib_uverbs_detach_mcast, c);
	struct emu_obj *qp = emu_obj_get(r->ctx, UVERBS_OBJECT_QP, c.qp_handle);
	struct group *g;
	int ret;

	if (!qp)
		return EINVAL;
	g = find(r, c.qp_handle, c.gid, c.mlid);
	if (!g)
		return EINVAL;
	ret = check(r, qp, c.gid, c.mlid);
	if (ret)
		return ret;
	memset(g, 0, sizeof(*g));
	emu_obj_use(r->ctx, UVERBS_OBJECT_QP, c.qp_handle, -1);
	return 0;
}

static int modify_cq(struct emu_req *r)
{
	EMU_REQ(struct ib_uverbs_ex_modify_cq, c);

	if (!c.attr_mask || c.reserved)
		return EINVAL;
	if (c.attr_mask > CQ_MODERATE)
		return EOPNOTSUPP;
	if (!emu_obj_get(r->ctx, UVERBS_OBJECT_CQ, c.cq_handle))
		return EINVAL;
	if (!r->dev->cq_max_period)
		return EOPNOTSUPP;
	if (c.attr.cq_period > r->dev->cq_max_period)
		return EINVAL;
	return 0;
}

int emu_mcast_write(struct emu_req *r)
{
	switch (r->wcmd) {
	case IB_USER_VERBS_CMD_ATTACH_MCAST:
		return attach(r);
	case IB_USER_VERBS_CMD_DETACH_MCAST:
		return detach(r);
	case IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_CQ:
		return modify_cq(r);
	}
	return EOPNOTSUPP;
}
