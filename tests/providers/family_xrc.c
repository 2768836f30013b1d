/* The XRC family of the provider lifecycle (lifecycle xrc): XRC domains (ibv_open_xrcd,
 * ibv_close_xrcd), an XRC SRQ (ibv_create_srq_ex), the two XRC QP types (ibv_create_qp_ex
 * XRC_SEND with a PD, XRC_RECV with the domain alone), a second handle on the receive QP
 * (ibv_open_qp, in a second domain), and the kernel's refusals while they are in use (closing a
 * domain, destroying the shared QP: EBUSY). Every result printed; a step that fails skips what
 * needs it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "lifecycle.h"

void family_xrc(struct ibv_context *ctx)
{
	struct ibv_xrcd_init_attr xa = {
		.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS, .fd = -1, .oflags = O_CREAT,
	};
	struct ibv_qp *send = NULL, *recv = NULL, *opened = NULL;
	struct ibv_xrcd *xrcd = NULL;
	struct ibv_srq *srq = NULL;
	struct ibv_cq *cq = NULL;
	struct ibv_pd *pd;
	uint32_t srqn = 0;

	family_pd_cq(ctx, &pd, &cq);
	errno = 0;
	xrcd = ibv_open_xrcd(ctx, &xa);
	made("open_xrcd", xrcd);

	if (pd && cq && xrcd) {
		struct ibv_srq_init_attr_ex sa = {
			.attr = { .max_wr = 16, .max_sge = 1 },
			.comp_mask = IBV_SRQ_INIT_ATTR_TYPE | IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_XRCD |
				     IBV_SRQ_INIT_ATTR_CQ,
			.srq_type = IBV_SRQT_XRC, .pd = pd, .xrcd = xrcd, .cq = cq,
		};

		errno = 0;
		srq = ibv_create_srq_ex(ctx, &sa);
		if (made("create_srq_ex XRC", srq)) {
			result("get_srq_num", ibv_get_srq_num(srq, &srqn));
			SHOW("max_wr=%u max_sge=%u srq_num=%u", sa.attr.max_wr, sa.attr.max_sge, srqn);
		}
	} else {
		skip("create_srq_ex XRC");
	}

	if (pd && cq) {
		struct ibv_qp_init_attr_ex qa = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_XRC_SEND,
			.cap = { .max_send_wr = 8, .max_send_sge = 1 },
			.comp_mask = IBV_QP_INIT_ATTR_PD, .pd = pd,
		};

		errno = 0;
		send = ibv_create_qp_ex(ctx, &qa);
		if (made("create_qp_ex XRC_SEND", send))
			SHOW("qp_num=%#x state=%d max_send_wr=%u max_recv_wr=%u", send->qp_num, send->state,
			     qa.cap.max_send_wr, qa.cap.max_recv_wr);
	} else {
		skip("create_qp_ex XRC_SEND");
	}

	if (xrcd) {
		struct ibv_qp_init_attr_ex qa = {
			.qp_type = IBV_QPT_XRC_RECV, .comp_mask = IBV_QP_INIT_ATTR_XRCD, .xrcd = xrcd,
		};

		errno = 0;
		recv = ibv_create_qp_ex(ctx, &qa);
		if (made("create_qp_ex XRC_RECV", recv))
			SHOW("qp_num=%#x state=%d", recv->qp_num, recv->state);
	} else {
		skip("create_qp_ex XRC_RECV");
	}

	if (xrcd && (srq || recv))
		result("close_xrcd (in use)", ibv_close_xrcd(xrcd));
	if (send)
		result("destroy_qp XRC_SEND", ibv_destroy_qp(send));
	if (srq)
		result("destroy_srq XRC", ibv_destroy_srq(srq));
	if (recv)
		result("destroy_qp XRC_RECV", ibv_destroy_qp(recv));
	if (xrcd)
		result("close_xrcd", ibv_close_xrcd(xrcd));

	/* A second domain: its receive QP opened again by number. The opened handle is left to
	 * close_device (the kernel's cleanup): destroying it crashes rdma-core 44's mlx5 provider
	 * under either library (mlx5_destroy_qp frees a doorbell record the opened QP never had:
	 * SIGBUS), and so the QP it shares and the domain stay too. */
	errno = 0;
	xrcd = ibv_open_xrcd(ctx, &xa);
	recv = NULL;
	if (made("open_xrcd 2", xrcd)) {
		struct ibv_qp_init_attr_ex qa = {
			.qp_type = IBV_QPT_XRC_RECV, .comp_mask = IBV_QP_INIT_ATTR_XRCD, .xrcd = xrcd,
		};

		errno = 0;
		recv = ibv_create_qp_ex(ctx, &qa);
		if (made("create_qp_ex XRC_RECV 2", recv))
			SHOW("qp_num=%#x state=%d", recv->qp_num, recv->state);
	}
	if (recv) {
		struct ibv_qp_open_attr oa = {
			.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_XRCD | IBV_QP_OPEN_ATTR_TYPE,
			.qp_num = recv->qp_num, .xrcd = xrcd, .qp_type = IBV_QPT_XRC_RECV,
		};

		errno = 0;
		opened = ibv_open_qp(ctx, &oa);
		if (made("open_qp", opened))
			SHOW("qp_num=%#x state=%d", opened->qp_num, opened->state);
	} else {
		skip("open_qp");
	}
	if (opened) {
		result("destroy_qp XRC_RECV 2 (opened)", ibv_destroy_qp(recv));
		result("close_xrcd 2 (in use)", ibv_close_xrcd(xrcd));
	} else {
		if (recv)
			result("destroy_qp XRC_RECV 2", ibv_destroy_qp(recv));
		if (xrcd)
			result("close_xrcd 2", ibv_close_xrcd(xrcd));
	}
	if (cq)
		result("destroy_cq", ibv_destroy_cq(cq));
	if (pd)
		result("dealloc_pd", ibv_dealloc_pd(pd));
}
