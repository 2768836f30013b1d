/* uvemu: posting and polling through the kernel (drivers/infiniband/core/uverbs_cmd.c's
 * ib_uverbs_post_send, _post_recv, _post_srq_recv and _poll_cq over a software driver's queues,
 * drivers/infiniband/sw/rdmavt): what a provider without a user-space data path sends (hfi1verbs
 * at uverbs ABI 1 posts and polls only so; hfi1verbs and ipathverbs always post sends so).
 *
 * The request carries its work requests after the fixed part (wqe_size bytes each) and then every
 * scatter/gather entry; uverbs checks the lengths, the handles and, for UD, the address handle of
 * each request, before the driver sees any; the driver then refuses a queue in the wrong state or
 * a request with more entries than the queue takes, naming the request (the response's bad_wr:
 * its index counted from 1; 0 when none was refused). A posted send that asks for a completion
 * (IB_SEND_SIGNALED, or a QP that signals all: not known here, so signaled ones only) completes at
 * once on the QP's send CQ, successfully, and waits there for POLL_CQ; receives wait for a peer
 * that never sends (nothing completes them). A CQ holding EMU_CQ_WCS completions overruns: the
 * post that would add one more fails with EIO, as a full rdmavt CQ's completion does not fit.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>

#define EMU_SEND_SIGNALED (1u << 1) /* IB_SEND_SIGNALED */

/* IB_QPS_* of rdmavt's ib_rvt_state_ops: receives are taken from INIT on, sends in RTS. */
enum { QPS_RESET = 0, QPS_INIT = 1, QPS_RTS = 3, QPS_ERR = 6 };

bool emu_post_cmd(uint32_t wcmd)
{
	switch (wcmd) {
	case IB_USER_VERBS_CMD_POST_SEND:
	case IB_USER_VERBS_CMD_POST_RECV:
	case IB_USER_VERBS_CMD_POST_SRQ_RECV:
	case IB_USER_VERBS_CMD_POLL_CQ:
		return true;
	}
	return false;
}

/* The bytes after a request's fixed part of `fixed` bytes: a write() command's are what kernel.c
 * calls its driver data (r->uin), an ioctl's (INVOKE_WRITE) the rest of its CORE_IN. */
static const uint8_t *after_fixed(const struct emu_req *r, size_t fixed, size_t *len)
{
	if (r->in_len > fixed) {
		*len = r->in_len - fixed;
		return r->in + fixed;
	}
	*len = r->uin_len;
	return r->uin;
}

/* The request's work requests and entries: wr_count requests of wqe_size bytes, then sge_count
 * entries, after the fixed part. NULL (EINVAL) when they do not fit or a request is smaller than
 * its struct. */
static const uint8_t *wr_area(const struct emu_req *r, size_t fixed, uint32_t wr_count, uint32_t sge_count,
			      uint32_t wqe_size, size_t min_wqe)
{
	size_t len;
	const uint8_t *p = after_fixed(r, fixed, &len);

	if (wqe_size < min_wqe ||
	    (uint64_t)wqe_size * wr_count + (uint64_t)sge_count * sizeof(struct ib_uverbs_sge) > len)
		return NULL;
	return p;
}

/* uverbs' first pass over the requests (send and receive requests both start with wr_id and
 * num_sge): each one's entries within the sge_count the command sent, else EINVAL. */
static int entries_within(const uint8_t *wrs, uint32_t wr_count, uint32_t wqe_size, uint32_t sge_count)
{
	uint32_t used = 0, n;

	for (uint32_t i = 0; i < wr_count; i++) {
		memcpy(&n, wrs + (size_t)i * wqe_size + offsetof(struct ib_uverbs_recv_wr, num_sge), sizeof(n));
		if (n > sge_count - used)
			return EINVAL;
		used += n;
	}
	return 0;
}
_Static_assert(offsetof(struct ib_uverbs_send_wr, num_sge) == offsetof(struct ib_uverbs_recv_wr, num_sge),
	       "send and receive requests keep num_sge at one offset");

/* The opcode of a send's completion (ib_wc_opcode) for its work request's (ib_wr_opcode). */
static uint32_t wc_opcode(uint32_t wr_opcode)
{
	switch (wr_opcode) {
	case IB_UVERBS_WR_RDMA_WRITE:
	case IB_UVERBS_WR_RDMA_WRITE_WITH_IMM:
		return 1; /* IB_WC_RDMA_WRITE */
	case IB_UVERBS_WR_RDMA_READ:
		return 2; /* IB_WC_RDMA_READ */
	case IB_UVERBS_WR_ATOMIC_CMP_AND_SWP:
		return 3; /* IB_WC_COMP_SWAP */
	case IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD:
		return 4; /* IB_WC_FETCH_ADD */
	default:
		return 0; /* IB_WC_SEND */
	}
}

static int post_send(struct emu_req *r)
{
	EMU_REQ(struct ib_uverbs_post_send, c);
	struct ib_uverbs_post_send_resp resp = { 0 };
	const uint8_t *wrs = wr_area(r, sizeof(c), c.wr_count, c.sge_count, c.wqe_size,
				     sizeof(struct ib_uverbs_send_wr));
	struct ib_uverbs_sge sge;
	struct emu_obj *qp, *cq;
	uint32_t used = 0;
	int ret = 0;

	if (!wrs)
		return EINVAL;
	qp = emu_obj_get(r->ctx, UVERBS_OBJECT_QP, c.qp_handle);
	if (!qp || entries_within(wrs, c.wr_count, c.wqe_size, c.sge_count))
		return EINVAL;
	/* uverbs: a known opcode, and a UD request a send with an address handle that exists */
	for (uint32_t i = 0; i < c.wr_count; i++) {
		struct ib_uverbs_send_wr w;

		memcpy(&w, wrs + (size_t)i * c.wqe_size, sizeof(w));
		if (w.opcode > IB_UVERBS_WR_SEND_WITH_INV ||
		    w.opcode == IB_UVERBS_WR_LOCAL_INV || w.opcode == IB_UVERBS_WR_BIND_MW)
			return EINVAL;
		if (qp->qp_type == IB_UVERBS_QPT_UD &&
		    ((w.opcode != IB_UVERBS_WR_SEND && w.opcode != IB_UVERBS_WR_SEND_WITH_IMM) ||
		     !emu_obj_get(r->ctx, UVERBS_OBJECT_AH, w.wr.ud.ah)))
			return EINVAL;
	}
	/* the driver: one request at a time, the first it refuses named in the response */
	cq = emu_obj_get(r->ctx, UVERBS_OBJECT_CQ, qp->scq);
	for (uint32_t i = 0; i < c.wr_count && !ret; i++) {
		struct ib_uverbs_send_wr w;
		uint32_t len = 0;

		memcpy(&w, wrs + (size_t)i * c.wqe_size, sizeof(w));
		for (uint32_t s = 0; s < w.num_sge; s++) {
			memcpy(&sge, wrs + (size_t)c.wr_count * c.wqe_size + (size_t)(used + s) * sizeof(sge),
			       sizeof(sge));
			len += sge.length;
		}
		used += w.num_sge;
		if (qp->state != QPS_RTS || w.num_sge > qp->send_sge)
			ret = EINVAL;
		else if ((w.send_flags & EMU_SEND_SIGNALED) && (!cq || cq->nwc == EMU_CQ_WCS))
			ret = EIO;
		else if (w.send_flags & EMU_SEND_SIGNALED)
			cq->wc[cq->nwc++] = (struct ib_uverbs_wc){ .wr_id = w.wr_id,
								   .opcode = wc_opcode(w.opcode),
								   .byte_len = len,
								   .qp_num = qp->num,
								   .port_num = 1 };
		if (ret)
			resp.bad_wr = i + 1;
	}
	emu_resp_out(r, &resp, sizeof(resp));
	return ret;
}

/* POST_RECV (queue: a QP) and POST_SRQ_RECV (an SRQ): the same request but for the handle. */
static int post_recv(struct emu_req *r, uint16_t type)
{
	EMU_REQ(struct ib_uverbs_post_recv, c);
	struct ib_uverbs_post_recv_resp resp = { 0 };
	const uint8_t *wrs = wr_area(r, sizeof(c), c.wr_count, c.sge_count, c.wqe_size,
				     sizeof(struct ib_uverbs_recv_wr));
	struct emu_obj *q;
	int ret = 0;

	if (!wrs)
		return EINVAL;
	q = emu_obj_get(r->ctx, type, c.qp_handle);
	if (!q || entries_within(wrs, c.wr_count, c.wqe_size, c.sge_count))
		return EINVAL;
	for (uint32_t i = 0; i < c.wr_count && !ret; i++) {
		struct ib_uverbs_recv_wr w;

		memcpy(&w, wrs + (size_t)i * c.wqe_size, sizeof(w));
		if (type == UVERBS_OBJECT_QP &&
		    (q->state == QPS_RESET || q->state > QPS_ERR || q->srq != ~0u))
			ret = EINVAL;
		else if (w.num_sge > q->recv_sge)
			ret = EINVAL;
		if (ret)
			resp.bad_wr = i + 1;
	}
	emu_resp_out(r, &resp, sizeof(resp));
	return ret;
}

/* POLL_CQ: up to ne completions after the response's count (a write()'s driver response, an
 * ioctl's CORE_OUT past the count), as many as the caller's buffer holds. */
static int poll_cq(struct emu_req *r)
{
	EMU_REQ(struct ib_uverbs_poll_cq, c);
	struct ib_uverbs_poll_cq_resp resp = { 0 };
	struct emu_obj *cq = emu_obj_get(r->ctx, UVERBS_OBJECT_CQ, c.cq_handle);
	bool in_core = r->out_len > sizeof(resp);
	uint8_t *wcs = in_core ? r->out + sizeof(resp) : r->uout;
	size_t room = (in_core ? r->out_len - sizeof(resp) : r->uout_len) / sizeof(struct ib_uverbs_wc);

	if (!cq)
		return EINVAL;
	while (resp.count < c.ne && resp.count < room && resp.count < cq->nwc)
		resp.count++;
	emu_resp_out(r, &resp, sizeof(resp)); /* (clears the rest of an ioctl's CORE_OUT) */
	memcpy(wcs, cq->wc, resp.count * sizeof(struct ib_uverbs_wc));
	cq->nwc -= resp.count;
	memmove(cq->wc, cq->wc + resp.count, cq->nwc * sizeof(cq->wc[0]));
	return 0;
}

/* The send_wr members the kernel reads (ib_uverbs_post_send): the union's for its QP type (UD: the
 * address handle, QP number and Q_Key) or opcode (RDMA: address and key; atomics: those and the
 * operands); ex for the opcodes with an immediate or an invalidation. The rest is zeroed. */
static void canon_send_wr(struct ib_uverbs_send_wr *w, bool ud)
{
	struct ib_uverbs_send_wr k;
	uint32_t op = w->opcode;

	memset(&k, 0, sizeof(k));
	k.wr_id = w->wr_id;
	k.num_sge = w->num_sge;
	k.opcode = op;
	k.send_flags = w->send_flags;
	if (op == IB_UVERBS_WR_SEND_WITH_IMM || op == IB_UVERBS_WR_RDMA_WRITE_WITH_IMM ||
	    op == IB_UVERBS_WR_SEND_WITH_INV)
		k.ex = w->ex;
	if (ud) {
		k.wr.ud.ah = w->wr.ud.ah;
		k.wr.ud.remote_qpn = w->wr.ud.remote_qpn;
		k.wr.ud.remote_qkey = w->wr.ud.remote_qkey;
	} else if (op == IB_UVERBS_WR_RDMA_WRITE || op == IB_UVERBS_WR_RDMA_WRITE_WITH_IMM ||
		   op == IB_UVERBS_WR_RDMA_READ) {
		k.wr.rdma.remote_addr = w->wr.rdma.remote_addr;
		k.wr.rdma.rkey = w->wr.rdma.rkey;
	} else if (op == IB_UVERBS_WR_ATOMIC_CMP_AND_SWP || op == IB_UVERBS_WR_ATOMIC_FETCH_AND_ADD) {
		k.wr.atomic = w->wr.atomic;
		k.wr.atomic.reserved = 0;
	}
	*w = k;
}

void emu_post_canon(const struct emu_req *r, uint32_t wcmd, uint8_t *buf, size_t len, bool with_fixed)
{
	/* post_send, post_recv and post_srq_recv share their fixed part's layout */
	struct ib_uverbs_post_recv f;
	bool send = wcmd == IB_USER_VERBS_CMD_POST_SEND;
	const struct emu_obj *qp;
	size_t wsize = send ? sizeof(struct ib_uverbs_send_wr) : sizeof(struct ib_uverbs_recv_wr);

	if (wcmd == IB_USER_VERBS_CMD_POLL_CQ)
		return;
	if (with_fixed) {
		if (len <= sizeof(f))
			return;
		memcpy(&f, buf, sizeof(f));
		buf += sizeof(f);
		len -= sizeof(f);
	} else {
		if (r->in_len < sizeof(f))
			return;
		memcpy(&f, r->in, sizeof(f));
	}
	if (f.wqe_size < wsize)
		return;
	qp = send ? emu_obj_get(r->ctx, UVERBS_OBJECT_QP, f.qp_handle) : NULL;
	for (uint32_t i = 0; i < f.wr_count && (size_t)(i + 1) * f.wqe_size <= len; i++) {
		uint8_t *w = buf + (size_t)i * f.wqe_size;

		if (send) {
			struct ib_uverbs_send_wr s;

			memcpy(&s, w, sizeof(s));
			canon_send_wr(&s, qp && qp->qp_type == IB_UVERBS_QPT_UD);
			memcpy(w, &s, sizeof(s));
		} else {
			memset(w + offsetof(struct ib_uverbs_recv_wr, reserved), 0, sizeof(uint32_t));
		}
		memset(w + wsize, 0, f.wqe_size - wsize);
	}
}

int emu_post_write(struct emu_req *r)
{
	switch (r->wcmd) {
	case IB_USER_VERBS_CMD_POST_SEND:
		return post_send(r);
	case IB_USER_VERBS_CMD_POST_RECV:
		return post_recv(r, UVERBS_OBJECT_QP);
	case IB_USER_VERBS_CMD_POST_SRQ_RECV:
		return post_recv(r, UVERBS_OBJECT_SRQ);
	default:
		return poll_cq(r);
	}
}
