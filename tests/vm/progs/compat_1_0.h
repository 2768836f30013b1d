/* The IBVERBS_1.0 view of libibverbs for the compat_1_0* test programs: the 1.0 object layouts
 * (as an old binary sees them; our own declarations of the layout facts) and the old symbols,
 * bound by .symver so that each call below resolves to name@IBVERBS_1.0, not the default. */
#ifndef COMPAT_1_0_TEST_H
#define COMPAT_1_0_TEST_H
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <pthread.h>
#include <infiniband/verbs.h>

struct old_device;
struct old_cq;
struct old_qp;
struct old_srq;
struct old_ah;

struct old_send_wr {
	struct old_send_wr *next;
	uint64_t wr_id;
	struct ibv_sge *sg_list;
	int num_sge;
	enum ibv_wr_opcode opcode;
	int send_flags;
	uint32_t imm_data; /* network order */
	union {
		struct { uint64_t remote_addr; uint32_t rkey; } rdma;
		struct { uint64_t remote_addr, compare_add, swap; uint32_t rkey; } atomic;
		struct { struct old_ah *ah; uint32_t remote_qpn, remote_qkey; } ud;
	} wr;
};

struct old_recv_wr {
	struct old_recv_wr *next;
	uint64_t wr_id;
	struct ibv_sge *sg_list;
	int num_sge;
};

/* The dispatch table: 27 slots; only the data path is meant to be called. */
struct old_ops {
	void *slot0_6[7];
	int (*poll_cq)(struct old_cq *cq, int n, struct ibv_wc *wc);
	int (*req_notify_cq)(struct old_cq *cq, int solicited_only);
	void *slot9_15[7];
	int (*post_srq_recv)(struct old_srq *srq, struct old_recv_wr *wr, struct old_recv_wr **bad);
	void *slot17_20[4];
	int (*post_send)(struct old_qp *qp, struct old_send_wr *wr, struct old_send_wr **bad);
	int (*post_recv)(struct old_qp *qp, struct old_recv_wr *wr, struct old_recv_wr **bad);
	void *slot23_26[4];
};

struct old_context {
	struct old_device *device;
	struct old_ops ops;
	int cmd_fd, async_fd, num_comp_vectors; /* not set by rdma-core: not to be read */
	struct ibv_context *real_context;
};

struct old_pd {
	struct old_context *context;
	uint32_t handle;
	struct ibv_pd *real_pd;
};

struct old_mr {
	struct old_context *context;
	struct old_pd *pd;
	uint32_t handle, lkey, rkey;
	struct ibv_mr *real_mr;
};

struct old_device {
	void *unused[2];
	struct ibv_device *real_device;
	void *unused_ops[2];
};

struct old_qp {
	struct old_context *context;
	void *qp_context;
	struct old_pd *pd;
	struct old_cq *send_cq, *recv_cq;
	struct old_srq *srq;
	uint32_t handle, qp_num;
	enum ibv_qp_state state;
	enum ibv_qp_type qp_type;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t events_completed;
	struct ibv_qp *real_qp;
};

struct old_cq {
	struct old_context *context;
	void *cq_context;
	uint32_t handle;
	int cqe;
	pthread_mutex_t mutex;
	pthread_cond_t cond;
	uint32_t comp_events_completed, async_events_completed;
	struct ibv_cq *real_cq;
};

struct old_qp_init_attr {
	void *qp_context;
	struct old_cq *send_cq, *recv_cq;
	struct old_srq *srq;
	struct ibv_qp_cap cap;
	enum ibv_qp_type qp_type;
	int sq_sig_all;
};

#define OLD(name) __asm__(".symver old_" #name ", " #name "@IBVERBS_1.0")
struct old_device **old_ibv_get_device_list(int *num);
OLD(ibv_get_device_list);
void old_ibv_free_device_list(struct old_device **list);
OLD(ibv_free_device_list);
const char *old_ibv_get_device_name(struct old_device *d);
OLD(ibv_get_device_name);
__be64 old_ibv_get_device_guid(struct old_device *d);
OLD(ibv_get_device_guid);
struct old_context *old_ibv_open_device(struct old_device *d);
OLD(ibv_open_device);
int old_ibv_close_device(struct old_context *c);
OLD(ibv_close_device);
int old_ibv_get_async_event(struct old_context *c, struct ibv_async_event *e);
OLD(ibv_get_async_event);
void old_ibv_ack_async_event(struct ibv_async_event *e);
OLD(ibv_ack_async_event);
int old_ibv_query_device(struct old_context *c, struct ibv_device_attr *a);
OLD(ibv_query_device);
int old_ibv_query_port(struct old_context *c, uint8_t port, struct ibv_port_attr *a);
OLD(ibv_query_port);
int old_ibv_query_gid(struct old_context *c, uint8_t port, int index, union ibv_gid *gid);
OLD(ibv_query_gid);
int old_ibv_query_pkey(struct old_context *c, uint8_t port, int index, __be16 *pkey);
OLD(ibv_query_pkey);
struct old_pd *old_ibv_alloc_pd(struct old_context *c);
OLD(ibv_alloc_pd);
int old_ibv_dealloc_pd(struct old_pd *pd);
OLD(ibv_dealloc_pd);
struct old_mr *old_ibv_reg_mr(struct old_pd *pd, void *addr, size_t len, int access);
OLD(ibv_reg_mr);
int old_ibv_dereg_mr(struct old_mr *mr);
OLD(ibv_dereg_mr);
struct old_cq *old_ibv_create_cq(struct old_context *c, int cqe, void *cq_context,
				 struct ibv_comp_channel *ch, int vec);
OLD(ibv_create_cq);
int old_ibv_resize_cq(struct old_cq *cq, int cqe);
OLD(ibv_resize_cq);
int old_ibv_destroy_cq(struct old_cq *cq);
OLD(ibv_destroy_cq);
int old_ibv_get_cq_event(struct ibv_comp_channel *ch, struct old_cq **cq, void **cq_context);
OLD(ibv_get_cq_event);
void old_ibv_ack_cq_events(struct old_cq *cq, unsigned int n);
OLD(ibv_ack_cq_events);
struct old_srq *old_ibv_create_srq(struct old_pd *pd, struct ibv_srq_init_attr *a);
OLD(ibv_create_srq);
int old_ibv_modify_srq(struct old_srq *srq, struct ibv_srq_attr *a, int mask);
OLD(ibv_modify_srq);
int old_ibv_query_srq(struct old_srq *srq, struct ibv_srq_attr *a);
OLD(ibv_query_srq);
int old_ibv_destroy_srq(struct old_srq *srq);
OLD(ibv_destroy_srq);
struct old_qp *old_ibv_create_qp(struct old_pd *pd, struct old_qp_init_attr *a);
OLD(ibv_create_qp);
int old_ibv_query_qp(struct old_qp *qp, struct ibv_qp_attr *a, int mask,
		     struct old_qp_init_attr *ia);
OLD(ibv_query_qp);
int old_ibv_modify_qp(struct old_qp *qp, struct ibv_qp_attr *a, int mask);
OLD(ibv_modify_qp);
int old_ibv_destroy_qp(struct old_qp *qp);
OLD(ibv_destroy_qp);
struct old_ah *old_ibv_create_ah(struct old_pd *pd, struct ibv_ah_attr *a);
OLD(ibv_create_ah);
int old_ibv_destroy_ah(struct old_ah *ah);
OLD(ibv_destroy_ah);
int old_ibv_attach_mcast(struct old_qp *qp, union ibv_gid *gid, uint16_t lid);
OLD(ibv_attach_mcast);
int old_ibv_detach_mcast(struct old_qp *qp, union ibv_gid *gid, uint16_t lid);
OLD(ibv_detach_mcast);

static inline const char *ename(int e)
{
	const char *n = e ? strerrorname_np(e) : "0";
	return n ? n : "?";
}

#endif
