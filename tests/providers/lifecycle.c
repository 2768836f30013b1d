/* The provider lifecycle: every control verb a program runs on a device, once, printing each
 * result (values, never pointers) so that two runs can be diffed. Built against the system's
 * rdma-core 44 headers and run under the system library and under ours, on the uverbs emulator
 * (tests/providers/emu). A step that fails is printed with its errno and the steps that need its
 * object are skipped; everything that was made is destroyed again at the end, in reverse order.
 *
 *   lifecycle [-q] [FAMILY]   -q: print only the step results, not the attributes; FAMILY: instead
 *                             of the lifecycle, one family's (family_*.c: xrc, dm, mr,
 *                             mcast, cqmod, wq, flow, ex, kpost, import; dv in lifecycle-dv)
 *
 * The memory registered lives at a fixed address (FIXED_BASE), so the command stream shows the
 * same start address under both libraries.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lifecycle.h"

int quiet;

const char *ename(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";

	return n ? n : "?";
}

/* A verb's result: 0, or the errno it reported. */
void result(const char *step, int ret)
{
	printf("%s: %s\n", step, ename(ret));
}

/* A constructor's result: errno when it returned NULL. */
int made(const char *step, const void *obj)
{
	int e = errno;

	printf("%s: %s\n", step, obj ? "ok" : ename(e ? e : -1));
	return obj != NULL;
}

void skip(const char *step)
{
	printf("%s: skipped\n", step);
}

void family_pd_cq(struct ibv_context *ctx, struct ibv_pd **pd, struct ibv_cq **cq)
{
	errno = 0;
	*pd = ibv_alloc_pd(ctx);
	made("alloc_pd", *pd);
	errno = 0;
	*cq = ibv_create_cq(ctx, 16, NULL, NULL, 0);
	made("create_cq", *cq);
}

struct ibv_qp *family_qp(struct ibv_pd *pd, struct ibv_cq *cq, enum ibv_qp_type type, const char *name)
{
	struct ibv_qp_init_attr qa = {
		.send_cq = cq, .recv_cq = cq, .qp_type = type,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1 },
	};
	char step[64];
	struct ibv_qp *qp;

	snprintf(step, sizeof(step), "create_qp %s", name);
	if (!pd || !cq) {
		skip(step);
		return NULL;
	}
	errno = 0;
	qp = ibv_create_qp(pd, &qa);
	made(step, qp);
	return qp;
}

static void show_device(const struct ibv_device_attr *a)
{
	SHOW("fw_ver=%s node_guid=%016llx sys_image_guid=%016llx", a->fw_ver,
	     (unsigned long long)a->node_guid, (unsigned long long)a->sys_image_guid);
	SHOW("max_mr_size=%#llx page_size_cap=%#llx vendor_id=%#x vendor_part_id=%u hw_ver=%u",
	     (unsigned long long)a->max_mr_size, (unsigned long long)a->page_size_cap, a->vendor_id,
	     a->vendor_part_id, a->hw_ver);
	SHOW("max_qp=%d max_qp_wr=%d device_cap_flags=%#x max_sge=%d max_sge_rd=%d max_cq=%d max_cqe=%d",
	     a->max_qp, a->max_qp_wr, a->device_cap_flags, a->max_sge, a->max_sge_rd, a->max_cq, a->max_cqe);
	SHOW("max_mr=%d max_pd=%d max_qp_rd_atom=%d max_ee_rd_atom=%d max_res_rd_atom=%d max_qp_init_rd_atom=%d",
	     a->max_mr, a->max_pd, a->max_qp_rd_atom, a->max_ee_rd_atom, a->max_res_rd_atom,
	     a->max_qp_init_rd_atom);
	SHOW("atomic_cap=%d max_ee=%d max_rdd=%d max_mw=%d max_raw_ipv6_qp=%d max_raw_ethy_qp=%d",
	     a->atomic_cap, a->max_ee, a->max_rdd, a->max_mw, a->max_raw_ipv6_qp, a->max_raw_ethy_qp);
	SHOW("max_mcast_grp=%d max_mcast_qp_attach=%d max_total_mcast_qp_attach=%d max_ah=%d",
	     a->max_mcast_grp, a->max_mcast_qp_attach, a->max_total_mcast_qp_attach, a->max_ah);
	SHOW("max_srq=%d max_srq_wr=%d max_srq_sge=%d max_pkeys=%u local_ca_ack_delay=%u phys_port_cnt=%u",
	     a->max_srq, a->max_srq_wr, a->max_srq_sge, a->max_pkeys, a->local_ca_ack_delay,
	     a->phys_port_cnt);
}

static void show_device_ex(const struct ibv_device_attr_ex *a)
{
	show_device(&a->orig_attr);
	SHOW("comp_mask=%#x odp.general_caps=%#llx odp.rc=%#x odp.uc=%#x odp.ud=%#x", a->comp_mask,
	     (unsigned long long)a->odp_caps.general_caps, a->odp_caps.per_transport_caps.rc_odp_caps,
	     a->odp_caps.per_transport_caps.uc_odp_caps, a->odp_caps.per_transport_caps.ud_odp_caps);
	SHOW("completion_timestamp_mask=%#llx hca_core_clock=%llu device_cap_flags_ex=%#llx",
	     (unsigned long long)a->completion_timestamp_mask, (unsigned long long)a->hca_core_clock,
	     (unsigned long long)a->device_cap_flags_ex);
	SHOW("tso.max_tso=%u tso.supported_qpts=%#x rss.supported_qpts=%#x rss.max_rwq_indirection_tables=%u",
	     a->tso_caps.max_tso, a->tso_caps.supported_qpts, a->rss_caps.supported_qpts,
	     a->rss_caps.max_rwq_indirection_tables);
	SHOW("max_wq_type_rq=%u packet_pacing.qp_rate_limit_min=%u raw_packet_caps=%#x tm.max_num_tags=%u",
	     a->max_wq_type_rq, a->packet_pacing_caps.qp_rate_limit_min, a->raw_packet_caps,
	     a->tm_caps.max_num_tags);
	SHOW("cq_mod.max_cq_count=%u cq_mod.max_cq_period=%u max_dm_size=%llu pci_atomic=%#x/%#x/%#x xrc_odp=%#x",
	     a->cq_mod_caps.max_cq_count, a->cq_mod_caps.max_cq_period,
	     (unsigned long long)a->max_dm_size, a->pci_atomic_caps.fetch_add, a->pci_atomic_caps.swap,
	     a->pci_atomic_caps.compare_swap, a->xrc_odp_caps);
}

static void show_port(const struct ibv_port_attr *p)
{
	SHOW("state=%d max_mtu=%d active_mtu=%d gid_tbl_len=%d port_cap_flags=%#x max_msg_sz=%u",
	     p->state, p->max_mtu, p->active_mtu, p->gid_tbl_len, p->port_cap_flags, p->max_msg_sz);
	SHOW("bad_pkey_cntr=%u qkey_viol_cntr=%u pkey_tbl_len=%u lid=%u sm_lid=%u lmc=%u max_vl_num=%u",
	     p->bad_pkey_cntr, p->qkey_viol_cntr, p->pkey_tbl_len, p->lid, p->sm_lid, p->lmc, p->max_vl_num);
	SHOW("sm_sl=%u subnet_timeout=%u init_type_reply=%u active_width=%u active_speed=%u phys_state=%u",
	     p->sm_sl, p->subnet_timeout, p->init_type_reply, p->active_width, p->active_speed, p->phys_state);
	SHOW("link_layer=%u flags=%#x port_cap_flags2=%#x", p->link_layer, p->flags, p->port_cap_flags2);
}

static void show_caps(const char *what, const struct ibv_qp_cap *c)
{
	SHOW("%s max_send_wr=%u max_recv_wr=%u max_send_sge=%u max_recv_sge=%u max_inline_data=%u", what,
	     c->max_send_wr, c->max_recv_wr, c->max_send_sge, c->max_recv_sge, c->max_inline_data);
}

static int modify(struct ibv_qp *qp, const char *step, struct ibv_qp_attr *a, int mask)
{
	int ret = ibv_modify_qp(qp, a, mask);

	result(step, ret);
	return ret;
}

void connect_rc(struct ibv_qp *qp, const char *name, const struct ibv_port_attr *port,
		       const union ibv_gid *gid)
{
	struct ibv_qp_attr a;
	char step[64];

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = 1;
	a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
	snprintf(step, sizeof(step), "modify_qp %s INIT", name);
	if (modify(qp, step, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS))
		return;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	a.path_mtu = IBV_MTU_1024;
	a.dest_qp_num = qp->qp_num;
	a.rq_psn = 0x1234;
	a.max_dest_rd_atomic = 1;
	a.min_rnr_timer = 12;
	a.ah_attr.port_num = 1;
	if (port->link_layer == IBV_LINK_LAYER_INFINIBAND) {
		a.ah_attr.dlid = port->lid;
	} else {
		a.ah_attr.is_global = 1;
		a.ah_attr.grh.dgid = *gid;
		a.ah_attr.grh.sgid_index = 0;
		a.ah_attr.grh.hop_limit = 64;
	}
	snprintf(step, sizeof(step), "modify_qp %s RTR", name);
	if (modify(qp, step, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
				       IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER))
		return;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0x1234;
	a.timeout = 14;
	a.retry_cnt = 7;
	a.rnr_retry = 7;
	a.max_rd_atomic = 1;
	snprintf(step, sizeof(step), "modify_qp %s RTS", name);
	modify(qp, step, &a, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY |
				     IBV_QP_MAX_QP_RD_ATOMIC);
}

/* UD: RESET -> INIT -> RTR -> RTS. */
static void connect_ud(struct ibv_qp *qp, const char *name)
{
	struct ibv_qp_attr a;
	char step[64];

	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_INIT;
	a.pkey_index = 0;
	a.port_num = 1;
	a.qkey = 0x11111111;
	snprintf(step, sizeof(step), "modify_qp %s INIT", name);
	if (modify(qp, step, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_QKEY))
		return;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTR;
	snprintf(step, sizeof(step), "modify_qp %s RTR", name);
	if (modify(qp, step, &a, IBV_QP_STATE))
		return;
	memset(&a, 0, sizeof(a));
	a.qp_state = IBV_QPS_RTS;
	a.sq_psn = 0x222;
	snprintf(step, sizeof(step), "modify_qp %s RTS", name);
	modify(qp, step, &a, IBV_QP_STATE | IBV_QP_SQ_PSN);
}

/* The other control verbs on the objects made: queries, modifications, memory windows, GIDs. */
static void more_verbs(struct ibv_context *ctx, struct ibv_pd *pd, struct ibv_mr *mr, struct ibv_cq *cq,
		       struct ibv_srq *srq, struct ibv_qp *rc)
{
	int ret;

	if (rc) {
		struct ibv_qp_attr a;
		struct ibv_qp_init_attr ia;

		memset(&a, 0, sizeof(a));
		memset(&ia, 0, sizeof(ia));
		ret = ibv_query_qp(rc, &a, IBV_QP_STATE | IBV_QP_CAP | IBV_QP_PORT, &ia);
		result("query_qp RC", ret);
		if (!ret)
			SHOW("state=%d cur_state=%d port_num=%u qp_type=%d", a.qp_state, a.cur_qp_state, a.port_num,
			     ia.qp_type);
	}
	if (srq) {
		struct ibv_srq_attr sa = { .srq_limit = 4 };

		result("modify_srq", ibv_modify_srq(srq, &sa, IBV_SRQ_LIMIT));
		memset(&sa, 0, sizeof(sa));
		ret = ibv_query_srq(srq, &sa);
		result("query_srq", ret);
		if (!ret)
			SHOW("max_wr=%u max_sge=%u srq_limit=%u", sa.max_wr, sa.max_sge, sa.srq_limit);
	}
	if (cq) {
		ret = ibv_resize_cq(cq, 64);
		result("resize_cq", ret);
		SHOW("cqe=%d", cq->cqe);
	}
	if (pd) {
		struct ibv_mw *mw;

		errno = 0;
		mw = ibv_alloc_mw(pd, IBV_MW_TYPE_1);
		if (made("alloc_mw", mw))
			result("dealloc_mw", ibv_dealloc_mw(mw));
	}
	if (mr) {
		ret = ibv_rereg_mr(mr, IBV_REREG_MR_CHANGE_ACCESS, NULL, NULL, 0,
				   IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
		printf("rereg_mr: %d\n", ret);
		SHOW("lkey=%#x rkey=%#x", mr->lkey, mr->rkey);
	}
	{
		struct ibv_gid_entry e, t[4];
		ssize_t n;

		memset(&e, 0, sizeof(e));
		ret = ibv_query_gid_ex(ctx, 1, 0, &e, 0);
		result("query_gid_ex", ret);
		if (!ret)
			SHOW("gid=%016llx%016llx index=%u port=%u type=%u ndev_ifindex=%u",
			     (unsigned long long)be64toh(e.gid.global.subnet_prefix),
			     (unsigned long long)be64toh(e.gid.global.interface_id), e.gid_index, e.port_num,
			     e.gid_type, e.ndev_ifindex);
		memset(t, 0, sizeof(t));
		n = ibv_query_gid_table(ctx, t, 4, 0);
		printf("query_gid_table: %zd%s%s\n", n, n < 0 ? " " : "", n < 0 ? ename((int)-n) : "");
		for (ssize_t i = 0; i < n && i < 4; i++)
			SHOW("[%zd] index=%u type=%u ndev_ifindex=%u", i, t[i].gid_index, t[i].gid_type,
			     t[i].ndev_ifindex);
	}
}

/* Whether fd becomes readable within two seconds. */
static int readable(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, 2000) == 1;
}

/* Events the emulator raises (its test hooks, when it is there): a completion on the CQ, a port
 * event and a QP event, each read and acknowledged. */
static void events(struct ibv_context *ctx, struct ibv_comp_channel *ch, struct ibv_cq *cq, struct ibv_qp *rc)
{
	int (*comp)(int, uint32_t) = (int (*)(int, uint32_t))dlsym(RTLD_DEFAULT, "uvemu_comp_event");
	int (*async)(int, uint32_t, uint16_t, uint32_t) =
		(int (*)(int, uint32_t, uint16_t, uint32_t))dlsym(RTLD_DEFAULT, "uvemu_async_event");
	struct ibv_async_event ev;

	if (!comp || !async)
		return;
	if (ch && cq && !comp(ctx->cmd_fd, cq->handle)) {
		struct ibv_cq *ecq = NULL;
		void *ectx = NULL;

		if (readable(ch->fd)) {
			int ret = ibv_get_cq_event(ch, &ecq, &ectx);

			printf("get_cq_event: %d\n", ret);
			if (!ret) {
				SHOW("cq=%s", ecq == cq ? "cq" : "other");
				ibv_ack_cq_events(ecq, 1);
			}
		} else {
			printf("get_cq_event: no event\n");
		}
	}
	if (!async(ctx->cmd_fd, IBV_EVENT_PORT_ACTIVE, 0 /* UVERBS_OBJECT_DEVICE */, 1)) {
		if (readable(ctx->async_fd) && !ibv_get_async_event(ctx, &ev)) {
			printf("get_async_event: %s port=%d\n", ibv_event_type_str(ev.event_type), ev.element.port_num);
			ibv_ack_async_event(&ev);
		} else {
			printf("get_async_event: none\n");
		}
	}
	if (rc && !async(ctx->cmd_fd, IBV_EVENT_COMM_EST, 4 /* UVERBS_OBJECT_QP */, rc->handle)) {
		if (readable(ctx->async_fd) && !ibv_get_async_event(ctx, &ev)) {
			printf("get_async_event: %s qp=%s\n", ibv_event_type_str(ev.event_type),
			       ev.element.qp == rc ? "RC" : "other");
			ibv_ack_async_event(&ev);
		} else {
			printf("get_async_event: none\n");
		}
	}
}

int main(int argc, char **argv)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_device_attr dattr;
	struct ibv_device_attr_ex xattr;
	struct ibv_port_attr port;
	union ibv_gid gid;
	struct ibv_pd *pd = NULL;
	struct ibv_mr *mr = NULL;
	struct ibv_comp_channel *ch = NULL;
	struct ibv_cq *cq = NULL;
	struct ibv_cq_ex *cqx = NULL;
	struct ibv_srq *srq = NULL;
	struct ibv_qp *rc = NULL, *ud = NULL, *rcs = NULL;
	struct ibv_ah *ah = NULL;
	void *buf;
	int num = -1, ret;
	bool have_port = false;

	const char *family = NULL;

	quiet = argc > 1 && !strcmp(argv[1], "-q");
	if (argc > 1 + quiet)
		family = argv[1 + quiet];
	setvbuf(stdout, NULL, _IOLBF, 0);
	buf = mmap(FIXED_BASE, 1 << 16, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (buf != FIXED_BASE) {
		fprintf(stderr, "lifecycle: cannot map the buffer at %p\n", FIXED_BASE);
		return 2;
	}

	errno = 0;
	list = ibv_get_device_list(&num);
	if (!made("get_device_list", list))
		return 0;
	printf("  num=%d\n", num);
	if (num < 1) {
		ibv_free_device_list(list);
		return 0;
	}
	SHOW("name=%s node_type=%d transport=%d guid=%016llx", ibv_get_device_name(list[0]),
	     list[0]->node_type, list[0]->transport_type, (unsigned long long)ibv_get_device_guid(list[0]));

	errno = 0;
	ctx = ibv_open_device(list[0]);
	if (!made("open_device", ctx))
		goto free_list;
	SHOW("num_comp_vectors=%d", ctx->num_comp_vectors);
	if (family) {
		if (!strcmp(family, "xrc"))
			family_xrc(ctx);
		else if (!strcmp(family, "dm"))
			family_dm(ctx);
		else if (!strcmp(family, "mr"))
			family_mr(ctx);
		else if (!strcmp(family, "mcast"))
			family_mcast(ctx);
		else if (!strcmp(family, "cqmod"))
			family_cqmod(ctx);
		else if (!strcmp(family, "wq"))
			family_wq(ctx);
		else if (!strcmp(family, "flow"))
			family_flow(ctx);
		else if (!strcmp(family, "ex"))
			family_ex(ctx);
		else if (!strcmp(family, "kpost"))
			family_kpost(ctx);
		else if (!strcmp(family, "import"))
			family_import(ctx);
		else if (!strcmp(family, "dv") && family_dv)
			family_dv(ctx);
		else
			printf("family %s: unknown\n", family);
		result("close_device", ibv_close_device(ctx));
		goto free_list;
	}

	ret = ibv_query_device(ctx, &dattr);
	result("query_device", ret);
	if (!ret)
		show_device(&dattr);
	memset(&xattr, 0, sizeof(xattr));
	ret = ibv_query_device_ex(ctx, NULL, &xattr);
	result("query_device_ex", ret);
	if (!ret)
		show_device_ex(&xattr);
	memset(&port, 0, sizeof(port));
	ret = ibv_query_port(ctx, 1, &port);
	result("query_port", ret);
	if (!ret) {
		show_port(&port);
		have_port = true;
	}
	memset(&gid, 0, sizeof(gid));
	ret = ibv_query_gid(ctx, 1, 0, &gid);
	result("query_gid", ret);
	SHOW("gid=%016llx%016llx", (unsigned long long)be64toh(gid.global.subnet_prefix),
	     (unsigned long long)be64toh(gid.global.interface_id));

	errno = 0;
	pd = ibv_alloc_pd(ctx);
	if (made("alloc_pd", pd)) {
		errno = 0;
		mr = ibv_reg_mr(pd, buf, 4096, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ);
		if (made("reg_mr", mr))
			SHOW("lkey=%#x rkey=%#x length=%zu", mr->lkey, mr->rkey, mr->length);
	} else {
		skip("reg_mr");
	}

	errno = 0;
	ch = ibv_create_comp_channel(ctx);
	made("create_comp_channel", ch);
	errno = 0;
	cq = ibv_create_cq(ctx, 16, NULL, ch, 0);
	if (made("create_cq", cq)) {
		SHOW("cqe=%d", cq->cqe);
		result("req_notify_cq", ibv_req_notify_cq(cq, 0));
	}
	{
		struct ibv_cq_init_attr_ex ca = {
			.cqe = 32,
			.wc_flags = IBV_WC_EX_WITH_BYTE_LEN | IBV_WC_EX_WITH_QP_NUM | IBV_WC_EX_WITH_SRC_QP,
			.comp_mask = 0,
		};

		errno = 0;
		cqx = ibv_create_cq_ex(ctx, &ca);
		if (made("create_cq_ex", cqx))
			SHOW("cqe=%d", ibv_cq_ex_to_cq(cqx)->cqe);
	}

	if (pd) {
		struct ibv_srq_init_attr sa = { .attr = { .max_wr = 16, .max_sge = 1 } };

		errno = 0;
		srq = ibv_create_srq(pd, &sa);
		if (made("create_srq", srq))
			SHOW("max_wr=%u max_sge=%u", sa.attr.max_wr, sa.attr.max_sge);
	} else {
		skip("create_srq");
	}

	if (pd && cq) {
		struct ibv_qp_init_attr qa = {
			.send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 8, .max_recv_wr = 8, .max_send_sge = 1, .max_recv_sge = 1 },
		};

		errno = 0;
		rc = ibv_create_qp(pd, &qa);
		if (made("create_qp RC", rc)) {
			SHOW("qp_num=%#x state=%d", rc->qp_num, rc->state);
			show_caps("cap", &qa.cap);
		}
	} else {
		skip("create_qp RC");
	}

	if (pd && (cqx || cq)) {
		struct ibv_cq *ucq = cqx ? ibv_cq_ex_to_cq(cqx) : cq;
		struct ibv_qp_init_attr_ex qa = {
			.send_cq = ucq, .recv_cq = ucq, .qp_type = IBV_QPT_UD,
			.cap = { .max_send_wr = 16, .max_recv_wr = 16, .max_send_sge = 1, .max_recv_sge = 1 },
			.comp_mask = IBV_QP_INIT_ATTR_PD, .pd = pd,
		};

		errno = 0;
		ud = ibv_create_qp_ex(ctx, &qa);
		if (made("create_qp_ex UD", ud)) {
			SHOW("qp_num=%#x state=%d", ud->qp_num, ud->state);
			show_caps("cap", &qa.cap);
		}
	} else {
		skip("create_qp_ex UD");
	}

	if (pd && cq && srq) {
		struct ibv_qp_init_attr qa = {
			.send_cq = cq, .recv_cq = cq, .srq = srq, .qp_type = IBV_QPT_RC,
			.cap = { .max_send_wr = 4, .max_send_sge = 1 },
		};

		errno = 0;
		rcs = ibv_create_qp(pd, &qa);
		if (made("create_qp RC+SRQ", rcs))
			show_caps("cap", &qa.cap);
	} else {
		skip("create_qp RC+SRQ");
	}

	if (rc && have_port)
		connect_rc(rc, "RC", &port, &gid);
	if (ud)
		connect_ud(ud, "UD");

	if (pd && have_port) {
		struct ibv_ah_attr aa = { .port_num = 1, .sl = 0 };

		if (port.link_layer == IBV_LINK_LAYER_INFINIBAND) {
			aa.dlid = 2;
		} else {
			aa.is_global = 1;
			aa.grh.dgid = gid;
			aa.grh.sgid_index = 0;
			aa.grh.hop_limit = 64;
		}
		errno = 0;
		ah = ibv_create_ah(pd, &aa);
		made("create_ah", ah);
	} else {
		skip("create_ah");
	}

	more_verbs(ctx, pd, mr, cq, srq, rc);
	events(ctx, ch, cq, rc);

	if (ah)
		result("destroy_ah", ibv_destroy_ah(ah));
	if (rcs)
		result("destroy_qp RC+SRQ", ibv_destroy_qp(rcs));
	if (ud)
		result("destroy_qp UD", ibv_destroy_qp(ud));
	if (rc)
		result("destroy_qp RC", ibv_destroy_qp(rc));
	if (srq)
		result("destroy_srq", ibv_destroy_srq(srq));
	if (cqx)
		result("destroy_cq_ex", ibv_destroy_cq(ibv_cq_ex_to_cq(cqx)));
	if (cq)
		result("destroy_cq", ibv_destroy_cq(cq));
	if (ch)
		result("destroy_comp_channel", ibv_destroy_comp_channel(ch));
	if (mr)
		result("dereg_mr", ibv_dereg_mr(mr));
	if (pd)
		result("dealloc_pd", ibv_dealloc_pd(pd));
	result("close_device", ibv_close_device(ctx));
free_list:
	ibv_free_device_list(list);
	munmap(buf, 1 << 16);
	return 0;
}
