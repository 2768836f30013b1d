// Typical C++ use of <infiniband/verbs.h>: every static inline verb and every function-like macro
// of the header, called the way C++ programs call them (enum flags or'ed together, enum-typed
// members assigned and switched over, results kept in locals). Compiled and linked, never
// run, by tests/inline/run with g++ and clang++ at C++11, 17, 20 and 23 and warnings as errors
// (C++20 deprecates arithmetic between two enumeration types: the header must not need it).
#include <infiniband/verbs.h>

#include <cstdio>

namespace {

const char *describe(const ibv_wc &wc)
{
    switch (wc.status) {
    case IBV_WC_SUCCESS:
        return "success";
    case IBV_WC_WR_FLUSH_ERR:
        return "flushed";
    default:
        return ibv_wc_status_str(wc.status);
    }
}

int state_rank(const ibv_qp *qp)
{
    switch (qp->state) {
    case IBV_QPS_RESET:
        return 0;
    case IBV_QPS_INIT:
        return 1;
    case IBV_QPS_RTR:
        return 2;
    case IBV_QPS_RTS:
        return 3;
    default:
        return -1;
    }
}

void memory(ibv_context *ctx, ibv_pd *pd, void *buf, size_t len, int runtime_flags)
{
    ibv_mr *mrs[] = {
        ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE),
        ibv_reg_mr(pd, buf, len, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE),
        ibv_reg_mr(pd, buf, len,
                   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ | IBV_ACCESS_RELAXED_ORDERING),
        ibv_reg_mr(pd, buf, len, IBV_ACCESS_OPTIONAL_FIRST),
        ibv_reg_mr(pd, buf, len, runtime_flags),
        ibv_reg_mr(pd, buf, len, static_cast<unsigned int>(runtime_flags)),
        ibv_reg_mr_iova(pd, buf, len, 0x1000, IBV_ACCESS_LOCAL_WRITE),
        ibv_reg_mr_iova(pd, buf, len, 0, IBV_ACCESS_ZERO_BASED | IBV_ACCESS_RELAXED_ORDERING),
        ibv_reg_mr_iova(pd, buf, len, 0, runtime_flags),
    };
    for (ibv_mr *mr : mrs)
        if (mr)
            ibv_dereg_mr(mr);

    ibv_alloc_dm_attr dm_attr = {};
    dm_attr.length = 4096;
    if (ibv_dm *dm = ibv_alloc_dm(ctx, &dm_attr)) {
        char bytes[16] = {};
        ibv_memcpy_to_dm(dm, 0, bytes, sizeof(bytes));
        ibv_memcpy_from_dm(bytes, dm, 0, sizeof(bytes));
        if (ibv_mr *mr = ibv_reg_dm_mr(pd, dm, 0, 4096, IBV_ACCESS_ZERO_BASED | IBV_ACCESS_LOCAL_WRITE))
            ibv_dereg_mr(mr);
        ibv_free_dm(dm);
    }
    if (ibv_mr *null_mr = ibv_alloc_null_mr(pd))
        ibv_dereg_mr(null_mr);

    ibv_sge sge = {};
    ibv_advise_mr(pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE, IBV_ADVISE_MR_FLAG_FLUSH, &sge, 1);

    if (ibv_mw *mw = ibv_alloc_mw(pd, IBV_MW_TYPE_1)) {
        ibv_mw_bind bind = {};
        bind.bind_info.mw_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_REMOTE_WRITE;
        ibv_bind_mw(nullptr, mw, &bind);
        std::printf("%u\n", ibv_inc_rkey(mw->rkey));
        ibv_dealloc_mw(mw);
    }
}

void queries(ibv_context *ctx)
{
    ibv_port_attr port = {};
    if (ibv_query_port(ctx, 1, &port) == 0 && port.state == IBV_PORT_ACTIVE &&
        port.link_layer == IBV_LINK_LAYER_ETHERNET)
        std::printf("mtu %d\n", port.active_mtu == IBV_MTU_4096 ? 4096 : 0);

    ibv_device_attr_ex attr = {};
    if (ibv_query_device_ex(ctx, nullptr, &attr) == 0 &&
        ibv_is_qpt_supported(attr.raw_packet_caps, IBV_QPT_RAW_PACKET))
        std::printf("raw\n");

    ibv_gid_entry entries[8];
    ssize_t n = ibv_query_gid_table(ctx, entries, 8, 0);
    if (n > 0 && ibv_query_gid_ex(ctx, 1, 0, &entries[0], 0) == 0 &&
        entries[0].gid_type == IBV_GID_TYPE_ROCE_V2)
        std::printf("roce v2\n");

    ibv_values_ex values = {};
    values.comp_mask = IBV_VALUES_MASK_RAW_CLOCK;
    ibv_query_rt_values_ex(ctx, &values);

    ibv_comp_cntr_caps caps = {};
    ibv_query_comp_cntr_caps(ctx, &caps);

    if (verbs_context *vctx = verbs_get_ctx_op(ctx, query_device_ex))
        std::printf("%zu\n", vctx->sz);
    if (verbs_get_ctx(ctx) &&
        vext_field_avail(ibv_device_attr_ex, max_dm_size, sizeof(attr)))
        std::printf("dm\n");
    std::printf("%#x\n", ibv_flow_label_to_udp_sport(0x12345));
}

void completion(ibv_context *ctx, ibv_cq *cq)
{
    ibv_wc wc[4];
    int n = ibv_poll_cq(cq, 4, wc);
    for (int i = 0; i < n; i++) {
        std::printf("%s\n", describe(wc[i]));
        if (wc[i].opcode == IBV_WC_RECV_RDMA_WITH_IMM && (wc[i].wc_flags & IBV_WC_WITH_IMM))
            std::printf("%u\n", be32toh(wc[i].imm_data));
    }
    ibv_req_notify_cq(cq, 0);
    ibv_modify_cq_attr mod = {};
    mod.attr_mask = IBV_CQ_ATTR_MODERATE;
    ibv_modify_cq(cq, &mod);

    ibv_cq_init_attr_ex cq_attr = {};
    cq_attr.cqe = 64;
    cq_attr.wc_flags = IBV_WC_STANDARD_FLAGS | IBV_WC_EX_WITH_COMPLETION_TIMESTAMP;
    cq_attr.comp_mask = IBV_CQ_INIT_ATTR_MASK_FLAGS;
    cq_attr.flags = IBV_CREATE_CQ_ATTR_SINGLE_THREADED;
    ibv_cq_ex *cqx = ibv_create_cq_ex(ctx, &cq_attr);
    if (!cqx)
        return;
    ibv_poll_cq_attr poll = {};
    if (ibv_start_poll(cqx, &poll) == 0) {
        do {
            ibv_wc_opcode op = ibv_wc_read_opcode(cqx);
            ibv_wc_status status = cqx->status;
            if (status == IBV_WC_SUCCESS && op == IBV_WC_RECV) {
                unsigned flags = ibv_wc_read_wc_flags(cqx);
                __be32 imm = ibv_wc_read_imm_data(cqx);
                ibv_wc_tm_info tm;
                ibv_wc_read_tm_info(cqx, &tm);
                std::printf("%u %u %u %u %u %u %u %u %u %u %u %llu %llu %u %u\n",
                            ibv_wc_read_vendor_err(cqx), ibv_wc_read_byte_len(cqx), be32toh(imm),
                            ibv_wc_read_invalidated_rkey(cqx), ibv_wc_read_qp_num(cqx),
                            ibv_wc_read_src_qp(cqx), flags, ibv_wc_read_slid(cqx),
                            unsigned(ibv_wc_read_sl(cqx)), unsigned(ibv_wc_read_dlid_path_bits(cqx)),
                            unsigned(ibv_wc_read_cvlan(cqx)),
                            static_cast<unsigned long long>(ibv_wc_read_completion_ts(cqx)),
                            static_cast<unsigned long long>(ibv_wc_read_completion_wallclock_ns(cqx)),
                            ibv_wc_read_flow_tag(cqx), unsigned(tm.priv));
            }
        } while (ibv_next_poll(cqx) == 0);
        ibv_end_poll(cqx);
    }
    ibv_destroy_cq(ibv_cq_ex_to_cq(cqx));
}

void post(ibv_context *ctx, ibv_pd *pd, ibv_cq *cq, ibv_srq *srq, ibv_mr *mr, ibv_ah *ah, ibv_mw *mw)
{
    ibv_qp_init_attr_ex qp_attr = {};
    qp_attr.send_cq = cq;
    qp_attr.recv_cq = cq;
    qp_attr.qp_type = IBV_QPT_RC;
    qp_attr.cap.max_send_wr = qp_attr.cap.max_recv_wr = 16;
    qp_attr.cap.max_send_sge = qp_attr.cap.max_recv_sge = 1;
    qp_attr.pd = pd;
    qp_attr.comp_mask = IBV_QP_INIT_ATTR_PD | IBV_QP_INIT_ATTR_SEND_OPS_FLAGS;
    qp_attr.send_ops_flags = IBV_QP_EX_WITH_SEND | IBV_QP_EX_WITH_RDMA_WRITE |
                             IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP | IBV_QP_EX_WITH_FLUSH;
    ibv_qp *qp = ibv_create_qp_ex(ctx, &qp_attr);
    if (!qp)
        return;
    std::printf("%d\n", state_rank(qp));
    if (qp->state == IBV_QPS_RESET) {
        ibv_qp_attr attr = {};
        attr.qp_state = IBV_QPS_INIT;
        attr.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
        ibv_modify_qp(qp, &attr, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
    }

    ibv_sge sge = {};
    sge.addr = reinterpret_cast<uintptr_t>(mr->addr);
    sge.length = 64;
    sge.lkey = mr->lkey;
    ibv_send_wr wr = {};
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = IBV_WR_RDMA_WRITE_WITH_IMM;
    wr.send_flags = IBV_SEND_SIGNALED | IBV_SEND_INLINE;
    wr.imm_data = htobe32(7);
    ibv_send_wr *bad_send = nullptr;
    ibv_post_send(qp, &wr, &bad_send);
    ibv_recv_wr rwr = {};
    rwr.sg_list = &sge;
    rwr.num_sge = 1;
    ibv_recv_wr *bad_recv = nullptr;
    ibv_post_recv(qp, &rwr, &bad_recv);
    ibv_post_srq_recv(srq, &rwr, &bad_recv);
    ibv_ops_wr op = {};
    op.opcode = IBV_WR_TAG_ADD;
    ibv_ops_wr *bad_op = nullptr;
    ibv_post_srq_ops(srq, &op, &bad_op);

    ibv_qp_ex *qpx = ibv_qp_to_qp_ex(qp);
    ibv_wr_start(qpx);
    qpx->wr_id = 1;
    qpx->wr_flags = IBV_SEND_SIGNALED | IBV_SEND_FENCE;
    ibv_wr_send(qpx);
    ibv_wr_set_sge(qpx, mr->lkey, sge.addr, 64);
    ibv_wr_send_imm(qpx, htobe32(1));
    ibv_wr_set_sge_list(qpx, 1, &sge);
    ibv_wr_send_inv(qpx, 0x100);
    ibv_data_buf data = { mr->addr, 8 };
    ibv_wr_set_inline_data_list(qpx, 1, &data);
    ibv_wr_send_tso(qpx, mr->addr, 40, 1460);
    ibv_wr_set_inline_data(qpx, mr->addr, 8);
    ibv_wr_rdma_write(qpx, 0x10, 0x2000);
    ibv_wr_rdma_write_imm(qpx, 0x10, 0x2000, htobe32(2));
    ibv_wr_rdma_read(qpx, 0x10, 0x2000);
    ibv_wr_atomic_cmp_swp(qpx, 0x10, 0x2000, 1, 2);
    ibv_wr_atomic_fetch_add(qpx, 0x10, 0x2000, 1);
    char atomic[16] = {};
    ibv_wr_atomic_write(qpx, 0x10, 0x2000, atomic);
    ibv_wr_flush(qpx, 0x10, 0x2000, 64, IBV_FLUSH_GLOBAL, IBV_FLUSH_RANGE);
    ibv_mw_bind_info bind = {};
    bind.mr = mr;
    bind.mw_access_flags = IBV_ACCESS_REMOTE_WRITE;
    ibv_wr_bind_mw(qpx, mw, ibv_inc_rkey(mw->rkey), &bind);
    ibv_wr_local_inv(qpx, mw->rkey);
    ibv_wr_set_ud_addr(qpx, ah, 2, 0x11111111);
    ibv_wr_set_xrc_srqn(qpx, 3);
    if (ibv_wr_complete(qpx))
        ibv_wr_abort(qpx);

    ibv_qp_rate_limit_attr rl = {};
    ibv_modify_qp_rate_limit(qp, &rl);
    ibv_flow_attr flow_attr = {};
    flow_attr.type = IBV_FLOW_ATTR_NORMAL;
    flow_attr.size = sizeof(flow_attr);
    if (ibv_flow *flow = ibv_create_flow(qp, &flow_attr))
        ibv_destroy_flow(flow);
    ibv_destroy_qp(qp);
}

void objects(ibv_context *ctx, ibv_pd *pd, ibv_cq *cq)
{
    ibv_srq_init_attr_ex srq_attr = {};
    srq_attr.comp_mask = IBV_SRQ_INIT_ATTR_PD | IBV_SRQ_INIT_ATTR_TYPE;
    srq_attr.srq_type = IBV_SRQT_BASIC;
    srq_attr.pd = pd;
    if (ibv_srq *srq = ibv_create_srq_ex(ctx, &srq_attr)) {
        uint32_t num = 0;
        ibv_get_srq_num(srq, &num);
        ibv_destroy_srq(srq);
    }

    ibv_xrcd_init_attr xrcd_attr = {};
    xrcd_attr.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;
    xrcd_attr.fd = -1;
    if (ibv_xrcd *xrcd = ibv_open_xrcd(ctx, &xrcd_attr))
        ibv_close_xrcd(xrcd);

    ibv_qp_open_attr open_attr = {};
    open_attr.comp_mask = IBV_QP_OPEN_ATTR_NUM | IBV_QP_OPEN_ATTR_TYPE;
    open_attr.qp_type = IBV_QPT_XRC_RECV;
    if (ibv_qp *qp = ibv_open_qp(ctx, &open_attr))
        ibv_destroy_qp(qp);

    ibv_td_init_attr td_attr = {};
    if (ibv_td *td = ibv_alloc_td(ctx, &td_attr)) {
        ibv_parent_domain_init_attr pd_attr = {};
        pd_attr.pd = pd;
        pd_attr.td = td;
        pd_attr.comp_mask = IBV_PARENT_DOMAIN_INIT_ATTR_ALLOCATORS;
        pd_attr.alloc = [](ibv_pd *, void *, size_t, size_t, uint64_t) -> void * {
            return IBV_ALLOCATOR_USE_DEFAULT;
        };
        if (ibv_pd *parent = ibv_alloc_parent_domain(ctx, &pd_attr))
            ibv_dealloc_pd(parent);
        ibv_dealloc_td(td);
    }

    ibv_wq_init_attr wq_attr = {};
    wq_attr.wq_type = IBV_WQT_RQ;
    wq_attr.pd = pd;
    wq_attr.cq = cq;
    ibv_wq *wq = ibv_create_wq(ctx, &wq_attr);
    if (wq) {
        ibv_wq_attr mod = {};
        mod.attr_mask = IBV_WQ_ATTR_STATE;
        mod.wq_state = IBV_WQS_RDY;
        ibv_modify_wq(wq, &mod);
        ibv_recv_wr rwr = {};
        ibv_recv_wr *bad = nullptr;
        ibv_post_wq_recv(wq, &rwr, &bad);
        ibv_rwq_ind_table_init_attr table_attr = {};
        table_attr.ind_tbl = &wq;
        if (ibv_rwq_ind_table *table = ibv_create_rwq_ind_table(ctx, &table_attr))
            ibv_destroy_rwq_ind_table(table);
        ibv_destroy_wq(wq);
    }

    ibv_flow_action_esp_attr esp = {};
    if (ibv_flow_action *action = ibv_create_flow_action_esp(ctx, &esp)) {
        ibv_modify_flow_action_esp(action, &esp);
        ibv_destroy_flow_action(action);
    }

    ibv_counters_init_attr counters_attr = {};
    if (ibv_counters *counters = ibv_create_counters(ctx, &counters_attr)) {
        ibv_counter_attach_attr attach = {};
        attach.counter_desc = IBV_COUNTER_PACKETS;
        ibv_attach_counters_point_flow(counters, &attach, nullptr);
        uint64_t value[2];
        ibv_read_counters(counters, value, 2, IBV_READ_COUNTERS_ATTR_PREFER_CACHED);
        ibv_destroy_counters(counters);
    }
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 2)
        return 0;
    int n = 0;
    ibv_device **list = ibv_get_device_list(&n);
    if (!list || n == 0)
        return 1;
    ibv_context *ctx = ibv_open_device(list[0]);
    ibv_free_device_list(list);
    if (!ctx)
        return 1;
    ibv_pd *pd = ibv_alloc_pd(ctx);
    ibv_cq *cq = ibv_create_cq(ctx, 16, nullptr, nullptr, 0);
    static char buf[4096];
    memory(ctx, pd, buf, sizeof(buf), argc);
    queries(ctx);
    completion(ctx, cq);
    objects(ctx, pd, cq);
    post(ctx, pd, cq, nullptr, nullptr, nullptr, nullptr);
    (void)argv;
    ibv_destroy_cq(cq);
    ibv_dealloc_pd(pd);
    ibv_close_device(ctx);
    return 0;
}
