/* The inline layer of verbs.h on rxe0: the static inline verbs and redirecting macros a program
 * compiles into itself (tests/vm/headers.txt).
 *
 * Built twice: against the system's rdma-core 44 headers ($REF/inline_verbs, by tests/vm/run)
 * and against the headers `make install` puts in a prefix ($HDR/inline_verbs, by
 * tests/clients/run). Both run under the system libibverbs and under ours, and under ours with
 * sid's ABI-65 rxe; for each library and provider the two builds must print the same, so our
 * inlines pick the same op slots, take the same fallbacks and give the same errno as rdma-core's.
 *
 * Covered: which verbs_context ops a context has (verbs_get_ctx_op), ibv_query_device_ex (and its
 * EINVAL), the ibv_query_port macro (extended attributes), ibv_query_gid_ex/_table,
 * ibv_query_rt_values_ex, the ibv_reg_mr/ibv_reg_mr_iova macros with constant, optional and
 * run-time access flags, memory windows (ibv_alloc_mw, ibv_bind_mw's EINVAL/EPERM checks and a
 * real bind, ibv_inc_rkey, ibv_dealloc_mw), the extended CQ (ibv_create_cq_ex, ibv_start_poll/
 * next_poll/end_poll and every ibv_wc_read_* rxe fills), the extended QP's work-request builder
 * (ibv_wr_start, send/send_imm/rdma_write/write_imm/read/atomics with sge, sge lists and inline
 * data, ibv_wr_complete, ibv_wr_abort) over a loopback RC pair, ibv_post_send/recv/srq_recv,
 * ibv_poll_cq/req_notify_cq, ibv_create_srq_ex/qp_ex on their ibv_create_srq/qp short cuts,
 * and every verbs_context verb rxe lacks (the missing-op errno). Never prints pointers, keys,
 * QP numbers or timestamps: only whether they are what they should be. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <infiniband/verbs.h>

static struct ibv_context *ctx;
static struct ibv_pd *pd, *pd2;
static union ibv_gid gid;

static const char *en(int e)
{
	const char *s = e ? strerrorname_np(e) : "0";

	return s ? s : "?";
}

static void die(const char *what)
{
	printf("setup: %s failed: errno %s\n", what, en(errno));
	exit(1);
}

/* A verb returning 0 or an errno (errno shown too, for verbs that also set it). */
static void rc(const char *what, int ret, int err)
{
	if (ret)
		printf("%-48s ret %d (%s) errno %s\n", what, ret, ret > 0 ? en(ret) : "-", en(err));
	else
		printf("%-48s ret 0\n", what);
}

#define RC(what, call) do { errno = 0; int r_ = (call); rc(what, r_, errno); } while (0)

/* A verb returning an object: "ok", or NULL and errno. */
static int obj(const char *what, const void *p, int err)
{
	if (p)
		printf("%-48s ok\n", what);
	else
		printf("%-48s NULL errno %s\n", what, en(err));
	return p != NULL;
}

#define OBJ(var, what, call) do { errno = 0; (var) = (call); obj(what, (var), errno); } while (0)

static uint64_t get64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static void put64(void *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void pure_helpers(void)
{
	static const uint32_t rkeys[] = { 0, 0x12345600, 0x123456fe, 0x123456ff, 0xffffffff };
	static const uint32_t labels[] = { 0, 1, 0x3fff, 0x4000, 0xfc000, 0xfffff, 0x12345, 0xabcde };

	printf("== pure helpers\n");
	for (unsigned i = 0; i < sizeof(rkeys) / sizeof(rkeys[0]); i++)
		printf("ibv_inc_rkey(%#x) = %#x\n", rkeys[i], ibv_inc_rkey(rkeys[i]));
	for (unsigned i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		printf("ibv_flow_label_to_udp_sport(%#x) = %#x\n", labels[i],
		       ibv_flow_label_to_udp_sport(labels[i]));
	for (int t = 0; t < 32; t += 3)
		printf("ibv_is_qpt_supported(0x8a5, %d) = %d, (0xffffffff, %d) = %d\n", t,
		       ibv_is_qpt_supported(0x8a5, (enum ibv_qp_type)t), t,
		       ibv_is_qpt_supported(0xffffffff, (enum ibv_qp_type)t));
}

/* Which verbs_context ops the context offers to the inline verbs. */
#define HAS(op) printf("verbs_get_ctx_op %-36s %s\n", #op, verbs_get_ctx_op(ctx, op) ? "yes" : "no")

static void context_ops(void)
{
	printf("== verbs_context\n");
	printf("verbs_get_ctx %s\n", verbs_get_ctx(ctx) ? "extended" : "NULL");
	HAS(query_port); HAS(advise_mr); HAS(alloc_null_mr); HAS(read_counters);
	HAS(attach_counters_point_flow); HAS(create_counters); HAS(destroy_counters);
	HAS(reg_dm_mr); HAS(alloc_dm); HAS(free_dm); HAS(modify_flow_action_esp);
	HAS(destroy_flow_action); HAS(create_flow_action_esp); HAS(modify_qp_rate_limit);
	HAS(alloc_parent_domain); HAS(dealloc_td); HAS(alloc_td); HAS(modify_cq);
	HAS(post_srq_ops); HAS(destroy_rwq_ind_table); HAS(create_rwq_ind_table);
	HAS(destroy_wq); HAS(modify_wq); HAS(create_wq); HAS(query_rt_values); HAS(create_cq_ex);
	HAS(query_device_ex); HAS(ibv_destroy_flow); HAS(ibv_create_flow); HAS(open_qp);
	HAS(create_qp_ex); HAS(get_srq_num); HAS(create_srq_ex); HAS(open_xrcd); HAS(close_xrcd);
	printf("vext_field_avail(ibv_device_attr_ex, max_dm_size, 300) = %d\n",
	       (int)vext_field_avail(struct ibv_device_attr_ex, max_dm_size, 300));
}

static void queries(void)
{
	struct ibv_query_device_ex_input in = { .comp_mask = 1 };
	struct ibv_device_attr_ex ax;
	struct ibv_port_attr pa;
	struct ibv_gid_entry ge[64];
	struct ibv_values_ex v = { .comp_mask = IBV_VALUES_MASK_RAW_CLOCK };
	ssize_t n;

	printf("== queries\n");
	memset(&ax, 0xee, sizeof(ax));
	RC("query_device_ex input->comp_mask 1", ibv_query_device_ex(ctx, &in, &ax));
	RC("query_device_ex", ibv_query_device_ex(ctx, NULL, &ax));
	printf("  max_qp %d max_cqe %d max_mr_size %#llx caps %#x caps_ex %#llx comp_mask %#x\n",
	       ax.orig_attr.max_qp, ax.orig_attr.max_cqe,
	       (unsigned long long)ax.orig_attr.max_mr_size, ax.orig_attr.device_cap_flags,
	       (unsigned long long)ax.device_cap_flags_ex, ax.comp_mask);
	printf("  odp %#llx raw_packet_caps %#x max_dm_size %llu phys_port_cnt_ex %u ts_mask %#llx\n",
	       (unsigned long long)ax.odp_caps.general_caps, ax.raw_packet_caps,
	       (unsigned long long)ax.max_dm_size, ax.phys_port_cnt_ex,
	       (unsigned long long)ax.completion_timestamp_mask);
	in.comp_mask = 0;
	RC("query_device_ex input->comp_mask 0", ibv_query_device_ex(ctx, &in, &ax));

	memset(&pa, 0xee, sizeof(pa));
	RC("query_port 1 (macro)", ibv_query_port(ctx, 1, &pa));
	printf("  state %d mtu %d/%d gid_tbl %d caps %#x lid %u lmc %u width %u speed %u phys %u "
	       "link_layer %u flags %u caps2 %#x\n", pa.state, pa.max_mtu,
	       pa.active_mtu, pa.gid_tbl_len, pa.port_cap_flags, pa.lid, pa.lmc, pa.active_width,
	       pa.active_speed, pa.phys_state, pa.link_layer, pa.flags, pa.port_cap_flags2);
	RC("query_port 0 (macro)", ibv_query_port(ctx, 0, &pa));
	RC("query_port 9 (macro)", ibv_query_port(ctx, 9, &pa));

	for (uint32_t i = 0; i < 3; i++) {
		char name[64];

		memset(ge, 0, sizeof(ge[0]));
		snprintf(name, sizeof(name), "query_gid_ex port 1 index %u", i);
		RC(name, ibv_query_gid_ex(ctx, 1, i, &ge[0], 0));
		printf("  index %u port %u type %u ifindex %s\n", ge[0].gid_index, ge[0].port_num,
		       ge[0].gid_type, ge[0].ndev_ifindex ? "set" : "0");
	}
	RC("query_gid_ex port 1 index 9999", ibv_query_gid_ex(ctx, 1, 9999, &ge[0], 0));
	RC("query_gid_ex port 1 flags 1", ibv_query_gid_ex(ctx, 1, 0, &ge[0], 1));
	errno = 0;
	n = ibv_query_gid_table(ctx, ge, 64, 0);
	printf("%-48s %zd errno %s\n", "query_gid_table 64", n, n < 0 ? en(errno) : "-");
	for (ssize_t i = 0; i < n; i++)
		printf("  [%zd] index %u port %u type %u\n", i, ge[i].gid_index, ge[i].port_num,
		       ge[i].gid_type);
	errno = 0;
	n = ibv_query_gid_table(ctx, ge, 1, 0);
	printf("%-48s %zd errno %s\n", "query_gid_table 1", n, n < 0 ? en(errno) : "-");
	RC("query_rt_values_ex", ibv_query_rt_values_ex(ctx, &v));
}

static void memory(void)
{
	static char buf[16384] __attribute__((aligned(4096)));
	struct ibv_mr *mr;
	volatile unsigned int run_time = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ;

	printf("== ibv_reg_mr / ibv_reg_mr_iova macros\n");
	OBJ(mr, "reg_mr LOCAL_WRITE (constant)", ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE));
	if (mr) {
		printf("  length %zu addr %s\n", mr->length, mr->addr == buf ? "buf" : "?");
		RC("dereg_mr", ibv_dereg_mr(mr));
	}
	OBJ(mr, "reg_mr LOCAL_WRITE|RELAXED_ORDERING",
	    ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING));
	if (mr)
		RC("dereg_mr", ibv_dereg_mr(mr));
	OBJ(mr, "reg_mr run-time flags", ibv_reg_mr(pd, buf, sizeof(buf), run_time));
	if (mr)
		RC("dereg_mr", ibv_dereg_mr(mr));
	OBJ(mr, "reg_mr REMOTE_WRITE alone (EINVAL)", ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_REMOTE_WRITE));
	if (mr)
		RC("dereg_mr", ibv_dereg_mr(mr));
	OBJ(mr, "reg_mr_iova 0x10000 LOCAL_WRITE",
	    ibv_reg_mr_iova(pd, buf, sizeof(buf), 0x10000, IBV_ACCESS_LOCAL_WRITE));
	if (mr) {
		printf("  length %zu\n", mr->length);
		RC("dereg_mr", ibv_dereg_mr(mr));
	}
	OBJ(mr, "reg_mr_iova RELAXED_ORDERING",
	    ibv_reg_mr_iova(pd, buf, sizeof(buf), 0x10000,
			    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING));
	if (mr)
		RC("dereg_mr", ibv_dereg_mr(mr));
	OBJ(mr, "reg_mr_iova run-time flags", ibv_reg_mr_iova(pd, buf, sizeof(buf), 0, run_time));
	if (mr)
		RC("dereg_mr", ibv_dereg_mr(mr));
}

/* Verbs whose op rxe does not give: the inline's missing-op answer (or, where a library gives a
 * default op, that op's answer). Objects created anyway are destroyed. */
static void missing_ops(struct ibv_qp *qp, struct ibv_cq *cq)
{
	struct ibv_xrcd_init_attr xa = { .comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS,
					 .fd = -1, .oflags = 0 };
	struct ibv_td_init_attr ta = { 0 };
	struct ibv_parent_domain_init_attr pda = { .pd = pd };
	struct ibv_wq_init_attr wa = { .wq_type = IBV_WQT_RQ, .max_wr = 8, .max_sge = 1, .pd = pd,
				       .cq = cq };
	struct ibv_rwq_ind_table_init_attr ria = { .log_ind_tbl_size = 0 };
	struct ibv_flow_attr fa = { .size = sizeof(fa), .port = 1 };
	struct ibv_flow_action_esp_attr ea = { .esp_attr = NULL };
	struct ibv_counters_init_attr ca = { 0 };
	struct ibv_alloc_dm_attr da = { .length = 4096 };
	struct ibv_qp_open_attr oa = { .comp_mask = IBV_QP_OPEN_ATTR_NUM, .qp_num = qp->qp_num };
	struct ibv_qp_rate_limit_attr rl = { .rate_limit = 1000 };
	struct ibv_modify_cq_attr mca = { .attr_mask = IBV_CQ_ATTR_MODERATE,
					  .moderate = { .cq_count = 1, .cq_period = 1 } };
	struct ibv_sge sge = { .addr = 0, .length = 0, .lkey = 0 };
	struct ibv_xrcd *xrcd;
	struct ibv_td *td;
	struct ibv_pd *ppd;
	struct ibv_wq *wq;
	struct ibv_rwq_ind_table *rit;
	struct ibv_flow *flow;
	struct ibv_flow_action *fact;
	struct ibv_counters *cnt;
	struct ibv_dm *dm;
	struct ibv_mr *mr;
	struct ibv_qp *oqp;

	printf("== verbs rxe has no op for\n");
	OBJ(xrcd, "open_xrcd", ibv_open_xrcd(ctx, &xa));
	if (xrcd)
		RC("close_xrcd", ibv_close_xrcd(xrcd));
	OBJ(td, "alloc_td", ibv_alloc_td(ctx, &ta));
	if (td)
		RC("dealloc_td", ibv_dealloc_td(td));
	OBJ(ppd, "alloc_parent_domain", ibv_alloc_parent_domain(ctx, &pda));
	if (ppd)
		RC("dealloc_pd (parent domain)", ibv_dealloc_pd(ppd));
	OBJ(wq, "create_wq", ibv_create_wq(ctx, &wa));
	if (wq) {
		struct ibv_wq_attr wqa = { .attr_mask = IBV_WQ_ATTR_STATE, .wq_state = IBV_WQS_RDY };

		RC("modify_wq", ibv_modify_wq(wq, &wqa));
		RC("destroy_wq", ibv_destroy_wq(wq));
	}
	OBJ(rit, "create_rwq_ind_table", ibv_create_rwq_ind_table(ctx, &ria));
	if (rit)
		RC("destroy_rwq_ind_table", ibv_destroy_rwq_ind_table(rit));
	OBJ(flow, "create_flow", ibv_create_flow(qp, &fa));
	if (flow)
		RC("destroy_flow", ibv_destroy_flow(flow));
	OBJ(fact, "create_flow_action_esp", ibv_create_flow_action_esp(ctx, &ea));
	if (fact)
		RC("destroy_flow_action", ibv_destroy_flow_action(fact));
	OBJ(cnt, "create_counters", ibv_create_counters(ctx, &ca));
	if (cnt)
		RC("destroy_counters", ibv_destroy_counters(cnt));
	OBJ(dm, "alloc_dm 4096", ibv_alloc_dm(ctx, &da));
	if (dm) {
		OBJ(mr, "reg_dm_mr", ibv_reg_dm_mr(pd, dm, 0, 4096, IBV_ACCESS_ZERO_BASED));
		if (mr)
			RC("dereg_mr", ibv_dereg_mr(mr));
		RC("free_dm", ibv_free_dm(dm));
	}
	RC("advise_mr PREFETCH (no sge)", ibv_advise_mr(pd, IBV_ADVISE_MR_ADVICE_PREFETCH, 0, &sge, 0));
	OBJ(mr, "alloc_null_mr", ibv_alloc_null_mr(pd));
	if (mr)
		RC("dereg_mr (null mr)", ibv_dereg_mr(mr));
	OBJ(oqp, "open_qp", ibv_open_qp(ctx, &oa));
	if (oqp)
		RC("destroy_qp (opened)", ibv_destroy_qp(oqp));
	RC("modify_qp_rate_limit", ibv_modify_qp_rate_limit(qp, &rl));
	RC("modify_cq", ibv_modify_cq(cq, &mca));
}

static struct ibv_qp *rc_qp(struct ibv_cq_ex *scq, struct ibv_cq *rcq, struct ibv_srq *srq, int ex)
{
	struct ibv_qp_init_attr_ex a = {
		.send_cq = ibv_cq_ex_to_cq(scq), .recv_cq = rcq, .srq = srq,
		.cap = { .max_send_wr = 32, .max_recv_wr = srq ? 0 : 32, .max_send_sge = 4,
			 .max_recv_sge = 4, .max_inline_data = 64 },
		.qp_type = IBV_QPT_RC, .sq_sig_all = 0, .pd = pd,
		.comp_mask = IBV_QP_INIT_ATTR_PD,
	};

	if (ex) {
		a.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
		a.send_ops_flags = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_SEND_WITH_IMM |
				   IBV_QP_EX_WITH_RDMA_WRITE | IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM |
				   IBV_QP_EX_WITH_RDMA_READ | IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP |
				   IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD | IBV_QP_EX_WITH_LOCAL_INV |
				   IBV_QP_EX_WITH_BIND_MW | IBV_QP_EX_WITH_SEND_WITH_INV;
	}
	return ibv_create_qp_ex(ctx, &a);
}

static int modify(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask)
{
	int ret = ibv_modify_qp(qp, a, mask);

	if (ret)
		printf("modify_qp to %d: ret %d\n", a->qp_state, ret);
	return ret;
}

static int connect_rc(struct ibv_qp *qp, uint32_t dest)
{
	struct ibv_qp_attr init = { .qp_state = IBV_QPS_INIT, .port_num = 1,
				    .qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
						       IBV_ACCESS_REMOTE_ATOMIC };
	struct ibv_qp_attr rtr = {
		.qp_state = IBV_QPS_RTR, .path_mtu = IBV_MTU_1024, .dest_qp_num = dest,
		.rq_psn = 7, .max_dest_rd_atomic = 4, .min_rnr_timer = 12,
		.ah_attr = { .is_global = 1, .port_num = 1,
			     .grh = { .dgid = gid, .sgid_index = 1, .hop_limit = 64 } },
	};
	struct ibv_qp_attr rts = { .qp_state = IBV_QPS_RTS, .timeout = 14, .retry_cnt = 7,
				   .rnr_retry = 7, .sq_psn = 7, .max_rd_atomic = 4 };

	return modify(qp, &init, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS) ||
	       modify(qp, &rtr, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
				 IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER) ||
	       modify(qp, &rts, IBV_QP_STATE | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				 IBV_QP_SQ_PSN | IBV_QP_MAX_QP_RD_ATOMIC);
}

/* Prints the completion an extended CQ's poll cursor is on, through every ibv_wc_read_* rxe
 * fills. */
static void show_ex(const char *what, struct ibv_cq_ex *cq, uint32_t qpn)
{
	unsigned flags = ibv_wc_read_wc_flags(cq);

	printf("  %s: wr_id %llu status %s opcode %d vendor_err %u qp %s flags %#x", what,
	       (unsigned long long)cq->wr_id, ibv_wc_status_str(cq->status),
	       (int)ibv_wc_read_opcode(cq), ibv_wc_read_vendor_err(cq),
	       ibv_wc_read_qp_num(cq) == qpn ? "ok" : "?", flags);
	if (ibv_wc_read_opcode(cq) & IBV_WC_RECV) {
		printf(" len %u src_qp %s slid %u sl %u path_bits %u", ibv_wc_read_byte_len(cq),
		       ibv_wc_read_src_qp(cq) ? "set" : "0", ibv_wc_read_slid(cq), ibv_wc_read_sl(cq),
		       ibv_wc_read_dlid_path_bits(cq));
		if (flags & IBV_WC_WITH_IMM)
			printf(" imm %#x", ntohl(ibv_wc_read_imm_data(cq)));
		if (flags & IBV_WC_WITH_INV)
			printf(" inv_rkey %s", ibv_wc_read_invalidated_rkey(cq) ? "set" : "0");
	}
	printf("\n");
}

/* Starts a poll of an extended CQ, waiting up to ~5 s for a completion. */
static int start_poll_wait(struct ibv_cq_ex *cq)
{
	struct ibv_poll_cq_attr pa = { .comp_mask = 0 };
	int ret = ENOENT;

	for (int tries = 0; ret == ENOENT && tries < 5000; tries++) {
		ret = ibv_start_poll(cq, &pa);
		if (ret == ENOENT)
			usleep(1000);
	}
	return ret;
}

/* Takes `want` completions off an extended CQ one poll at a time (ibv_start_poll, the reads,
 * ibv_end_poll). ibv_next_poll is exercised by next_poll_batch only, where the completions are
 * known to be there: Debian 12's rxe (rdma-core 44) mis-counts when ibv_next_poll finds the CQ
 * empty before ibv_end_poll, which would make the output depend on timing. */
static void drain_ex(const char *what, struct ibv_cq_ex *cq, int want, uint32_t qpn)
{
	for (int got = 0; got < want; got++) {
		int ret = start_poll_wait(cq);

		if (ret) {
			printf("  %s: start_poll ret %d after %d of %d completions\n", what, ret, got, want);
			return;
		}
		show_ex(what, cq, qpn);
		ibv_end_poll(cq);
	}
}

/* Drains `want` completions of a plain CQ with ibv_poll_cq. */
static void drain(const char *what, struct ibv_cq *cq, int want)
{
	struct ibv_wc wc[8];
	int got = 0;

	for (int tries = 0; got < want && tries < 3000; tries++) {
		int n = ibv_poll_cq(cq, 8, wc);

		if (n < 0) {
			printf("  %s: poll_cq %d\n", what, n);
			return;
		}
		if (!n)
			usleep(1000);
		for (int i = 0; i < n; i++, got++) {
			printf("  %s: wr_id %llu status %s opcode %d len %u flags %#x", what,
			       (unsigned long long)wc[i].wr_id, ibv_wc_status_str(wc[i].status),
			       wc[i].opcode, wc[i].byte_len, wc[i].wc_flags);
			if (wc[i].wc_flags & IBV_WC_WITH_IMM)
				printf(" imm %#x", ntohl(wc[i].imm_data));
			printf("\n");
		}
	}
	if (got < want)
		printf("  %s: %d of %d completions\n", what, got, want);
}

static void traffic(void)
{
	static char a_buf[8192] __attribute__((aligned(4096)));
	static char b_buf[8192] __attribute__((aligned(4096)));
	struct ibv_cq_init_attr_ex cqa = {
		.cqe = 64, .comp_mask = 0,
		.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_IMM | IBV_WC_EX_WITH_QP_NUM |
			    IBV_WC_EX_WITH_SRC_QP | IBV_WC_EX_WITH_SLID | IBV_WC_EX_WITH_SL |
			    IBV_WC_EX_WITH_DLID_PATH_BITS,
	};
	struct ibv_srq_init_attr_ex sxa = { .attr = { .max_wr = 16, .max_sge = 2 },
					    .comp_mask = IBV_SRQ_INIT_ATTR_PD, .pd = pd };
	struct ibv_cq_ex *acq, *bcq_ex;
	struct ibv_cq *bcq;
	struct ibv_srq *srq;
	struct ibv_qp *a, *b;
	struct ibv_qp_ex *ax;
	struct ibv_mr *amr, *bmr;
	struct ibv_mw *mw1, *mw2;
	uint32_t srq_num = 0;

	printf("== extended CQ and QP, loopback RC\n");
	OBJ(acq, "create_cq_ex (wc_flags)", ibv_create_cq_ex(ctx, &cqa));
	cqa.wc_flags |= IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	OBJ(bcq_ex, "create_cq_ex with COMPLETION_TIMESTAMP", ibv_create_cq_ex(ctx, &cqa));
	if (bcq_ex)
		RC("destroy_cq (ex)", ibv_destroy_cq(ibv_cq_ex_to_cq(bcq_ex)));
	cqa.wc_flags &= ~(uint64_t)IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
	OBJ(bcq_ex, "create_cq_ex (peer)", ibv_create_cq_ex(ctx, &cqa));
	if (!acq || !bcq_ex)
		die("create_cq_ex");
	bcq = ibv_cq_ex_to_cq(bcq_ex);
	printf("cq_ex_to_cq %s\n", (void *)bcq == (void *)bcq_ex ? "same object" : "other");
	{
		struct ibv_poll_cq_attr pa = { 0 };

		RC("start_poll (empty)", ibv_start_poll(acq, &pa));
	}
	RC("req_notify_cq", ibv_req_notify_cq(bcq, 0));
	RC("req_notify_cq solicited", ibv_req_notify_cq(bcq, 1));

	OBJ(srq, "create_srq_ex PD only (-> create_srq)", ibv_create_srq_ex(ctx, &sxa));
	sxa.comp_mask = IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE;
	sxa.srq_type = IBV_SRQT_BASIC;
	{
		struct ibv_srq *s2;

		OBJ(s2, "create_srq_ex PD|TYPE basic", ibv_create_srq_ex(ctx, &sxa));
		if (s2)
			RC("destroy_srq", ibv_destroy_srq(s2));
		sxa.srq_type = IBV_SRQT_XRC;
		sxa.comp_mask |= IBV_SRQ_INIT_ATTR_CQ;
		sxa.cq = bcq;
		OBJ(s2, "create_srq_ex XRC", ibv_create_srq_ex(ctx, &sxa));
		if (s2)
			RC("destroy_srq", ibv_destroy_srq(s2));
	}
	if (!srq)
		die("create_srq_ex");
	RC("get_srq_num (basic SRQ)", ibv_get_srq_num(srq, &srq_num));
	{
		struct ibv_ops_wr op = { .wr_id = 1, .opcode = IBV_WR_TAG_ADD }, *bad = NULL;

		RC("post_srq_ops", ibv_post_srq_ops(srq, &op, &bad));
		printf("  bad_op %s\n", bad == &op ? "the op" : bad ? "other" : "NULL");
	}

	OBJ(a, "create_qp_ex PD|SEND_OPS_FLAGS", rc_qp(acq, ibv_cq_ex_to_cq(acq), NULL, 1));
	OBJ(b, "create_qp_ex PD only (-> create_qp), SRQ", rc_qp(bcq_ex, bcq, srq, 0));
	if (!a || !b)
		die("create QPs");
	ax = ibv_qp_to_qp_ex(a);
	if (!ax)
		die("ibv_qp_to_qp_ex");
	if (connect_rc(a, b->qp_num) || connect_rc(b, a->qp_num))
		die("connect");
	amr = ibv_reg_mr(pd, a_buf, sizeof(a_buf), IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_MW_BIND);
	bmr = ibv_reg_mr(pd, b_buf, sizeof(b_buf), IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE |
			 IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_ATOMIC | IBV_ACCESS_MW_BIND);
	if (!amr || !bmr)
		die("reg_mr");

	/* receives: 4 on the SRQ (send, send_imm, write_imm, inline send) */
	for (int i = 0; i < 4; i++) {
		struct ibv_sge s = { .addr = (uintptr_t)b_buf + 1024 * i, .length = 1024,
				     .lkey = bmr->lkey };
		struct ibv_recv_wr r = { .wr_id = 100 + i, .sg_list = &s, .num_sge = 1 }, *bad;

		RC("post_srq_recv", ibv_post_srq_recv(srq, &r, &bad));
	}

	strcpy(a_buf, "through ibv_wr_send");
	strcpy(a_buf + 512, "second");
	strcpy(a_buf + 600, "+list");
	memset(b_buf + 4096, 0, 64);
	put64(b_buf + 4096, 5);	/* the atomics' target */
	strcpy(b_buf + 4200, "read back");

	ibv_wr_start(ax);
	ax->wr_id = 1;
	ax->wr_flags = IBV_SEND_SIGNALED;
	ibv_wr_send(ax);
	ibv_wr_set_sge(ax, amr->lkey, (uintptr_t)a_buf, 32);

	/* (sge lists of equal lengths: Debian 12's rxe sums the first length num_sge times) */
	ax->wr_id = 2;
	ibv_wr_send_imm(ax, htonl(0x1234));
	{
		struct ibv_sge list[2] = {
			{ .addr = (uintptr_t)a_buf + 512, .length = 6, .lkey = amr->lkey },
			{ .addr = (uintptr_t)a_buf + 600, .length = 6, .lkey = amr->lkey },
		};

		ibv_wr_set_sge_list(ax, 2, list);
	}

	ax->wr_id = 3;
	ibv_wr_rdma_write(ax, bmr->rkey, (uintptr_t)b_buf + 5000);
	ibv_wr_set_sge(ax, amr->lkey, (uintptr_t)a_buf, 20);

	ax->wr_id = 4;
	ibv_wr_rdma_write_imm(ax, bmr->rkey, (uintptr_t)b_buf + 6000, htonl(0xabcd));
	ibv_wr_set_sge(ax, amr->lkey, (uintptr_t)a_buf + 512, 7);

	ax->wr_id = 5;
	ibv_wr_rdma_read(ax, bmr->rkey, (uintptr_t)b_buf + 4200);
	ibv_wr_set_sge(ax, amr->lkey, (uintptr_t)a_buf + 2048, 10);

	ax->wr_id = 6;
	ibv_wr_atomic_cmp_swp(ax, bmr->rkey, (uintptr_t)b_buf + 4096, 5, 9);
	ibv_wr_set_sge(ax, amr->lkey, (uintptr_t)a_buf + 3000, 8);

	ax->wr_id = 7;
	ibv_wr_atomic_fetch_add(ax, bmr->rkey, (uintptr_t)b_buf + 4096, 3);
	ibv_wr_set_sge(ax, amr->lkey, (uintptr_t)a_buf + 3008, 8);

	ax->wr_id = 8;
	ax->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	ibv_wr_send(ax);
	ibv_wr_set_inline_data(ax, (void *)"inline", 7);
	RC("wr_complete (8 requests)", ibv_wr_complete(ax));
	drain("recv cq", bcq, 4);
	drain_ex("send cq", acq, 8, a->qp_num);
	printf("  recv data: \"%s\" \"%s\" \"%.7s\" \"%s\"\n", b_buf, b_buf + 1024, b_buf + 6000,
	       b_buf + 3072);
	printf("  written: \"%s\" read: \"%s\" atomic: old %llu, %llu, now %llu\n", b_buf + 5000,
	       a_buf + 2048, (unsigned long long)get64(a_buf + 3000),
	       (unsigned long long)get64(a_buf + 3008), (unsigned long long)get64(b_buf + 4096));

	/* ibv_wr_abort drops what was built since ibv_wr_start (Debian 12's rxe gives an inline
	 * data list length 0, so the list goes only into the aborted request) */
	ibv_wr_start(ax);
	ax->wr_id = 9;
	ax->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
	ibv_wr_rdma_write(ax, bmr->rkey, (uintptr_t)b_buf + 7000);
	{
		struct ibv_data_buf parts[2] = { { .addr = (void *)"abo", .length = 3 },
						 { .addr = (void *)"rted", .length = 5 } };

		ibv_wr_set_inline_data_list(ax, 2, parts);
	}
	ibv_wr_abort(ax);
	ibv_wr_start(ax);
	ax->wr_id = 10;
	ibv_wr_rdma_write(ax, bmr->rkey, (uintptr_t)b_buf + 7100);
	ibv_wr_set_inline_data(ax, (void *)"kept", 5);
	RC("wr_complete after wr_abort", ibv_wr_complete(ax));
	drain_ex("send cq", acq, 1, a->qp_num);
	printf("  at 7000 \"%s\" at 7100 \"%s\"\n", b_buf + 7000, b_buf + 7100);

	/* ibv_next_poll over three completions known to be there: their receives arrived, and
	 * the sender had a further half second for the acknowledgements */
	for (int i = 0; i < 3; i++) {
		struct ibv_sge s = { .addr = (uintptr_t)b_buf + 1024 * i, .length = 1024,
				     .lkey = bmr->lkey };
		struct ibv_recv_wr r = { .wr_id = 110 + i, .sg_list = &s, .num_sge = 1 }, *bad;

		RC("post_srq_recv", ibv_post_srq_recv(srq, &r, &bad));
	}
	ibv_wr_start(ax);
	for (int i = 0; i < 3; i++) {
		ax->wr_id = 40 + i;
		ax->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_send(ax);
		ibv_wr_set_sge(ax, amr->lkey, (uintptr_t)a_buf, 4);
	}
	RC("wr_complete (3 sends)", ibv_wr_complete(ax));
	drain("recv cq", bcq, 3);
	usleep(500000);
	if (start_poll_wait(acq) == 0) {
		int ret = 0;

		show_ex("start_poll", acq, a->qp_num);
		for (int i = 1; i < 3 && !ret; i++) {
			ret = ibv_next_poll(acq);
			if (ret)
				printf("  next_poll ret %d\n", ret);
			else
				show_ex("next_poll", acq, a->qp_num);
		}
		ibv_end_poll(acq);
	} else {
		printf("  start_poll: no completion\n");
	}
	{
		struct ibv_poll_cq_attr pa = { 0 };

		RC("start_poll (drained)", ibv_start_poll(acq, &pa));
	}

	/* the plain post verbs on the same pair */
	{
		struct ibv_sge s = { .addr = (uintptr_t)a_buf, .length = 8, .lkey = amr->lkey };
		struct ibv_send_wr w = { .wr_id = 11, .sg_list = &s, .num_sge = 1,
					 .opcode = IBV_WR_SEND_WITH_IMM, .send_flags = IBV_SEND_SIGNALED,
					 .imm_data = htonl(77) }, *bad;
		struct ibv_sge rs = { .addr = (uintptr_t)b_buf, .length = 64, .lkey = bmr->lkey };
		struct ibv_recv_wr r = { .wr_id = 104, .sg_list = &rs, .num_sge = 1 }, *rbad;
		struct ibv_recv_wr ar = { .wr_id = 5, .sg_list = &rs, .num_sge = 1 };

		RC("post_recv on a QP with an SRQ", ibv_post_recv(b, &ar, &rbad));
		RC("post_srq_recv", ibv_post_srq_recv(srq, &r, &rbad));
		RC("post_send SEND_WITH_IMM", ibv_post_send(a, &w, &bad));
		drain_ex("send cq", acq, 1, a->qp_num);
		drain("recv cq", bcq, 1);
	}

	/* memory windows */
	printf("== memory windows\n");
	OBJ(mw1, "alloc_mw type 1", ibv_alloc_mw(pd, IBV_MW_TYPE_1));
	OBJ(mw2, "alloc_mw type 2", ibv_alloc_mw(pd, IBV_MW_TYPE_2));
	if (mw1) {
		struct ibv_mw_bind bind = { .wr_id = 20, .send_flags = IBV_SEND_SIGNALED,
					    .bind_info = { .mr = bmr, .addr = (uintptr_t)b_buf,
							   .length = 4096,
							   .mw_access_flags = IBV_ACCESS_REMOTE_READ } };
		struct ibv_mr *other = ibv_reg_mr(pd2, b_buf, 4096, IBV_ACCESS_LOCAL_WRITE);
		uint32_t before = mw1->rkey;

		bind.bind_info.mr = NULL;
		RC("bind_mw type 1, no MR but a range", ibv_bind_mw(a, mw1, &bind));
		bind.bind_info.mr = other;
		RC("bind_mw type 1, MR of another PD", ibv_bind_mw(a, mw1, &bind));
		bind.bind_info.mr = bmr;
		RC("bind_mw type 1", ibv_bind_mw(a, mw1, &bind));
		drain_ex("send cq", acq, 1, a->qp_num);
		printf("  rkey %s\n", mw1->rkey == before ? "unchanged" : "changed");
		if (other)
			ibv_dereg_mr(other);
	}
	if (mw2) {
		struct ibv_mw_bind bind = { .bind_info = { .mr = bmr } };

		RC("bind_mw type 2 (EINVAL)", ibv_bind_mw(a, mw2, &bind));
		ibv_wr_start(ax);
		ax->wr_id = 21;
		ax->wr_flags = IBV_SEND_SIGNALED;
		{
			struct ibv_mw_bind_info bi = { .mr = amr, .addr = (uintptr_t)a_buf,
						       .length = 4096,
						       .mw_access_flags = IBV_ACCESS_REMOTE_WRITE };

			ibv_wr_bind_mw(ax, mw2, ibv_inc_rkey(mw2->rkey), &bi);
		}
		RC("wr_complete (wr_bind_mw type 2)", ibv_wr_complete(ax));
		drain_ex("send cq", acq, 1, a->qp_num);
		ibv_wr_start(ax);
		ax->wr_id = 22;
		ibv_wr_local_inv(ax, ibv_inc_rkey(mw2->rkey));
		RC("wr_complete (wr_local_inv)", ibv_wr_complete(ax));
		drain_ex("send cq", acq, 1, a->qp_num);
		RC("dealloc_mw type 2", ibv_dealloc_mw(mw2));
	}
	if (mw1)
		RC("dealloc_mw type 1", ibv_dealloc_mw(mw1));

	missing_ops(a, bcq);

	RC("destroy_qp a", ibv_destroy_qp(a));
	RC("destroy_qp b", ibv_destroy_qp(b));
	RC("destroy_srq", ibv_destroy_srq(srq));
	RC("dereg_mr a", ibv_dereg_mr(amr));
	RC("dereg_mr b", ibv_dereg_mr(bmr));
	RC("destroy_cq a", ibv_destroy_cq(ibv_cq_ex_to_cq(acq)));
	RC("destroy_cq b", ibv_destroy_cq(bcq));
}

/* A UD send built with ibv_wr_set_ud_addr, from an extended UD QP to a plain one. */
static void ud_traffic(void)
{
	static char buf[4096] __attribute__((aligned(4096)));
	struct ibv_cq *cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	struct ibv_qp_init_attr_ex qa = {
		.send_cq = cq, .recv_cq = cq,
		.cap = { .max_send_wr = 4, .max_recv_wr = 4, .max_send_sge = 1, .max_recv_sge = 1 },
		.qp_type = IBV_QPT_UD, .sq_sig_all = 1, .pd = pd,
		.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS,
		.send_ops_flags = IBV_QP_EX_WITH_SEND,
	};
	struct ibv_ah_attr aha = { .is_global = 1, .port_num = 1,
				   .grh = { .dgid = gid, .sgid_index = 1, .hop_limit = 64 } };
	struct ibv_qp *s, *r;
	struct ibv_ah *ah;
	struct ibv_mr *mr;

	printf("== UD through ibv_wr_set_ud_addr\n");
	if (!cq)
		die("create_cq (UD)");
	OBJ(s, "create_qp_ex UD SEND_OPS_FLAGS", ibv_create_qp_ex(ctx, &qa));
	qa.comp_mask = IBV_QP_INIT_ATTR_PD;
	OBJ(r, "create_qp_ex UD PD only", ibv_create_qp_ex(ctx, &qa));
	OBJ(ah, "create_ah", ibv_create_ah(pd, &aha));
	mr = ibv_reg_mr(pd, buf, sizeof(buf), IBV_ACCESS_LOCAL_WRITE);
	if (!s || !r || !ah || !mr)
		die("UD setup");
	for (int i = 0; i < 2; i++) {
		struct ibv_qp *q = i ? r : s;
		struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1, .qkey = 0x11111111 };

		if (modify(q, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY))
			die("UD INIT");
		a.qp_state = IBV_QPS_RTR;
		if (modify(q, &a, IBV_QP_STATE))
			die("UD RTR");
		a.qp_state = IBV_QPS_RTS;
		a.sq_psn = 1;
		if (modify(q, &a, IBV_QP_STATE | IBV_QP_SQ_PSN))
			die("UD RTS");
	}
	{
		struct ibv_sge rs = { .addr = (uintptr_t)buf + 1024, .length = 1024, .lkey = mr->lkey };
		struct ibv_recv_wr rw = { .wr_id = 31, .sg_list = &rs, .num_sge = 1 }, *bad;
		struct ibv_qp_ex *x = ibv_qp_to_qp_ex(s);

		RC("post_recv (UD)", ibv_post_recv(r, &rw, &bad));
		strcpy(buf, "ud datagram");
		ibv_wr_start(x);
		x->wr_id = 30;
		x->wr_flags = IBV_SEND_SIGNALED;
		ibv_wr_send(x);
		ibv_wr_set_ud_addr(x, ah, r->qp_num, 0x11111111);
		ibv_wr_set_sge(x, mr->lkey, (uintptr_t)buf, 12);
		RC("wr_complete (UD send)", ibv_wr_complete(x));
		drain("UD cq", cq, 2);
		printf("  received \"%s\" after a %s GRH\n", buf + 1024 + 40,
		       buf[1024] ? "filled" : "empty");
	}
	RC("destroy_qp UD s", ibv_destroy_qp(s));
	RC("destroy_qp UD r", ibv_destroy_qp(r));
	RC("destroy_ah", ibv_destroy_ah(ah));
	RC("dereg_mr UD", ibv_dereg_mr(mr));
	RC("destroy_cq UD", ibv_destroy_cq(cq));
}

int main(void)
{
	struct ibv_device **list;
	int n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	pure_helpers();
	list = ibv_get_device_list(&n);
	if (!list)
		die("ibv_get_device_list");
	for (int i = 0; i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "rxe0"))
			ctx = ibv_open_device(list[i]);
	ibv_free_device_list(list);
	if (!ctx)
		die("open rxe0");
	if (ibv_query_gid(ctx, 1, 1, &gid))
		die("ibv_query_gid");
	pd = ibv_alloc_pd(ctx);
	pd2 = ibv_alloc_pd(ctx);
	if (!pd || !pd2)
		die("ibv_alloc_pd");
	context_ops();
	queries();
	memory();
	traffic();
	ud_traffic();
	ibv_dealloc_pd(pd2);
	ibv_dealloc_pd(pd);
	ibv_close_device(ctx);
	return 0;
}
