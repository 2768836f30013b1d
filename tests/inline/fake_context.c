/* The inline layer of verbs.h against hand-made contexts, with no libibverbs at all.
 *
 * tests/inline/run builds this twice, against rdma-core 44's installed headers and against ours,
 * and the two outputs must be identical. Every op slot holds a stub that prints its name; the
 * exported verbs the inlines fall back to (ibv_query_port, ibv_query_device, ibv_create_srq,
 * ibv_create_qp, ibv_reg_mr, ibv_reg_mr_iova, ibv_reg_mr_iova2, _ibv_query_gid_ex,
 * _ibv_query_gid_table) are defined here too, so the program shows which op or fallback each
 * inline verb picks and what it returns, with errno, for contexts where:
 *   - every slot is set and sz covers the whole structure;
 *   - every slot is set but sz reaches back only to `query_port` (a provider ABI 34 context seen
 *     through rdma-core 65's layout) or only to `create_cq_ex` (the older slots absent);
 *   - every slot is NULL;
 *   - abi_compat does not mark the context extended;
 * and the stubs' int answer is 0 or EOPNOTSUPP (ibv_query_device_ex then falls back). Also the
 * ibv_context.ops verbs, memory-window checks, the extended QP/CQ forwarders, the ibv_reg_mr
 * macros with constant, optional and run-time flags, and the pure helpers.
 *
 * Stubs are installed through `void (*)(void)` and called with the slot's arguments, which they
 * ignore (harmless on the x86-64 calling convention this test runs on). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

static const char *seen;	/* the last stub or fallback called */
static int stub_ret;		/* what int-returning stubs answer */
static union {			/* what object-returning stubs answer */
	struct ibv_wq wq;
	char bytes[4096];
} obj;

#define STUB_INT(n) static int n##_stub(void) { seen = #n; return stub_ret; }
#define STUB_PTR(n) static void *n##_stub(void) { seen = #n; return &obj; }

STUB_INT(query_port) STUB_INT(advise_mr) STUB_PTR(alloc_null_mr) STUB_INT(read_counters)
STUB_INT(attach_counters_point_flow) STUB_PTR(create_counters) STUB_INT(destroy_counters)
STUB_PTR(reg_dm_mr) STUB_PTR(alloc_dm) STUB_INT(free_dm) STUB_INT(modify_flow_action_esp)
STUB_INT(destroy_flow_action) STUB_PTR(create_flow_action_esp) STUB_INT(modify_qp_rate_limit)
STUB_PTR(alloc_parent_domain) STUB_INT(dealloc_td) STUB_PTR(alloc_td) STUB_INT(modify_cq)
STUB_INT(post_srq_ops) STUB_INT(destroy_rwq_ind_table) STUB_PTR(create_rwq_ind_table)
STUB_INT(destroy_wq) STUB_INT(modify_wq) STUB_PTR(create_wq) STUB_INT(query_rt_values)
STUB_PTR(create_cq_ex) STUB_INT(query_device_ex) STUB_INT(ibv_destroy_flow)
STUB_PTR(ibv_create_flow) STUB_PTR(open_qp) STUB_PTR(create_qp_ex) STUB_INT(get_srq_num)
STUB_PTR(create_srq_ex) STUB_PTR(open_xrcd) STUB_INT(close_xrcd)
STUB_PTR(alloc_mw) STUB_INT(bind_mw) STUB_INT(dealloc_mw) STUB_INT(poll_cq) STUB_INT(req_notify_cq)
STUB_INT(post_srq_recv) STUB_INT(post_send) STUB_INT(post_recv)
STUB_INT(wq_post_recv) STUB_INT(memcpy_to_dm) STUB_INT(memcpy_from_dm)

#define SET(obj_, slot, fn)                                                                       \
	do {                                                                                      \
		void (*f_)(void) = (void (*)(void))(fn);                                           \
		memcpy(&(obj_)->slot, &f_, sizeof(f_));                                           \
	} while (0)
#define SET_STUB(obj_, slot) SET(obj_, slot, slot##_stub)

/* The exported verbs the inline layer calls, as this program's own definitions. */
int (ibv_query_port)(struct ibv_context *c, uint8_t port, struct _compat_ibv_port_attr *a)
{
	(void)c; (void)port; (void)a;
	seen = "ibv_query_port (exported)";
	return 0;
}

int ibv_query_device(struct ibv_context *c, struct ibv_device_attr *a)
{
	(void)c; (void)a;
	seen = "ibv_query_device (exported)";
	return 0;
}

struct ibv_srq *ibv_create_srq(struct ibv_pd *pd, struct ibv_srq_init_attr *a)
{
	(void)pd; (void)a;
	seen = "ibv_create_srq (exported)";
	return (struct ibv_srq *)(void *)&obj;
}

struct ibv_qp *ibv_create_qp(struct ibv_pd *pd, struct ibv_qp_init_attr *a)
{
	(void)pd; (void)a;
	seen = "ibv_create_qp (exported)";
	return (struct ibv_qp *)(void *)&obj;
}

static char mr_call[96];

struct ibv_mr *(ibv_reg_mr)(struct ibv_pd *pd, void *addr, size_t len, int access)
{
	(void)pd; (void)addr;
	snprintf(mr_call, sizeof(mr_call), "ibv_reg_mr len %zu access %#x", len, access);
	return NULL;
}

struct ibv_mr *(ibv_reg_mr_iova)(struct ibv_pd *pd, void *addr, size_t len, uint64_t iova,
				 int access)
{
	(void)pd; (void)addr;
	snprintf(mr_call, sizeof(mr_call), "ibv_reg_mr_iova len %zu iova %#llx access %#x", len,
		 (unsigned long long)iova, access);
	return NULL;
}

static char mr_buf[64];

struct ibv_mr *ibv_reg_mr_iova2(struct ibv_pd *pd, void *addr, size_t len, uint64_t iova,
				unsigned int access)
{
	(void)pd;
	snprintf(mr_call, sizeof(mr_call), "ibv_reg_mr_iova2 len %zu iova %s access %#x", len,
		 iova == (uintptr_t)mr_buf && addr == mr_buf ? "=addr" : "other", access);
	return NULL;
}

int _ibv_query_gid_ex(struct ibv_context *c, uint32_t port, uint32_t index,
		      struct ibv_gid_entry *e, uint32_t flags, size_t entry_size)
{
	(void)c; (void)e;
	printf("  _ibv_query_gid_ex port %u index %u flags %u entry_size %zu\n", port, index, flags,
	       entry_size);
	return 0;
}

ssize_t _ibv_query_gid_table(struct ibv_context *c, struct ibv_gid_entry *e, size_t max,
			     uint32_t flags, size_t entry_size)
{
	(void)c; (void)e;
	printf("  _ibv_query_gid_table max %zu flags %u entry_size %zu\n", max, flags, entry_size);
	return 3;
}

static const char *en(int e)
{
	const char *s = e ? strerrorname_np(e) : "0";

	return s ? s : "?";
}

static void said_int(const char *verb, int ret)
{
	printf("  %-28s -> %-28s ret %d errno %s\n", verb, seen ? seen : "-", ret, en(errno));
}

static void said_ptr(const char *verb, const void *p)
{
	printf("  %-28s -> %-28s %s errno %s\n", verb, seen ? seen : "-",
	       p == (const void *)&obj ? "the stub's object" : p ? "other" : "NULL", en(errno));
}

#define INT(verb, call) do { seen = NULL; errno = 0; int r_ = (call); said_int(verb, r_); } while (0)
#define PTR(verb, call) do { seen = NULL; errno = 0; const void *p_ = (call); said_ptr(verb, p_); } while (0)

static struct verbs_context *vctx;
static struct ibv_context *ctx;

static void fill_slots(void)
{
	SET_STUB(vctx, query_port); SET_STUB(vctx, advise_mr); SET_STUB(vctx, alloc_null_mr);
	SET_STUB(vctx, read_counters); SET_STUB(vctx, attach_counters_point_flow);
	SET_STUB(vctx, create_counters); SET_STUB(vctx, destroy_counters); SET_STUB(vctx, reg_dm_mr);
	SET_STUB(vctx, alloc_dm); SET_STUB(vctx, free_dm); SET_STUB(vctx, modify_flow_action_esp);
	SET_STUB(vctx, destroy_flow_action); SET_STUB(vctx, create_flow_action_esp);
	SET_STUB(vctx, modify_qp_rate_limit); SET_STUB(vctx, alloc_parent_domain);
	SET_STUB(vctx, dealloc_td); SET_STUB(vctx, alloc_td); SET_STUB(vctx, modify_cq);
	SET_STUB(vctx, post_srq_ops); SET_STUB(vctx, destroy_rwq_ind_table);
	SET_STUB(vctx, create_rwq_ind_table); SET_STUB(vctx, destroy_wq); SET_STUB(vctx, modify_wq);
	SET_STUB(vctx, create_wq); SET_STUB(vctx, query_rt_values); SET_STUB(vctx, create_cq_ex);
	SET_STUB(vctx, query_device_ex); SET_STUB(vctx, ibv_destroy_flow);
	SET_STUB(vctx, ibv_create_flow); SET_STUB(vctx, open_qp); SET_STUB(vctx, create_qp_ex);
	SET_STUB(vctx, get_srq_num); SET_STUB(vctx, create_srq_ex); SET_STUB(vctx, open_xrcd);
	SET_STUB(vctx, close_xrcd);
	SET_STUB(&ctx->ops, alloc_mw); SET_STUB(&ctx->ops, bind_mw); SET_STUB(&ctx->ops, dealloc_mw);
	SET_STUB(&ctx->ops, poll_cq); SET_STUB(&ctx->ops, req_notify_cq);
	SET_STUB(&ctx->ops, post_srq_recv); SET_STUB(&ctx->ops, post_send);
	SET_STUB(&ctx->ops, post_recv);
}

/* Every verb that goes through a verbs_context slot, and ibv_alloc_mw's ibv_context.ops check. */
static void context_verbs(int close_xrcd_too)
{
	struct ibv_pd pd = { .context = ctx };
	struct ibv_cq cq = { .context = ctx };
	struct ibv_qp qp = { .context = ctx, .pd = &pd };
	struct ibv_srq srq = { .context = ctx, .pd = &pd };
	struct ibv_wq wq = { .context = ctx };
	struct ibv_xrcd xrcd = { .context = ctx };
	struct ibv_td td = { .context = ctx };
	struct ibv_flow flow = { .context = ctx };
	struct ibv_flow_action action = { .context = ctx };
	struct ibv_counters counters = { .context = ctx };
	struct ibv_rwq_ind_table table = { .context = ctx };
	struct ibv_dm dm = { .context = ctx };
	struct ibv_device_attr_ex attr;
	struct ibv_query_device_ex_input in = { .comp_mask = 1 };
	struct ibv_port_attr port;
	struct ibv_srq_init_attr_ex srq_attr = { .comp_mask = IBV_SRQ_INIT_ATTR_PD, .pd = &pd };
	struct ibv_qp_init_attr_ex qp_attr = { .comp_mask = IBV_QP_INIT_ATTR_PD, .pd = &pd };
	struct ibv_wq_init_attr wq_attr = { .wq_context = (void *)0x5678 };
	struct ibv_ops_wr op, *bad_op = NULL;
	struct ibv_sge sge = { 0 };
	uint32_t num = 0;
	uint64_t values[2];

	printf("  verbs_get_ctx: %s; verbs_get_ctx_op: query_port %d create_cq_ex %d close_xrcd %d\n",
	       verbs_get_ctx(ctx) ? "extended" : "NULL", verbs_get_ctx_op(ctx, query_port) != NULL,
	       verbs_get_ctx_op(ctx, create_cq_ex) != NULL, verbs_get_ctx_op(ctx, close_xrcd) != NULL);
	memset(&attr, 0x5a, sizeof(attr));
	INT("query_device_ex", ibv_query_device_ex(ctx, NULL, &attr));
	printf("  %-28s    comp_mask %#x max_dm_size %#llx\n", "", attr.comp_mask,
	       (unsigned long long)attr.max_dm_size);
	INT("query_device_ex comp_mask 1", ibv_query_device_ex(ctx, &in, &attr));
	memset(&port, 0x5a, sizeof(port));
	INT("query_port (macro)", ibv_query_port(ctx, 1, &port));
	printf("  %-28s    link_layer %#x flags %#x\n", "", port.link_layer, port.flags);
	INT("query_rt_values_ex", ibv_query_rt_values_ex(ctx, NULL));
	PTR("create_cq_ex", ibv_create_cq_ex(ctx, NULL));
	INT("modify_cq", ibv_modify_cq(&cq, NULL));
	PTR("create_srq_ex PD", ibv_create_srq_ex(ctx, &srq_attr));
	srq_attr.comp_mask |= IBV_SRQ_INIT_ATTR_TYPE;
	srq_attr.srq_type = IBV_SRQT_BASIC;
	PTR("create_srq_ex PD|TYPE basic", ibv_create_srq_ex(ctx, &srq_attr));
	srq_attr.srq_type = IBV_SRQT_XRC;
	PTR("create_srq_ex PD|TYPE xrc", ibv_create_srq_ex(ctx, &srq_attr));
	srq_attr.comp_mask = IBV_SRQ_INIT_ATTR_TYPE;
	srq_attr.srq_type = IBV_SRQT_BASIC;
	PTR("create_srq_ex TYPE only", ibv_create_srq_ex(ctx, &srq_attr));
	srq_attr.comp_mask = IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_CQ;
	PTR("create_srq_ex PD|CQ", ibv_create_srq_ex(ctx, &srq_attr));
	INT("get_srq_num", ibv_get_srq_num(&srq, &num));
	INT("post_srq_ops", ibv_post_srq_ops(&srq, &op, &bad_op));
	printf("  %-28s    bad_op %s\n", "", bad_op == &op ? "the op" : bad_op ? "other" : "NULL");
	PTR("create_qp_ex PD", ibv_create_qp_ex(ctx, &qp_attr));
	qp_attr.comp_mask |= IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
	PTR("create_qp_ex PD|SEND_OPS", ibv_create_qp_ex(ctx, &qp_attr));
	qp_attr.comp_mask = 0;
	PTR("create_qp_ex 0", ibv_create_qp_ex(ctx, &qp_attr));
	PTR("open_qp", ibv_open_qp(ctx, NULL));
	INT("modify_qp_rate_limit", ibv_modify_qp_rate_limit(&qp, NULL));
	PTR("open_xrcd", ibv_open_xrcd(ctx, NULL));
	if (close_xrcd_too)
		INT("close_xrcd", ibv_close_xrcd(&xrcd));
	PTR("alloc_td", ibv_alloc_td(ctx, NULL));
	INT("dealloc_td", ibv_dealloc_td(&td));
	PTR("alloc_parent_domain", ibv_alloc_parent_domain(ctx, NULL));
	memset(&obj, 0x5a, sizeof(obj));
	PTR("create_wq", ibv_create_wq(ctx, &wq_attr));
	if (seen && !strcmp(seen, "create_wq"))
		printf("  %-28s    wq_context %s events_completed %u\n", "",
		       obj.wq.wq_context == (void *)0x5678 ? "set" : "?", obj.wq.events_completed);
	INT("modify_wq", ibv_modify_wq(&wq, NULL));
	INT("destroy_wq", ibv_destroy_wq(&wq));
	PTR("create_rwq_ind_table", ibv_create_rwq_ind_table(ctx, NULL));
	INT("destroy_rwq_ind_table", ibv_destroy_rwq_ind_table(&table));
	PTR("create_flow", ibv_create_flow(&qp, NULL));
	INT("destroy_flow", ibv_destroy_flow(&flow));
	PTR("create_flow_action_esp", ibv_create_flow_action_esp(ctx, NULL));
	INT("modify_flow_action_esp", ibv_modify_flow_action_esp(&action, NULL));
	INT("destroy_flow_action", ibv_destroy_flow_action(&action));
	INT("advise_mr", ibv_advise_mr(&pd, IBV_ADVISE_MR_ADVICE_PREFETCH, 0, &sge, 1));
	PTR("alloc_null_mr", ibv_alloc_null_mr(&pd));
	PTR("alloc_dm", ibv_alloc_dm(ctx, NULL));
	INT("free_dm", ibv_free_dm(&dm));
	PTR("reg_dm_mr", ibv_reg_dm_mr(&pd, &dm, 0, 64, 0));
	PTR("create_counters", ibv_create_counters(ctx, NULL));
	INT("destroy_counters", ibv_destroy_counters(&counters));
	INT("attach_counters_point_flow", ibv_attach_counters_point_flow(&counters, NULL, &flow));
	INT("read_counters", ibv_read_counters(&counters, values, 2, 0));
	PTR("alloc_mw", ibv_alloc_mw(&pd, IBV_MW_TYPE_2));
}

/* ibv_context.ops and object members: called unchecked, as the data path is. */
static void data_path(void)
{
	struct ibv_pd pd = { .context = ctx }, pd2 = { .context = ctx };
	struct ibv_mr mr = { .context = ctx, .pd = &pd }, mr2 = { .context = ctx, .pd = &pd2 };
	struct ibv_cq cq = { .context = ctx };
	struct ibv_qp qp = { .context = ctx, .pd = &pd };
	struct ibv_srq srq = { .context = ctx };
	struct ibv_wq wq = { .context = ctx };
	struct ibv_dm dm = { .context = ctx };
	struct ibv_mw mw = { .context = ctx, .pd = &pd, .type = IBV_MW_TYPE_1 };
	struct ibv_mw_bind bind = { .bind_info = { .mr = &mr, .addr = 1, .length = 2 } };
	struct ibv_wc wc;
	char host[8];

	SET(&wq, post_recv, wq_post_recv_stub);
	SET(&dm, memcpy_to_dm, memcpy_to_dm_stub);
	SET(&dm, memcpy_from_dm, memcpy_from_dm_stub);
	INT("post_send", ibv_post_send(&qp, NULL, NULL));
	INT("post_recv", ibv_post_recv(&qp, NULL, NULL));
	INT("post_srq_recv", ibv_post_srq_recv(&srq, NULL, NULL));
	INT("post_wq_recv", ibv_post_wq_recv(&wq, NULL, NULL));
	INT("poll_cq", ibv_poll_cq(&cq, 1, &wc));
	INT("req_notify_cq", ibv_req_notify_cq(&cq, 1));
	INT("memcpy_to_dm", ibv_memcpy_to_dm(&dm, 0, host, sizeof(host)));
	INT("memcpy_from_dm", ibv_memcpy_from_dm(host, &dm, 0, sizeof(host)));
	PTR("alloc_mw type 1", ibv_alloc_mw(&pd, IBV_MW_TYPE_1));
	INT("dealloc_mw", ibv_dealloc_mw(&mw));
	INT("bind_mw", ibv_bind_mw(&qp, &mw, &bind));
	bind.bind_info.mr = &mr2;
	INT("bind_mw MR of another PD", ibv_bind_mw(&qp, &mw, &bind));
	bind.bind_info.mr = NULL;
	INT("bind_mw no MR, a range", ibv_bind_mw(&qp, &mw, &bind));
	bind.bind_info.addr = 0;
	bind.bind_info.length = 0;
	INT("bind_mw no MR, no range", ibv_bind_mw(&qp, &mw, &bind));
	mw.type = IBV_MW_TYPE_2;
	INT("bind_mw type 2", ibv_bind_mw(&qp, &mw, &bind));
}

/* The extended QP's and CQ's verbs: each must call its own member. */
static struct ibv_qp_ex qpx;
static struct ibv_cq_ex cqx;
static char member[48];

#define MEMBER(n) static uint64_t n##_m(void) { snprintf(member, sizeof(member), "%s", #n); return 42; }
MEMBER(wr_atomic_cmp_swp) MEMBER(wr_atomic_fetch_add) MEMBER(wr_bind_mw) MEMBER(wr_local_inv)
MEMBER(wr_rdma_read) MEMBER(wr_rdma_write) MEMBER(wr_rdma_write_imm) MEMBER(wr_send)
MEMBER(wr_send_imm) MEMBER(wr_send_inv) MEMBER(wr_send_tso) MEMBER(wr_set_ud_addr)
MEMBER(wr_set_xrc_srqn) MEMBER(wr_set_inline_data) MEMBER(wr_set_inline_data_list)
MEMBER(wr_set_sge) MEMBER(wr_set_sge_list) MEMBER(wr_start) MEMBER(wr_complete) MEMBER(wr_abort)
MEMBER(wr_atomic_write)
MEMBER(start_poll) MEMBER(next_poll) MEMBER(end_poll) MEMBER(read_opcode) MEMBER(read_vendor_err)
MEMBER(read_byte_len) MEMBER(read_imm_data) MEMBER(read_qp_num) MEMBER(read_src_qp)
MEMBER(read_wc_flags) MEMBER(read_slid) MEMBER(read_sl) MEMBER(read_dlid_path_bits)
MEMBER(read_completion_ts) MEMBER(read_cvlan) MEMBER(read_flow_tag) MEMBER(read_tm_info)
MEMBER(read_completion_wallclock_ns)

#define CALLS(verb, call) do { member[0] = 0; call; printf("  %-36s -> %s\n", verb, member); } while (0)
#define READS(verb, call) do { member[0] = 0; unsigned long long v_ = (unsigned long long)(call); \
	printf("  %-36s -> %s = %llu\n", verb, member, v_); } while (0)

static void extended_objects(void)
{
	struct ibv_mw_bind_info bi = { 0 };
	struct ibv_data_buf db = { 0 };
	struct ibv_sge sge = { 0 };
	struct ibv_poll_cq_attr pa = { 0 };
	struct ibv_wc_tm_info tm;
	char atomic[8] = { 0 };

	SET(&qpx, wr_atomic_cmp_swp, wr_atomic_cmp_swp_m); SET(&qpx, wr_atomic_fetch_add, wr_atomic_fetch_add_m);
	SET(&qpx, wr_bind_mw, wr_bind_mw_m); SET(&qpx, wr_local_inv, wr_local_inv_m);
	SET(&qpx, wr_rdma_read, wr_rdma_read_m); SET(&qpx, wr_rdma_write, wr_rdma_write_m);
	SET(&qpx, wr_rdma_write_imm, wr_rdma_write_imm_m); SET(&qpx, wr_send, wr_send_m);
	SET(&qpx, wr_send_imm, wr_send_imm_m); SET(&qpx, wr_send_inv, wr_send_inv_m);
	SET(&qpx, wr_send_tso, wr_send_tso_m); SET(&qpx, wr_set_ud_addr, wr_set_ud_addr_m);
	SET(&qpx, wr_set_xrc_srqn, wr_set_xrc_srqn_m); SET(&qpx, wr_set_inline_data, wr_set_inline_data_m);
	SET(&qpx, wr_set_inline_data_list, wr_set_inline_data_list_m); SET(&qpx, wr_set_sge, wr_set_sge_m);
	SET(&qpx, wr_set_sge_list, wr_set_sge_list_m); SET(&qpx, wr_start, wr_start_m);
	SET(&qpx, wr_complete, wr_complete_m); SET(&qpx, wr_abort, wr_abort_m);
	SET(&qpx, wr_atomic_write, wr_atomic_write_m);
	CALLS("ibv_wr_atomic_cmp_swp", ibv_wr_atomic_cmp_swp(&qpx, 1, 2, 3, 4));
	CALLS("ibv_wr_atomic_fetch_add", ibv_wr_atomic_fetch_add(&qpx, 1, 2, 3));
	CALLS("ibv_wr_bind_mw", ibv_wr_bind_mw(&qpx, NULL, 1, &bi));
	CALLS("ibv_wr_local_inv", ibv_wr_local_inv(&qpx, 1));
	CALLS("ibv_wr_rdma_read", ibv_wr_rdma_read(&qpx, 1, 2));
	CALLS("ibv_wr_rdma_write", ibv_wr_rdma_write(&qpx, 1, 2));
	CALLS("ibv_wr_rdma_write_imm", ibv_wr_rdma_write_imm(&qpx, 1, 2, 3));
	CALLS("ibv_wr_send", ibv_wr_send(&qpx));
	CALLS("ibv_wr_send_imm", ibv_wr_send_imm(&qpx, 3));
	CALLS("ibv_wr_send_inv", ibv_wr_send_inv(&qpx, 1));
	CALLS("ibv_wr_send_tso", ibv_wr_send_tso(&qpx, NULL, 1, 2));
	CALLS("ibv_wr_set_ud_addr", ibv_wr_set_ud_addr(&qpx, NULL, 1, 2));
	CALLS("ibv_wr_set_xrc_srqn", ibv_wr_set_xrc_srqn(&qpx, 1));
	CALLS("ibv_wr_set_inline_data", ibv_wr_set_inline_data(&qpx, NULL, 0));
	CALLS("ibv_wr_set_inline_data_list", ibv_wr_set_inline_data_list(&qpx, 1, &db));
	CALLS("ibv_wr_set_sge", ibv_wr_set_sge(&qpx, 1, 2, 3));
	CALLS("ibv_wr_set_sge_list", ibv_wr_set_sge_list(&qpx, 1, &sge));
	CALLS("ibv_wr_start", ibv_wr_start(&qpx));
	READS("ibv_wr_complete", ibv_wr_complete(&qpx));
	CALLS("ibv_wr_abort", ibv_wr_abort(&qpx));
	CALLS("ibv_wr_atomic_write", ibv_wr_atomic_write(&qpx, 1, 2, atomic));

	SET(&cqx, start_poll, start_poll_m); SET(&cqx, next_poll, next_poll_m);
	SET(&cqx, end_poll, end_poll_m); SET(&cqx, read_opcode, read_opcode_m);
	SET(&cqx, read_vendor_err, read_vendor_err_m); SET(&cqx, read_byte_len, read_byte_len_m);
	SET(&cqx, read_imm_data, read_imm_data_m); SET(&cqx, read_qp_num, read_qp_num_m);
	SET(&cqx, read_src_qp, read_src_qp_m); SET(&cqx, read_wc_flags, read_wc_flags_m);
	SET(&cqx, read_slid, read_slid_m); SET(&cqx, read_sl, read_sl_m);
	SET(&cqx, read_dlid_path_bits, read_dlid_path_bits_m);
	SET(&cqx, read_completion_ts, read_completion_ts_m); SET(&cqx, read_cvlan, read_cvlan_m);
	SET(&cqx, read_flow_tag, read_flow_tag_m); SET(&cqx, read_tm_info, read_tm_info_m);
	SET(&cqx, read_completion_wallclock_ns, read_completion_wallclock_ns_m);
	READS("ibv_start_poll", ibv_start_poll(&cqx, &pa));
	READS("ibv_next_poll", ibv_next_poll(&cqx));
	CALLS("ibv_end_poll", ibv_end_poll(&cqx));
	READS("ibv_wc_read_opcode", ibv_wc_read_opcode(&cqx));
	READS("ibv_wc_read_vendor_err", ibv_wc_read_vendor_err(&cqx));
	READS("ibv_wc_read_byte_len", ibv_wc_read_byte_len(&cqx));
	READS("ibv_wc_read_imm_data", ibv_wc_read_imm_data(&cqx));
	READS("ibv_wc_read_invalidated_rkey", ibv_wc_read_invalidated_rkey(&cqx));
	READS("ibv_wc_read_qp_num", ibv_wc_read_qp_num(&cqx));
	READS("ibv_wc_read_src_qp", ibv_wc_read_src_qp(&cqx));
	READS("ibv_wc_read_wc_flags", ibv_wc_read_wc_flags(&cqx));
	READS("ibv_wc_read_slid", ibv_wc_read_slid(&cqx));
	READS("ibv_wc_read_sl", ibv_wc_read_sl(&cqx));
	READS("ibv_wc_read_dlid_path_bits", ibv_wc_read_dlid_path_bits(&cqx));
	READS("ibv_wc_read_completion_ts", ibv_wc_read_completion_ts(&cqx));
	READS("ibv_wc_read_completion_wallclock_ns", ibv_wc_read_completion_wallclock_ns(&cqx));
	READS("ibv_wc_read_cvlan", ibv_wc_read_cvlan(&cqx));
	READS("ibv_wc_read_flow_tag", ibv_wc_read_flow_tag(&cqx));
	CALLS("ibv_wc_read_tm_info", ibv_wc_read_tm_info(&cqx, &tm));
	printf("  ibv_cq_ex_to_cq %s\n", (void *)ibv_cq_ex_to_cq(&cqx) == (void *)&cqx ? "same" : "other");
}

static void macros_and_helpers(void)
{
	struct ibv_pd pd = { .context = ctx };
	volatile int run_time = IBV_ACCESS_LOCAL_WRITE;
	struct ibv_gid_entry e[4];

	ibv_reg_mr(&pd, mr_buf, 64, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	printf("  reg_mr constant flags             -> %s\n", mr_call);
	ibv_reg_mr(&pd, mr_buf, 64, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_RELAXED_ORDERING);
	printf("  reg_mr RELAXED_ORDERING           -> %s\n", mr_call);
	ibv_reg_mr(&pd, mr_buf, 64, run_time);
	printf("  reg_mr run-time flags             -> %s\n", mr_call);
	ibv_reg_mr(&pd, mr_buf, 64, 0);
	printf("  reg_mr 0                          -> %s\n", mr_call);
	ibv_reg_mr_iova(&pd, mr_buf, 64, 0x7000, IBV_ACCESS_LOCAL_WRITE);
	printf("  reg_mr_iova constant flags        -> %s\n", mr_call);
	ibv_reg_mr_iova(&pd, mr_buf, 64, 0x7000, IBV_ACCESS_RELAXED_ORDERING);
	printf("  reg_mr_iova RELAXED_ORDERING      -> %s\n", mr_call);
	ibv_reg_mr_iova(&pd, mr_buf, 64, (uintptr_t)mr_buf, run_time);
	printf("  reg_mr_iova run-time flags        -> %s\n", mr_call);
	ibv_query_gid_ex(ctx, 1, 2, e, 0);
	printf("  query_gid_table -> %zd\n", ibv_query_gid_table(ctx, e, 4, 0));
	for (uint32_t k = 0; k < 4; k++)
		printf("  ibv_inc_rkey(%#x) = %#x\n", 0x100u * k + 0xfe + k, ibv_inc_rkey(0x100u * k + 0xfe + k));
	for (uint32_t fl = 0; fl < 0x100000; fl += 0x1b3d7)
		printf("  ibv_flow_label_to_udp_sport(%#x) = %#x\n", fl, ibv_flow_label_to_udp_sport(fl));
	for (int t = 0; t < 32; t += 5)
		printf("  ibv_is_qpt_supported(0x12345678, %d) = %d\n", t,
		       ibv_is_qpt_supported(0x12345678, (enum ibv_qp_type)t));
	printf("  vext_field_avail(ibv_device_attr_ex, comp_mask, 232) = %d, (.., 233) = %d\n",
	       (int)vext_field_avail(struct ibv_device_attr_ex, comp_mask, 232),
	       (int)vext_field_avail(struct ibv_device_attr_ex, comp_mask, 233));
	printf("  IBV_ALLOCATOR_USE_DEFAULT %s\n",
	       IBV_ALLOCATOR_USE_DEFAULT == (void *)(uintptr_t)-1 ? "(void *)-1" : "?");
}

int main(void)
{
	/* a verbs_context in a bigger allocation, as a provider embeds it */
	char *mem = calloc(1, 4096);
	const size_t full = sizeof(struct verbs_context);
	const struct {
		const char *what;
		int extended, slots, ret;
		size_t sz;
	} cases[] = {
		{ "all slots, sz covers all", 1, 1, 0, full },
		{ "all slots answering EOPNOTSUPP", 1, 1, EOPNOTSUPP, full },
		{ "all slots, sz back to query_port", 1, 1, 0,
		  full - offsetof(struct verbs_context, query_port) },
		{ "all slots, sz back to create_cq_ex", 1, 1, 0,
		  full - offsetof(struct verbs_context, create_cq_ex) },
		{ "no slots", 1, 0, 0, full },
		{ "not extended", 0, 1, 0, full },
	};

	if (!mem)
		return 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	vctx = (struct verbs_context *)(void *)(mem + 256);
	ctx = &vctx->context;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(mem, 0, 4096);
		ctx->abi_compat = cases[i].extended ? __VERBS_ABI_IS_EXTENDED : NULL;
		vctx->sz = cases[i].sz;
		stub_ret = cases[i].ret;
		if (cases[i].slots)
			fill_slots();
		printf("== %s\n", cases[i].what);
		/* close_xrcd is called unchecked by rdma-core: only where the slot is there */
		context_verbs(cases[i].slots && cases[i].extended &&
			      cases[i].sz >= full - offsetof(struct verbs_context, close_xrcd));
	}
	memset(mem, 0, 4096);
	ctx->abi_compat = __VERBS_ABI_IS_EXTENDED;
	vctx->sz = full;
	stub_ret = 0;
	fill_slots();
	printf("== ibv_context.ops and object members\n");
	data_path();
	printf("== extended QP and CQ\n");
	extended_objects();
	printf("== macros and helpers\n");
	macros_and_helpers();
	free(mem);
	return 0;
}
