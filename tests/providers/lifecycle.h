/* The lifecycle's helpers, shared with its families (family_*.c). */
#ifndef LIFECYCLE_H
#define LIFECYCLE_H

#include <infiniband/verbs.h>
#include <stdio.h>

extern int quiet;

/* The lifecycle's buffer (64 KiB, mapped by main before anything else): the memory registered lives
 * at a fixed address, so the command stream shows the same addresses under both libraries. */
#define FIXED_BASE ((void *)0x7e0000000000ull)

/* errno's name ("0" for 0). */
const char *ename(int e);
/* "step: 0" or "step: ERRNO" for a verb's result. */
void result(const char *step, int ret);
/* "step: ok" or "step: ERRNO" for a constructor's; returns whether obj is there. */
int made(const char *step, const void *obj);
void skip(const char *step);
/* A family's PD and 16-entry CQ ("alloc_pd", "create_cq"); each NULL where it failed. */
void family_pd_cq(struct ibv_context *ctx, struct ibv_pd **pd, struct ibv_cq **cq);
/* A QP of `type` on pd and cq, 8 WRs and 1 SGE each way (step "create_qp NAME"), or NULL;
 * skipped without pd or cq. */
struct ibv_qp *family_qp(struct ibv_pd *pd, struct ibv_cq *cq, enum ibv_qp_type type, const char *name);

/* RC: RESET -> INIT -> RTR -> RTS, connected to itself (steps "modify_qp NAME STATE"). */
void connect_rc(struct ibv_qp *qp, const char *name, const struct ibv_port_attr *port,
		const union ibv_gid *gid);

#define SHOW(fmt, ...)                                      \
	do {                                                \
		if (!quiet)                                 \
			printf("  " fmt "\n", __VA_ARGS__); \
	} while (0)

/* XRC: a domain, an XRC SRQ, an XRC_SEND and an XRC_RECV QP, the receive QP opened again by
 * number, the domain and the shared QP refused while in use, everything destroyed. */
void family_xrc(struct ibv_context *ctx);
/* family_mem.c: device memory (dm); ODP with advise_mr, import_mr, dma-buf MRs (mr). */
void family_dm(struct ibv_context *ctx);
void family_mr(struct ibv_context *ctx);
/* family_mcast.c: multicast groups of a UD QP (mcast); CQ moderation (cqmod). */
void family_mcast(struct ibv_context *ctx);
void family_cqmod(struct ibv_context *ctx);
/* WQs: two receive WQs made ready, an indirection table over them, an RSS raw packet QP on it, the
 * WQ and the table refused while in use, everything destroyed. */
void family_wq(struct ibv_context *ctx);
/* Flows: a raw packet QP, counters attached and read, two flows with the counters' action, the
 * counters and the QP refused while the flows live, everything destroyed. */
void family_flow(struct ibv_context *ctx);
/* family_ex.c: CQs with creation flags (EX_CREATE_CQ on a write kernel), a raw packet QP's rate
 * limit (EX_MODIFY_QP). */
void family_ex(struct ibv_context *ctx);
/* family_post.c: posting and polling through the kernel (a provider without a user-space data
 * path): receives and sends refused in the wrong state or with too many entries, sends completed
 * and polled, more than one command's worth of sends, an SRQ's receives. */
void family_kpost(struct ibv_context *ctx);
/* family_import.c: a context imported by its command fd (ibv_import_device), a PD and an MR
 * imported into it by handle. */
void family_import(struct ibv_context *ctx);
/* family_dv.c, only in lifecycle-dv (linked with libmlx5): mlx5's direct verbs and DEVX. */
void family_dv(struct ibv_context *ctx) __attribute__((weak));

#endif
