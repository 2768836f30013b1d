/* The WQ family of the provider lifecycle (lifecycle wq): receive work queues (ibv_create_wq,
 * ibv_modify_wq to ready, ibv_destroy_wq), an indirection table over two of them
 * (ibv_create_rwq_ind_table), an RSS raw packet QP hashing over the table (ibv_create_qp_ex with
 * IBV_QP_INIT_ATTR_RX_HASH | IND_TABLE), and the kernel's refusals while they are in use
 * (destroying a WQ in the table, the table under the QP: EBUSY); and what the library refuses
 * before any command (a reserved WQ flag or attribute, a table's reserved mask). Every result
 * printed; a step that fails skips what needs it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "lifecycle.h"

#define NWQ 2

void family_wq(struct ibv_context *ctx)
{
	static uint8_t key[40] = { 0x2c, 0xc6, 0x81, 0xd1, 0x5b, 0xdb, 0xf4, 0xf7, 0xfc, 0xa2,
				   0x83, 0x19, 0xdb, 0x1a, 0x3e, 0x94, 0x6b, 0x9e, 0x38, 0xd9,
				   0x2c, 0x9c, 0x03, 0xd1, 0xad, 0x99, 0x44, 0xa7, 0xd9, 0x56,
				   0x3d, 0x59, 0x06, 0x3c, 0x25, 0xf3, 0xfc, 0x1f, 0xdc, 0x2a };
	struct ibv_wq *wq[NWQ] = { NULL };
	struct ibv_rwq_ind_table *tbl = NULL;
	struct ibv_qp *qp = NULL;
	struct ibv_cq *cq;
	struct ibv_pd *pd;
	int nwq = 0;

	family_pd_cq(ctx, &pd, &cq);

	for (int i = 0; i < NWQ; i++) {
		struct ibv_wq_init_attr wa = {
			.wq_type = IBV_WQT_RQ, .max_wr = 16, .max_sge = 1, .pd = pd, .cq = cq,
		};
		char step[32];

		snprintf(step, sizeof(step), "create_wq %d", i);
		if (!pd || !cq) {
			skip(step);
			continue;
		}
		errno = 0;
		wq[i] = ibv_create_wq(ctx, &wa);
		if (!made(step, wq[i]))
			continue;
		nwq++;
		SHOW("wq_num=%u state=%d max_wr=%u max_sge=%u", wq[i]->wq_num, wq[i]->state, wa.max_wr, wa.max_sge);
	}
	if (pd && cq) {
		/* Refused by the library before any command: a reserved creation flag. */
		struct ibv_wq_init_attr wa = {
			.wq_type = IBV_WQT_RQ, .max_wr = 16, .max_sge = 1, .pd = pd, .cq = cq,
			.comp_mask = IBV_WQ_INIT_ATTR_FLAGS, .create_flags = IBV_WQ_FLAGS_RESERVED,
		};
		struct ibv_wq *bad;

		errno = 0;
		bad = ibv_create_wq(ctx, &wa);
		made("create_wq (reserved flag)", bad);
		if (bad)
			result("destroy_wq (reserved flag)", ibv_destroy_wq(bad));
	}
	if (wq[0]) {
		/* A reserved attribute, a reserved flag: refused by the library. */
		struct ibv_wq_attr ma = { .attr_mask = IBV_WQ_ATTR_RESERVED };

		result("modify_wq (reserved attribute)", ibv_modify_wq(wq[0], &ma));
		ma = (struct ibv_wq_attr){ .attr_mask = IBV_WQ_ATTR_FLAGS, .flags_mask = IBV_WQ_FLAGS_RESERVED };
		result("modify_wq (reserved flag)", ibv_modify_wq(wq[0], &ma));
	}
	for (int i = 0; i < NWQ; i++) {
		struct ibv_wq_attr ma = { .attr_mask = IBV_WQ_ATTR_STATE, .wq_state = IBV_WQS_RDY };
		char step[32];

		if (!wq[i])
			continue;
		snprintf(step, sizeof(step), "modify_wq %d RDY", i);
		result(step, ibv_modify_wq(wq[i], &ma));
		SHOW("state=%d", wq[i]->state);
	}

	if (nwq == NWQ) {
		struct ibv_rwq_ind_table_init_attr ta = {
			.log_ind_tbl_size = 1, .ind_tbl = wq, .comp_mask = IBV_CREATE_IND_TABLE_RESERVED,
		};

		/* A reserved mask: the library refuses it (and mlx5 leaves errno as it was). */
		errno = 0;
		tbl = ibv_create_rwq_ind_table(ctx, &ta);
		made("create_rwq_ind_table (reserved mask)", tbl);
		if (tbl)
			result("destroy_rwq_ind_table (reserved mask)", ibv_destroy_rwq_ind_table(tbl));
		ta.comp_mask = 0;
		errno = 0;
		tbl = ibv_create_rwq_ind_table(ctx, &ta);
		if (made("create_rwq_ind_table", tbl))
			SHOW("ind_tbl_num=%u", tbl->ind_tbl_num);
	} else {
		skip("create_rwq_ind_table");
	}
	if (tbl) {
		int ret = ibv_destroy_wq(wq[0]);

		result("destroy_wq 0 (in the table)", ret);
		if (!ret)
			wq[0] = NULL;
	}

	if (tbl) {
		struct ibv_qp_init_attr_ex qa = {
			.qp_type = IBV_QPT_RAW_PACKET,
			.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_RX_HASH | IBV_QP_INIT_ATTR_IND_TABLE,
			.pd = pd, .rwq_ind_tbl = tbl,
			.rx_hash_conf = {
				.rx_hash_function = IBV_RX_HASH_FUNC_TOEPLITZ, .rx_hash_key_len = sizeof(key),
				.rx_hash_key = key,
				.rx_hash_fields_mask = IBV_RX_HASH_SRC_IPV4 | IBV_RX_HASH_DST_IPV4 |
						       IBV_RX_HASH_SRC_PORT_TCP | IBV_RX_HASH_DST_PORT_TCP,
			},
		};

		errno = 0;
		qp = ibv_create_qp_ex(ctx, &qa);
		if (made("create_qp_ex RSS", qp))
			SHOW("qp_num=%#x state=%d", qp->qp_num, qp->state);
	} else {
		skip("create_qp_ex RSS");
	}
	if (qp) {
		int ret = ibv_destroy_rwq_ind_table(tbl);

		result("destroy_rwq_ind_table (in use)", ret);
		if (!ret)
			tbl = NULL;
		result("destroy_qp RSS", ibv_destroy_qp(qp));
	}
	if (tbl)
		result("destroy_rwq_ind_table", ibv_destroy_rwq_ind_table(tbl));
	for (int i = 0; i < NWQ; i++) {
		char step[32];

		if (!wq[i])
			continue;
		snprintf(step, sizeof(step), "destroy_wq %d", i);
		result(step, ibv_destroy_wq(wq[i]));
	}
	if (cq)
		result("destroy_cq", ibv_destroy_cq(cq));
	if (pd)
		result("dealloc_pd", ibv_dealloc_pd(pd));
}
