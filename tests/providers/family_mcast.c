/* The multicast and CQ moderation families of the provider lifecycle.
 *
 * lifecycle mcast: a UD QP joins two multicast groups (ibv_attach_mcast; again: no change), is
 * refused a unicast GID (EINVAL) and its destruction while attached (EBUSY), leaves them
 * (ibv_detach_mcast; a group it is not in: EINVAL), and is destroyed.
 *
 * lifecycle cqmod: CQ moderation (ibv_modify_cq): a count and period set, a period beyond the
 * device's maximum, an empty mask and a reserved one (the library's EINVAL) refused.
 * Every result printed; a step that fails skips what needs it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "lifecycle.h"

static const union ibv_gid group1 = { .raw = { 0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, [15] = 1 } };
static const union ibv_gid group2 = { .raw = { 0xff, 0x12, 0x60, 0x1b, 0xff, 0xff, [14] = 1, [15] = 2 } };
static const union ibv_gid unicast = { .raw = { 0xfe, 0x80, [15] = 3 } };

void family_mcast(struct ibv_context *ctx)
{
	struct ibv_qp *qp = NULL;
	struct ibv_cq *cq;
	struct ibv_pd *pd;

	family_pd_cq(ctx, &pd, &cq);
	qp = family_qp(pd, cq, IBV_QPT_UD, "UD");
	if (qp) {
		result("attach_mcast", ibv_attach_mcast(qp, &group1, 0xc001));
		result("attach_mcast (again)", ibv_attach_mcast(qp, &group1, 0xc001));
		result("attach_mcast 2", ibv_attach_mcast(qp, &group2, 0xc002));
		result("attach_mcast (unicast)", ibv_attach_mcast(qp, &unicast, 0xc003));
		result("destroy_qp (attached)", ibv_destroy_qp(qp));
		result("detach_mcast", ibv_detach_mcast(qp, &group1, 0xc001));
		result("detach_mcast (again)", ibv_detach_mcast(qp, &group1, 0xc001));
		result("detach_mcast 2", ibv_detach_mcast(qp, &group2, 0xc002));
		result("destroy_qp", ibv_destroy_qp(qp));
	}
	if (cq)
		result("destroy_cq", ibv_destroy_cq(cq));
	if (pd)
		result("dealloc_pd", ibv_dealloc_pd(pd));
}

void family_cqmod(struct ibv_context *ctx)
{
	struct ibv_modify_cq_attr ma = {
		.attr_mask = IBV_CQ_ATTR_MODERATE, .moderate = { .cq_count = 16, .cq_period = 100 },
	};
	struct ibv_cq *cq;

	errno = 0;
	cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	if (!made("create_cq", cq))
		return;
	result("modify_cq", ibv_modify_cq(cq, &ma));
	ma.moderate.cq_period = 5000;
	result("modify_cq (period too long)", ibv_modify_cq(cq, &ma));
	ma.attr_mask = 0;
	result("modify_cq (no mask)", ibv_modify_cq(cq, &ma));
	ma.attr_mask = IBV_CQ_ATTR_RESERVED;
	result("modify_cq (reserved mask)", ibv_modify_cq(cq, &ma));
	result("destroy_cq", ibv_destroy_cq(cq));
}
