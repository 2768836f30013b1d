/* The ex family of the provider lifecycle (lifecycle ex): the extended CQ and QP commands a
 * write-only kernel gets as EX_CREATE_CQ and EX_MODIFY_QP. CQs by ibv_create_cq_ex with a
 * completion timestamp (a flag the provider may tell the library the kernel ignores: the legacy
 * CREATE_CQ on a write kernel), with IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN (a flag only EX_CREATE_CQ
 * carries) and with both, and with a reserved flag (refused before any command); a raw packet QP
 * taken to RTS and given a rate limit (ibv_modify_qp_rate_limit, and ibv_modify_qp with
 * IBV_QP_RATE_LIMIT: EX_MODIFY_QP on either kernel), then the provider's refusals (a comp_mask, a
 * burst without packet pacing's burst support). Where the device has no raw packet QPs, a UD QP
 * is given the rate limit as it is (a provider without the extended modify: the library's
 * EOPNOTSUPP for a mask beyond the legacy command's). Every result printed; a step that fails skips what needs it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "lifecycle.h"

static struct ibv_cq_ex *cq_ex(struct ibv_context *ctx, const char *step, uint64_t wc_flags, uint32_t flags)
{
	struct ibv_cq_init_attr_ex a = {
		/* no SLID or SL: mlx4 cannot give them with a timestamp */
		.cqe = 16, .wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_QP_NUM | wc_flags,
		.comp_mask = flags ? IBV_CQ_INIT_ATTR_MASK_FLAGS : 0, .flags = flags,
	};
	struct ibv_cq_ex *cq;

	errno = 0;
	cq = ibv_create_cq_ex(ctx, &a);
	if (made(step, cq))
		SHOW("cqe=%d", cq->cqe);
	return cq;
}

static void destroy_cq_ex(struct ibv_cq_ex *cq, const char *step)
{
	if (cq)
		result(step, ibv_destroy_cq(ibv_cq_ex_to_cq(cq)));
}

static void rate_limit(struct ibv_qp *qp)
{
	struct ibv_qp_rate_limit_attr rl = { .rate_limit = 100000 };
	struct ibv_qp_attr qa = { .rate_limit = 200000 };

	result("modify_qp_rate_limit", ibv_modify_qp_rate_limit(qp, &rl));
	result("modify_qp RATE_LIMIT", ibv_modify_qp(qp, &qa, IBV_QP_RATE_LIMIT));
	qa.rate_limit = 0;
	result("modify_qp RATE_LIMIT 0", ibv_modify_qp(qp, &qa, IBV_QP_RATE_LIMIT));
	rl.comp_mask = 1;
	result("modify_qp_rate_limit (comp_mask)", ibv_modify_qp_rate_limit(qp, &rl));
	rl = (struct ibv_qp_rate_limit_attr){ .rate_limit = 100000, .max_burst_sz = 4096, .typical_pkt_sz = 1024 };
	result("modify_qp_rate_limit (burst)", ibv_modify_qp_rate_limit(qp, &rl));
}

void family_ex(struct ibv_context *ctx)
{
	struct ibv_cq_ex *ts, *oi, *both, *bad;
	struct ibv_qp *qp;
	struct ibv_cq *cq;
	struct ibv_pd *pd;

	ts = cq_ex(ctx, "create_cq_ex TIMESTAMP", IBV_WC_EX_WITH_COMPLETION_TIMESTAMP, 0);
	oi = cq_ex(ctx, "create_cq_ex IGNORE_OVERRUN", 0, IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN);
	both = cq_ex(ctx, "create_cq_ex TIMESTAMP IGNORE_OVERRUN", IBV_WC_EX_WITH_COMPLETION_TIMESTAMP,
		     IBV_CREATE_CQ_ATTR_IGNORE_OVERRUN);
	bad = cq_ex(ctx, "create_cq_ex (reserved flag)", 0, 1u << 2);
	destroy_cq_ex(bad, "destroy_cq (reserved flag)");
	destroy_cq_ex(both, "destroy_cq TIMESTAMP IGNORE_OVERRUN");
	destroy_cq_ex(oi, "destroy_cq IGNORE_OVERRUN");
	destroy_cq_ex(ts, "destroy_cq TIMESTAMP");

	family_pd_cq(ctx, &pd, &cq);
	qp = family_qp(pd, cq, IBV_QPT_RAW_PACKET, "RAW_PACKET");
	if (!qp && pd && cq) {
		qp = family_qp(pd, cq, IBV_QPT_UD, "UD");
		if (qp) {
			rate_limit(qp);
			result("destroy_qp", ibv_destroy_qp(qp));
			qp = NULL;
		}
	}
	if (qp) {
		struct ibv_qp_attr qa = { .qp_state = IBV_QPS_INIT, .port_num = 1 };
		int ret = ibv_modify_qp(qp, &qa, IBV_QP_STATE | IBV_QP_PORT);

		result("modify_qp INIT", ret);
		if (!ret) {
			qa = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTR };
			ret = ibv_modify_qp(qp, &qa, IBV_QP_STATE);
			result("modify_qp RTR", ret);
		}
		if (!ret) {
			qa = (struct ibv_qp_attr){ .qp_state = IBV_QPS_RTS };
			ret = ibv_modify_qp(qp, &qa, IBV_QP_STATE);
			result("modify_qp RTS", ret);
		}
		if (!ret)
			rate_limit(qp);
		else
			skip("modify_qp_rate_limit");
		result("destroy_qp", ibv_destroy_qp(qp));
	}
	if (cq)
		result("destroy_cq", ibv_destroy_cq(cq));
	if (pd)
		result("dealloc_pd", ibv_dealloc_pd(pd));
}
