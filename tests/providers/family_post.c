/* The kernel-posting family of the provider lifecycle (lifecycle kpost): a provider without a
 * user-space data path (hfi1verbs at its driver's first uverbs ABI) posts, receives and polls by
 * write commands (ibv_cmd_post_send, ibv_cmd_post_recv, ibv_cmd_post_srq_recv, ibv_cmd_poll_cq).
 *
 * An RC QP takes no receive in RESET and no send before RTS (EINVAL, the first request named),
 * nor a request with more entries than it was made for; connected to itself, it takes two
 * receives, then sends: one signaled and one not (one completion polled: its wr_id, status,
 * opcode and length), twelve at once (hfi1verbs posts more than ten in two commands; two
 * signaled), polled two at a time until empty; an SRQ takes two receives and refuses too many
 * entries. Every result printed (the request a failed post names, by its index from 1); a step
 * that fails skips what needs it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "lifecycle.h"

/* The index (from 1) of bad among the n requests from first (0: none). */
static int index_of(const void *first, const void *bad, size_t size, int n)
{
	for (int i = 0; i < n; i++)
		if ((const char *)first + (size_t)i * size == (const char *)bad)
			return i + 1;
	return 0;
}

static void post_recvs(struct ibv_qp *qp, const char *step, struct ibv_sge *sge, int n, int num_sge)
{
	struct ibv_recv_wr wr[4], *bad = NULL;

	memset(wr, 0, sizeof(wr));
	for (int i = 0; i < n; i++) {
		wr[i].wr_id = 0x100 + i;
		wr[i].sg_list = sge;
		wr[i].num_sge = num_sge;
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
	}
	result(step, ibv_post_recv(qp, wr, &bad));
	SHOW("bad_wr=%d", index_of(wr, bad, sizeof(wr[0]), n));
}

static void post_sends(struct ibv_qp *qp, const char *step, struct ibv_sge *sge, int n, int num_sge,
		       unsigned signaled)
{
	struct ibv_send_wr wr[12], *bad = NULL;

	memset(wr, 0, sizeof(wr));
	for (int i = 0; i < n; i++) {
		wr[i].wr_id = 0x200 + i;
		wr[i].sg_list = sge;
		wr[i].num_sge = num_sge;
		wr[i].opcode = IBV_WR_SEND;
		wr[i].send_flags = signaled & (1u << i) ? IBV_SEND_SIGNALED : 0;
		wr[i].next = i + 1 < n ? &wr[i + 1] : NULL;
	}
	result(step, ibv_post_send(qp, wr, &bad));
	SHOW("bad_wr=%d", index_of(wr, bad, sizeof(wr[0]), n));
}

/* ibv_poll_cq for up to ne completions: the count (or the error), then each completion. */
static void poll(struct ibv_cq *cq, const char *step, int ne)
{
	struct ibv_wc wc[4];
	int n = ibv_poll_cq(cq, ne, wc);

	printf("%s: %d\n", step, n);
	for (int i = 0; i < n; i++)
		SHOW("wr_id=%#llx status=%d opcode=%d byte_len=%u qp_num=%u", (unsigned long long)wc[i].wr_id,
		     wc[i].status, wc[i].opcode, wc[i].byte_len, wc[i].qp_num);
}

static void srq_recvs(struct ibv_pd *pd, struct ibv_sge *sge)
{
	struct ibv_srq_init_attr sa = { .attr = { .max_wr = 8, .max_sge = 1 } };
	struct ibv_recv_wr wr[2], *bad = NULL;
	struct ibv_srq *srq;

	errno = 0;
	srq = ibv_create_srq(pd, &sa);
	if (!made("create_srq", srq))
		return;
	memset(wr, 0, sizeof(wr));
	for (int i = 0; i < 2; i++) {
		wr[i].wr_id = 0x300 + i;
		wr[i].sg_list = sge;
		wr[i].num_sge = 1;
	}
	wr[0].next = &wr[1];
	result("post_srq_recv", ibv_post_srq_recv(srq, wr, &bad));
	SHOW("bad_wr=%d", index_of(wr, bad, sizeof(wr[0]), 2));
	wr[1].num_sge = 2;
	bad = NULL;
	result("post_srq_recv (too many entries)", ibv_post_srq_recv(srq, wr, &bad));
	SHOW("bad_wr=%d", index_of(wr, bad, sizeof(wr[0]), 2));
	result("destroy_srq", ibv_destroy_srq(srq));
}

void family_kpost(struct ibv_context *ctx)
{
	struct ibv_qp_attr init = { .qp_state = IBV_QPS_INIT, .port_num = 1 };
	struct ibv_port_attr port;
	struct ibv_qp *qp = NULL;
	struct ibv_sge sge[2];
	struct ibv_mr *mr = NULL;
	union ibv_gid gid;
	struct ibv_cq *cq;
	struct ibv_pd *pd;

	family_pd_cq(ctx, &pd, &cq);
	if (pd) {
		errno = 0;
		mr = ibv_reg_mr(pd, (char *)FIXED_BASE + 0x8000, 4096, IBV_ACCESS_LOCAL_WRITE);
		made("reg_mr", mr);
	}
	qp = mr ? family_qp(pd, cq, IBV_QPT_RC, "RC") : NULL;
	if (qp) {
		for (int i = 0; i < 2; i++)
			sge[i] = (struct ibv_sge){ .addr = (uintptr_t)FIXED_BASE + 0x8000 + 64 * i, .length = 64,
						   .lkey = mr->lkey };
		post_recvs(qp, "post_recv (RESET)", sge, 1, 1);
		result("modify_qp RC INIT", ibv_modify_qp(qp, &init, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT |
								      IBV_QP_ACCESS_FLAGS));
		post_recvs(qp, "post_recv", sge, 2, 1);
		post_recvs(qp, "post_recv (too many entries)", sge, 2, 2);
		post_sends(qp, "post_send (INIT)", sge, 1, 1, 1);
		result("query_port", ibv_query_port(ctx, 1, &port));
		result("query_gid", ibv_query_gid(ctx, 1, 0, &gid));
		connect_rc(qp, "RC", &port, &gid);
		post_sends(qp, "post_send", sge, 2, 1, 1u << 0);
		post_sends(qp, "post_send (too many entries)", sge, 2, 2, 3);
		poll(cq, "poll_cq", 4);
		post_sends(qp, "post_send 12", sge, 12, 1, 1u << 3 | 1u << 11);
		poll(cq, "poll_cq 2", 2);
		poll(cq, "poll_cq 2 (again)", 2);
		poll(cq, "poll_cq (empty)", 4);
		srq_recvs(pd, sge);
		result("destroy_qp", ibv_destroy_qp(qp));
	}
	if (mr)
		result("dereg_mr", ibv_dereg_mr(mr));
	if (cq)
		result("destroy_cq", ibv_destroy_cq(cq));
	if (pd)
		result("dealloc_pd", ibv_dealloc_pd(pd));
}
