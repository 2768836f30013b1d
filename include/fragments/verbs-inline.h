/*
 * The inline layer of verbs.h: the verbs rdma-core's API defines in its header rather than in the
 * library, and the macros that redirect four exported names. Hand-written in this project's own
 * words; tools/headers appends it to the generated header, followed by the generated
 * forwarders of `struct ibv_qp_ex` (ibv_wr_*) and `struct ibv_cq_ex` (ibv_start_poll, ibv_wc_read_*).
 *
 * This code is compiled into the calling program, so it is ABI: a binary built against it must run
 * unchanged under rdma-core's libibverbs and under ours, with providers of ABI 34 and of ABI 65.
 * Hence two rules:
 * - It reads only members whose place does not depend on the provider ABI: the public objects'
 *   own members, `ibv_context.ops` (the data path), and the `verbs_context` slots from
 *   `query_port` to `context`. A provider's `verbs_context` ends with the `ibv_context`, and those
 *   slots sit at the same distance before it in both layouts (ABI 65 put its six new ops in
 *   front, where a v34 context has none; the library reaches those through exported verbs).
 * - A `verbs_context` slot is used only when the context reaches back to it: `sz` is the size of
 *   the provider's `verbs_context`, so slot X exists when
 *   sz >= sizeof(struct verbs_context) - offsetof(struct verbs_context, X), and only then is the
 *   slot's pointer looked at. A missing op gives the error each verb documents (EOPNOTSUPP,
 *   as errno for the verbs that return a pointer).
 */

/* Whether a structure of `sz` bytes reaches member `fld` of `type` (an extensible structure's
 * caller-given size against a member the library wants to fill). */
#define vext_field_avail(type, fld, sz) (offsetof(type, fld) < (sz))

/* `ibv_context.abi_compat` of a context that ends a `struct verbs_context`. */
#define __VERBS_ABI_IS_EXTENDED ((void *)UINTPTR_MAX)

/* `ibv_parent_domain_init_attr.alloc` may return this: "allocate as without a parent domain". */
#define IBV_ALLOCATOR_USE_DEFAULT ((void *)-1)

/* The `struct verbs_context` that holds `ctx`, or NULL for a context without one. */
static inline struct verbs_context *verbs_get_ctx(struct ibv_context *ctx)
{
	if (ctx->abi_compat != __VERBS_ABI_IS_EXTENDED)
		return NULL;
	return (struct verbs_context *)((uintptr_t)ctx - offsetof(struct verbs_context, context));
}

/* The `struct verbs_context` of `ctx` when its provider's context reaches the slot at byte
 * `slot` of our layout and that slot holds an op; NULL otherwise. The slot is read with memcpy
 * (every op is a function pointer of one size) so that one helper serves every op. */
static inline struct verbs_context *__ibv_vctx_with_op(struct ibv_context *ctx, size_t slot)
{
	struct verbs_context *vctx = verbs_get_ctx(ctx);
	void (*op)(void);

	if (!vctx || vctx->sz < sizeof(*vctx) - slot)
		return NULL;
	memcpy(&op, (const char *)vctx + slot, sizeof(op));
	return op ? vctx : NULL;
}

/* The `struct verbs_context` of `ctx` if it has the op `op` (a member name), else NULL. */
#define verbs_get_ctx_op(ctx, op) __ibv_vctx_with_op(ctx, offsetof(struct verbs_context, op))

/* rdma-core links providers into a static libibverbs when RDMA_STATIC_PROVIDERS names them; this
 * library is shared only and loads the distribution's provider plugins at run time. */
#ifdef RDMA_STATIC_PROVIDERS
#error "RDMA_STATIC_PROVIDERS: this libibverbs is a shared library only; build without it (providers are loaded at run time)"
#endif

/* ---- data path: ibv_context.ops, the same slots in every libibverbs ---- */

static inline int ibv_post_send(struct ibv_qp *qp, struct ibv_send_wr *wr, struct ibv_send_wr **bad_wr)
{
	return qp->context->ops.post_send(qp, wr, bad_wr);
}

static inline int ibv_post_recv(struct ibv_qp *qp, struct ibv_recv_wr *wr, struct ibv_recv_wr **bad_wr)
{
	return qp->context->ops.post_recv(qp, wr, bad_wr);
}

static inline int ibv_post_srq_recv(struct ibv_srq *srq, struct ibv_recv_wr *recv_wr,
				    struct ibv_recv_wr **bad_recv_wr)
{
	return srq->context->ops.post_srq_recv(srq, recv_wr, bad_recv_wr);
}

static inline int ibv_poll_cq(struct ibv_cq *cq, int num_entries, struct ibv_wc *wc)
{
	return cq->context->ops.poll_cq(cq, num_entries, wc);
}

static inline int ibv_req_notify_cq(struct ibv_cq *cq, int solicited_only)
{
	return cq->context->ops.req_notify_cq(cq, solicited_only);
}

static inline int ibv_post_wq_recv(struct ibv_wq *wq, struct ibv_recv_wr *recv_wr,
				   struct ibv_recv_wr **bad_recv_wr)
{
	return wq->post_recv(wq, recv_wr, bad_recv_wr);
}

/* The extended CQ is an ibv_cq at its start. */
static inline struct ibv_cq *ibv_cq_ex_to_cq(struct ibv_cq_ex *cq)
{
	return (struct ibv_cq *)cq;
}

/* An invalidated rkey travels where the immediate data does, in host order. */
static inline uint32_t ibv_wc_read_invalidated_rkey(struct ibv_cq_ex *cq)
{
	return cq->read_imm_data(cq);
}

/* ---- memory windows: ibv_context.ops ---- */

static inline struct ibv_mw *ibv_alloc_mw(struct ibv_pd *pd, enum ibv_mw_type type)
{
	if (!pd->context->ops.alloc_mw) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	return pd->context->ops.alloc_mw(pd, type);
}

static inline int ibv_dealloc_mw(struct ibv_mw *mw)
{
	return mw->context->ops.dealloc_mw(mw);
}

/* The rkey with its low byte (the key part a consumer owns) advanced by one, wrapping. */
static inline uint32_t ibv_inc_rkey(uint32_t rkey)
{
	return (rkey & 0xffffff00u) | ((rkey + 1) & 0xffu);
}

/* Binds a type 1 window; a type 2 window is bound by a work request (IBV_WR_BIND_MW). */
static inline int ibv_bind_mw(struct ibv_qp *qp, struct ibv_mw *mw, struct ibv_mw_bind *mw_bind)
{
	const struct ibv_mw_bind_info *info = &mw_bind->bind_info;

	if (mw->type != IBV_MW_TYPE_1)
		return EINVAL;
	if (info->mr == NULL) {
		/* unbinding: no range may be given */
		if (info->addr != 0 || info->length != 0)
			return EINVAL;
	} else if (info->mr->pd != mw->pd) {
		return EPERM;
	}
	return mw->context->ops.bind_mw(qp, mw, mw_bind);
}

/* ---- redirecting macros ---- */

/* ibv_query_port: the provider's query_port op, told our size of ibv_port_attr, where the
 * context has one; else the exported verb, which fills only the older part (zeroed first). */
static inline int ___ibv_query_port(struct ibv_context *context, uint8_t port_num,
				    struct ibv_port_attr *port_attr)
{
	struct verbs_context *vctx = verbs_get_ctx_op(context, query_port);

	if (vctx)
		return vctx->query_port(context, port_num, port_attr, sizeof(*port_attr));
	memset(port_attr, 0, sizeof(*port_attr));
	return (ibv_query_port)(context, port_num, (struct _compat_ibv_port_attr *)port_attr);
}

#define ibv_query_port(context, port_num, port_attr) ___ibv_query_port(context, port_num, port_attr)

/* ibv_reg_mr / ibv_reg_mr_iova: flags known at compile time to lie below the optional range go
 * to the exported verb of the same name; anything else (optional flags, or flags only known at
 * run time) to ibv_reg_mr_iova2, which drops optional flags the kernel does not know. The flags
 * are compared as unsigned int so that C++20 sees no arithmetic between two enumeration types. */
#define __IBV_ACCESS_NO_OPTIONAL(access) \
	(((unsigned int)(access) & (unsigned int)IBV_ACCESS_OPTIONAL_RANGE) == 0)

__attribute__((__always_inline__)) static inline struct ibv_mr *
__ibv_reg_mr(struct ibv_pd *pd, void *addr, size_t length, unsigned int access, int plain)
{
	if (plain && __IBV_ACCESS_NO_OPTIONAL(access))
		return (ibv_reg_mr)(pd, addr, length, (int)access);
	return ibv_reg_mr_iova2(pd, addr, length, (uint64_t)(uintptr_t)addr, access);
}

__attribute__((__always_inline__)) static inline struct ibv_mr *
__ibv_reg_mr_iova(struct ibv_pd *pd, void *addr, size_t length, uint64_t iova, unsigned int access,
		  int plain)
{
	if (plain && __IBV_ACCESS_NO_OPTIONAL(access))
		return (ibv_reg_mr_iova)(pd, addr, length, iova, (int)access);
	return ibv_reg_mr_iova2(pd, addr, length, iova, access);
}

#define ibv_reg_mr(pd, addr, length, access)                                                      \
	__ibv_reg_mr(pd, addr, length, (unsigned int)(access),                                    \
		     __builtin_constant_p(__IBV_ACCESS_NO_OPTIONAL(access)))

#define ibv_reg_mr_iova(pd, addr, length, iova, access)                                           \
	__ibv_reg_mr_iova(pd, addr, length, iova, (unsigned int)(access),                         \
			  __builtin_constant_p(__IBV_ACCESS_NO_OPTIONAL(access)))

/* ---- size-passing wrappers of exported verbs ---- */

static inline int ibv_query_gid_ex(struct ibv_context *context, uint32_t port_num,
				   uint32_t gid_index, struct ibv_gid_entry *entry, uint32_t flags)
{
	return _ibv_query_gid_ex(context, port_num, gid_index, entry, flags, sizeof(*entry));
}

static inline ssize_t ibv_query_gid_table(struct ibv_context *context,
					  struct ibv_gid_entry *entries, size_t max_entries,
					  uint32_t flags)
{
	return _ibv_query_gid_table(context, entries, max_entries, flags, sizeof(*entries));
}

static inline int ibv_query_comp_cntr_caps(struct ibv_context *context,
					   struct ibv_comp_cntr_caps *caps)
{
	return _ibv_query_comp_cntr_caps(context, caps, sizeof(*caps));
}

/* ---- verbs_context ops ---- */

/* A verb returning 0 or an errno: the op's answer, EOPNOTSUPP without the op. */
#define __IBV_VCTX_CALL_RET(ctx, op, ...)                                                        \
	struct verbs_context *vctx = verbs_get_ctx_op(ctx, op);                                   \
	if (!vctx)                                                                                \
		return EOPNOTSUPP;                                                                \
	return vctx->op(__VA_ARGS__)

/* A verb returning an object: the op's answer, NULL with errno EOPNOTSUPP without the op. */
#define __IBV_VCTX_CALL_PTR(ctx, op, ...)                                                        \
	struct verbs_context *vctx = verbs_get_ctx_op(ctx, op);                                   \
	if (!vctx) {                                                                              \
		errno = EOPNOTSUPP;                                                               \
		return NULL;                                                                      \
	}                                                                                         \
	return vctx->op(__VA_ARGS__)

static inline int ibv_query_device_ex(struct ibv_context *context,
				      const struct ibv_query_device_ex_input *input,
				      struct ibv_device_attr_ex *attr)
{
	struct verbs_context *vctx;
	int ret;

	if (input && input->comp_mask)
		return EINVAL;
	vctx = verbs_get_ctx_op(context, query_device_ex);
	if (vctx) {
		ret = vctx->query_device_ex(context, input, attr, sizeof(*attr));
		if (ret != EOPNOTSUPP && ret != ENOSYS)
			return ret;
	}
	/* no extended query: the basic attributes, the rest zero */
	memset(attr, 0, sizeof(*attr));
	return ibv_query_device(context, &attr->orig_attr);
}

static inline int ibv_query_rt_values_ex(struct ibv_context *context, struct ibv_values_ex *values)
{
	__IBV_VCTX_CALL_RET(context, query_rt_values, context, values);
}

static inline struct ibv_cq_ex *ibv_create_cq_ex(struct ibv_context *context,
						 struct ibv_cq_init_attr_ex *cq_attr)
{
	__IBV_VCTX_CALL_PTR(context, create_cq_ex, context, cq_attr);
}

static inline int ibv_modify_cq(struct ibv_cq *cq, struct ibv_modify_cq_attr *attr)
{
	__IBV_VCTX_CALL_RET(cq->context, modify_cq, cq, attr);
}

/* An SRQ init_attr_ex asking for nothing beyond a basic SRQ on a PD is served by ibv_create_srq
 * (its leading members are struct ibv_srq_init_attr's). */
static inline struct ibv_srq *ibv_create_srq_ex(struct ibv_context *context,
						struct ibv_srq_init_attr_ex *srq_init_attr_ex)
{
	const uint32_t basic = (uint32_t)IBV_SRQ_INIT_ATTR_PD | (uint32_t)IBV_SRQ_INIT_ATTR_TYPE;
	uint32_t mask = srq_init_attr_ex->comp_mask;

	if ((mask & ~basic) == 0 && (mask & (uint32_t)IBV_SRQ_INIT_ATTR_PD) &&
	    (!(mask & (uint32_t)IBV_SRQ_INIT_ATTR_TYPE) || srq_init_attr_ex->srq_type == IBV_SRQT_BASIC))
		return ibv_create_srq(srq_init_attr_ex->pd,
				      (struct ibv_srq_init_attr *)(void *)srq_init_attr_ex);
	{
		__IBV_VCTX_CALL_PTR(context, create_srq_ex, context, srq_init_attr_ex);
	}
}

static inline int ibv_get_srq_num(struct ibv_srq *srq, uint32_t *srq_num)
{
	__IBV_VCTX_CALL_RET(srq->context, get_srq_num, srq, srq_num);
}

/* Without the op nothing is posted: *bad_op is the first op. */
static inline int ibv_post_srq_ops(struct ibv_srq *srq, struct ibv_ops_wr *op,
				   struct ibv_ops_wr **bad_op)
{
	struct verbs_context *vctx = verbs_get_ctx_op(srq->context, post_srq_ops);

	if (!vctx) {
		*bad_op = op;
		return EOPNOTSUPP;
	}
	return vctx->post_srq_ops(srq, op, bad_op);
}

/* An init_attr_ex with only a PD is served by ibv_create_qp (its leading members are struct
 * ibv_qp_init_attr's). */
static inline struct ibv_qp *ibv_create_qp_ex(struct ibv_context *context,
					      struct ibv_qp_init_attr_ex *qp_init_attr_ex)
{
	if (qp_init_attr_ex->comp_mask == (uint32_t)IBV_QP_INIT_ATTR_PD)
		return ibv_create_qp(qp_init_attr_ex->pd,
				     (struct ibv_qp_init_attr *)(void *)qp_init_attr_ex);
	{
		__IBV_VCTX_CALL_PTR(context, create_qp_ex, context, qp_init_attr_ex);
	}
}

static inline struct ibv_qp *ibv_open_qp(struct ibv_context *context,
					 struct ibv_qp_open_attr *qp_open_attr)
{
	__IBV_VCTX_CALL_PTR(context, open_qp, context, qp_open_attr);
}

static inline int ibv_modify_qp_rate_limit(struct ibv_qp *qp, struct ibv_qp_rate_limit_attr *attr)
{
	__IBV_VCTX_CALL_RET(qp->context, modify_qp_rate_limit, qp, attr);
}

static inline struct ibv_xrcd *ibv_open_xrcd(struct ibv_context *context,
					     struct ibv_xrcd_init_attr *xrcd_init_attr)
{
	__IBV_VCTX_CALL_PTR(context, open_xrcd, context, xrcd_init_attr);
}

/* An XRCD exists only where open_xrcd does, and with it close_xrcd. Divergence: rdma-core calls
 * the slot unchecked; a context without it gives EOPNOTSUPP here instead of a crash. */
static inline int ibv_close_xrcd(struct ibv_xrcd *xrcd)
{
	__IBV_VCTX_CALL_RET(xrcd->context, close_xrcd, xrcd);
}

static inline struct ibv_td *ibv_alloc_td(struct ibv_context *context,
					  struct ibv_td_init_attr *init_attr)
{
	__IBV_VCTX_CALL_PTR(context, alloc_td, context, init_attr);
}

static inline int ibv_dealloc_td(struct ibv_td *td)
{
	__IBV_VCTX_CALL_RET(td->context, dealloc_td, td);
}

static inline struct ibv_pd *ibv_alloc_parent_domain(struct ibv_context *context,
						     struct ibv_parent_domain_init_attr *attr)
{
	__IBV_VCTX_CALL_PTR(context, alloc_parent_domain, context, attr);
}

/* The WQ's core fields (user context, event count, lock) are set here, as for a CQ by the
 * library. */
static inline struct ibv_wq *ibv_create_wq(struct ibv_context *context,
					   struct ibv_wq_init_attr *wq_init_attr)
{
	struct verbs_context *vctx = verbs_get_ctx_op(context, create_wq);
	struct ibv_wq *wq;

	if (!vctx) {
		errno = EOPNOTSUPP;
		return NULL;
	}
	wq = vctx->create_wq(context, wq_init_attr);
	if (wq) {
		wq->wq_context = wq_init_attr->wq_context;
		wq->events_completed = 0;
		pthread_mutex_init(&wq->mutex, NULL);
		pthread_cond_init(&wq->cond, NULL);
	}
	return wq;
}

static inline int ibv_modify_wq(struct ibv_wq *wq, struct ibv_wq_attr *wq_attr)
{
	__IBV_VCTX_CALL_RET(wq->context, modify_wq, wq, wq_attr);
}

static inline int ibv_destroy_wq(struct ibv_wq *wq)
{
	__IBV_VCTX_CALL_RET(wq->context, destroy_wq, wq);
}

static inline struct ibv_rwq_ind_table *
ibv_create_rwq_ind_table(struct ibv_context *context, struct ibv_rwq_ind_table_init_attr *init_attr)
{
	__IBV_VCTX_CALL_PTR(context, create_rwq_ind_table, context, init_attr);
}

static inline int ibv_destroy_rwq_ind_table(struct ibv_rwq_ind_table *rwq_ind_table)
{
	__IBV_VCTX_CALL_RET(rwq_ind_table->context, destroy_rwq_ind_table, rwq_ind_table);
}

static inline struct ibv_flow *ibv_create_flow(struct ibv_qp *qp, struct ibv_flow_attr *flow)
{
	__IBV_VCTX_CALL_PTR(qp->context, ibv_create_flow, qp, flow);
}

static inline int ibv_destroy_flow(struct ibv_flow *flow_id)
{
	__IBV_VCTX_CALL_RET(flow_id->context, ibv_destroy_flow, flow_id);
}

static inline struct ibv_flow_action *
ibv_create_flow_action_esp(struct ibv_context *ctx, struct ibv_flow_action_esp_attr *esp)
{
	__IBV_VCTX_CALL_PTR(ctx, create_flow_action_esp, ctx, esp);
}

static inline int ibv_modify_flow_action_esp(struct ibv_flow_action *action,
					     struct ibv_flow_action_esp_attr *esp)
{
	__IBV_VCTX_CALL_RET(action->context, modify_flow_action_esp, action, esp);
}

static inline int ibv_destroy_flow_action(struct ibv_flow_action *action)
{
	__IBV_VCTX_CALL_RET(action->context, destroy_flow_action, action);
}

static inline int ibv_advise_mr(struct ibv_pd *pd, enum ibv_advise_mr_advice advice,
				uint32_t flags, struct ibv_sge *sg_list, uint32_t num_sge)
{
	__IBV_VCTX_CALL_RET(pd->context, advise_mr, pd, advice, flags, sg_list, num_sge);
}

static inline struct ibv_mr *ibv_alloc_null_mr(struct ibv_pd *pd)
{
	__IBV_VCTX_CALL_PTR(pd->context, alloc_null_mr, pd);
}

static inline struct ibv_dm *ibv_alloc_dm(struct ibv_context *context, struct ibv_alloc_dm_attr *attr)
{
	__IBV_VCTX_CALL_PTR(context, alloc_dm, context, attr);
}

static inline int ibv_free_dm(struct ibv_dm *dm)
{
	__IBV_VCTX_CALL_RET(dm->context, free_dm, dm);
}

static inline struct ibv_mr *ibv_reg_dm_mr(struct ibv_pd *pd, struct ibv_dm *dm, uint64_t dm_offset,
					   size_t length, unsigned int access)
{
	__IBV_VCTX_CALL_PTR(pd->context, reg_dm_mr, pd, dm, dm_offset, length, access);
}

/* Device memory is copied by the DM object's own functions. */
static inline int ibv_memcpy_to_dm(struct ibv_dm *dm, uint64_t dm_offset, const void *host_addr,
				   size_t length)
{
	return dm->memcpy_to_dm(dm, dm_offset, host_addr, length);
}

static inline int ibv_memcpy_from_dm(void *host_addr, struct ibv_dm *dm, uint64_t dm_offset,
				     size_t length)
{
	return dm->memcpy_from_dm(host_addr, dm, dm_offset, length);
}

static inline struct ibv_counters *ibv_create_counters(struct ibv_context *context,
						       struct ibv_counters_init_attr *init_attr)
{
	__IBV_VCTX_CALL_PTR(context, create_counters, context, init_attr);
}

static inline int ibv_destroy_counters(struct ibv_counters *counters)
{
	__IBV_VCTX_CALL_RET(counters->context, destroy_counters, counters);
}

static inline int ibv_attach_counters_point_flow(struct ibv_counters *counters,
						 struct ibv_counter_attach_attr *attr,
						 struct ibv_flow *flow)
{
	__IBV_VCTX_CALL_RET(counters->context, attach_counters_point_flow, counters, attr, flow);
}

static inline int ibv_read_counters(struct ibv_counters *counters, uint64_t *counters_value,
				    uint32_t ncounters, uint32_t flags)
{
	__IBV_VCTX_CALL_RET(counters->context, read_counters, counters, counters_value, ncounters,
			    flags);
}

#undef __IBV_VCTX_CALL_RET
#undef __IBV_VCTX_CALL_PTR

/* ---- pure helpers ---- */

/* Whether bit `qpt` of a capability mask (e.g. ibv_device_attr_ex.raw_packet_caps' QP types) is
 * set. Types beyond the mask's 32 bits are never set (rdma-core shifts out of range there). */
static inline int ibv_is_qpt_supported(uint32_t caps, enum ibv_qp_type qpt)
{
	return (unsigned int)qpt < 32 && ((caps >> (unsigned int)qpt) & 1u);
}

/* RoCE v2's UDP source port for a flow label: the label's low 14 bits folded with its next 6,
 * within the port range IB_ROCE_UDP_ENCAP_VALID_PORT_MIN..MAX. */
static inline uint16_t ibv_flow_label_to_udp_sport(uint32_t fl)
{
	uint32_t low = fl & 0x3fffu, high = fl & 0xfc000u;

	return (uint16_t)((low ^ (high >> 14)) | IB_ROCE_UDP_ENCAP_VALID_PORT_MIN);
}
