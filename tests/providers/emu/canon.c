/* uvemu: what the kernel reads of a write command's request, for the stream.
 *
 * Providers build some requests on their stack without clearing them, and the library fills only
 * what the call names (ibv_cmd_modify_qp copies the fields attr_mask selects): the bytes the
 * kernel never looks at are then whatever the stack held, which differs between any two runs. The
 * stream shows a request as the kernel consumes it: the fields it ignores are zeroed in the copy
 * that is logged (never in the caller's memory). What the kernel does read is shown as sent, so a
 * library that leaves garbage in a field that counts still shows up.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <string.h>

/* enum ib_qp_attr_mask (kernel-internal; the same bits as ibv_qp_attr_mask) */
enum {
	M_STATE = 1 << 0, M_CUR_STATE = 1 << 1, M_EN_SQD_ASYNC_NOTIFY = 1 << 2, M_ACCESS_FLAGS = 1 << 3,
	M_PKEY_INDEX = 1 << 4, M_PORT = 1 << 5, M_QKEY = 1 << 6, M_AV = 1 << 7, M_PATH_MTU = 1 << 8,
	M_TIMEOUT = 1 << 9, M_RETRY_CNT = 1 << 10, M_RNR_RETRY = 1 << 11, M_RQ_PSN = 1 << 12,
	M_MAX_QP_RD_ATOMIC = 1 << 13, M_ALT_PATH = 1 << 14, M_MIN_RNR_TIMER = 1 << 15, M_SQ_PSN = 1 << 16,
	M_MAX_DEST_RD_ATOMIC = 1 << 17, M_PATH_MIG_STATE = 1 << 18, M_CAP = 1 << 19, M_DEST_QPN = 1 << 20,
	M_RATE_LIMIT = 1 << 25,
};

#define CLEAR(p, field) memset(&(p)->field, 0, sizeof((p)->field))

/* An address vector: the GRH counts only when is_global (copy_ah_attr_from_uverbs). */
static void canon_dest(struct ib_uverbs_qp_dest *d)
{
	CLEAR(d, reserved);
	if (!d->is_global) {
		CLEAR(d, dgid);
		CLEAR(d, flow_label);
		CLEAR(d, sgid_index);
		CLEAR(d, hop_limit);
		CLEAR(d, traffic_class);
	}
}

static void canon_modify_qp(struct ib_uverbs_modify_qp *m)
{
	uint32_t k = m->attr_mask;

	if (k & M_AV)
		canon_dest(&m->dest);
	else
		CLEAR(m, dest);
	if (k & M_ALT_PATH) {
		canon_dest(&m->alt_dest);
	} else {
		CLEAR(m, alt_dest);
		CLEAR(m, alt_pkey_index);
		CLEAR(m, alt_port_num);
		CLEAR(m, alt_timeout);
	}
#define KEEP(bit, field)              \
	do {                          \
		if (!(k & (bit)))     \
			CLEAR(m, field); \
	} while (0)
	KEEP(M_QKEY, qkey);
	KEEP(M_RQ_PSN, rq_psn);
	KEEP(M_SQ_PSN, sq_psn);
	KEEP(M_DEST_QPN, dest_qp_num);
	KEEP(M_ACCESS_FLAGS, qp_access_flags);
	KEEP(M_PKEY_INDEX, pkey_index);
	KEEP(M_STATE, qp_state);
	KEEP(M_CUR_STATE, cur_qp_state);
	KEEP(M_PATH_MTU, path_mtu);
	KEEP(M_PATH_MIG_STATE, path_mig_state);
	KEEP(M_EN_SQD_ASYNC_NOTIFY, en_sqd_async_notify);
	KEEP(M_MAX_QP_RD_ATOMIC, max_rd_atomic);
	KEEP(M_MAX_DEST_RD_ATOMIC, max_dest_rd_atomic);
	KEEP(M_MIN_RNR_TIMER, min_rnr_timer);
	KEEP(M_PORT, port_num);
	KEEP(M_TIMEOUT, timeout);
	KEEP(M_RETRY_CNT, retry_cnt);
	KEEP(M_RNR_RETRY, rnr_retry);
#undef KEEP
	CLEAR(m, reserved);
}

void emu_canon_core_in(uint32_t wcmd, uint8_t *buf, size_t len)
{
	switch (wcmd) {
	case IB_USER_VERBS_CMD_MODIFY_QP:
		if (len >= sizeof(struct ib_uverbs_modify_qp))
			canon_modify_qp((void *)buf);
		break;
	case IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_MODIFY_QP:
		if (len >= sizeof(struct ib_uverbs_ex_modify_qp)) {
			struct ib_uverbs_ex_modify_qp *x = (void *)buf;

			canon_modify_qp(&x->base);
			if (!(x->base.attr_mask & M_RATE_LIMIT))
				CLEAR(x, rate_limit);
		}
		break;
	case IB_USER_VERBS_CMD_CREATE_AH:
		if (len >= sizeof(struct ib_uverbs_create_ah)) {
			struct ib_uverbs_create_ah *a = (void *)buf;

			CLEAR(a, reserved);
			CLEAR(&a->attr, reserved);
			if (!a->attr.is_global)
				CLEAR(&a->attr, grh);
			else
				CLEAR(&a->attr.grh, reserved);
		}
		break;
	case IB_USER_VERBS_CMD_CREATE_CQ:
		if (len >= sizeof(struct ib_uverbs_create_cq))
			CLEAR((struct ib_uverbs_create_cq *)buf, reserved);
		break;
	case IB_USER_VERBS_CMD_CREATE_QP:
		if (len >= sizeof(struct ib_uverbs_create_qp)) {
			struct ib_uverbs_create_qp *q = (void *)buf;

			CLEAR(q, reserved);
			if (!q->is_srq)
				CLEAR(q, srq_handle);
		}
		break;
	case IB_USER_VERBS_CMD_FLAG_EXTENDED | IB_USER_VERBS_EX_CMD_CREATE_QP:
		if (len >= offsetof(struct ib_uverbs_ex_create_qp, comp_mask)) {
			struct ib_uverbs_ex_create_qp *q = (void *)buf;

			CLEAR(q, reserved);
			if (!q->is_srq)
				CLEAR(q, srq_handle);
		}
		break;
	case IB_USER_VERBS_CMD_OPEN_QP:
		/* mlx5's open_qp builds it on its stack and ibv_cmd_open_qp fills the four fields
		 * the kernel reads: reserved[7] after qp_type is the stack's */
		if (len >= sizeof(struct ib_uverbs_open_qp))
			CLEAR((struct ib_uverbs_open_qp *)buf, reserved);
		break;
	case IB_USER_VERBS_CMD_ALLOC_MW:
		if (len >= sizeof(struct ib_uverbs_alloc_mw))
			CLEAR((struct ib_uverbs_alloc_mw *)buf, reserved);
		break;
	case IB_USER_VERBS_CMD_DESTROY_CQ:
		if (len >= sizeof(struct ib_uverbs_destroy_cq))
			CLEAR((struct ib_uverbs_destroy_cq *)buf, reserved);
		break;
	case IB_USER_VERBS_CMD_QUERY_PORT:
		if (len >= sizeof(struct ib_uverbs_query_port))
			CLEAR((struct ib_uverbs_query_port *)buf, reserved);
		break;
	}
}
