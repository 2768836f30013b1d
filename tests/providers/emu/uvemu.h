/* uvemu: a user-space stand-in for the kernel's uverbs interface (test code, LD_PRELOADed).
 *
 * Shared declarations of the emulator's parts:
 *   interpose.c  the libc entry points (open, ioctl, write, read, mmap, close, stat, netlink sockets)
 *   kernel.c     one command: parse write()/ioctl, count it, inject a fault, dispatch, log
 *   core.c       the core uverbs methods and write commands (what drivers/infiniband/core answers)
 *   netlink.c    NETLINK_RDMA: the nldev device list, char devices and the system attributes
 *   log.c        the canonical command stream (UVEMU_LOG)
 *   device.c     the fake devices, one per provider, and their sysfs trees
 *   drv_*.c      each provider's driver data (the kernel driver's udata and mmap answers)
 *
 * The kernel's uapi comes from the system's <rdma/...> headers (linux-libc-dev).
 */
#ifndef UVEMU_H
#define UVEMU_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include <rdma/ib_user_ioctl_cmds.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/rdma_user_ioctl.h>
#include <rdma/rdma_user_ioctl_cmds.h>

/* Port link layers (the kernel's IB_LINK_LAYER_*). */
#define IB_LINK_LAYER_INFINIBAND 1
#define IB_LINK_LAYER_ETHERNET 2

#ifndef RDMA_DRIVER_MANA
#define RDMA_DRIVER_MANA (RDMA_DRIVER_ERDMA + 1)
#endif

#define EMU_MAX_FD 4096
#define EMU_MAX_OBJ 512
#define EMU_MAX_MAPS 256

/* ---- devices (device.c) ---- */

struct emu_dev {
	const char *provider;  /* the provider's name: "mlx5" */
	const char *ibdev;     /* "mlx5_0" */
	uint32_t driver_id;    /* RDMA_DRIVER_* */
	uint32_t abi_ver;      /* the uverbs node's ABI (what the provider accepts) */
	uint8_t node_type;     /* RDMA_NODE_*: 1 CA, 4 RNIC */
	uint16_t pci_vendor;   /* 0: no PCI parent (a virtual or vmbus device) */
	uint16_t pci_device;
	const char *protocol;  /* nldev DEV_PROTOCOL: "ib", "roce", "iw" */
	uint8_t link_layer;    /* IB_LINK_LAYER_*: 1 InfiniBand, 2 Ethernet */
	uint32_t vendor_id, vendor_part_id, hw_ver;
	uint64_t node_guid;
	const char *fw_ver;
	uint64_t device_cap_flags;
	uint32_t max_qp, max_qp_wr, max_sge, max_cq, max_cqe, max_srq, max_srq_wr, max_srq_sge;
	uint32_t max_mr, max_pd, max_ah, max_inline;
	uint32_t num_comp_vectors;
	uint32_t qp_types;     /* 1 << IB_UVERBS_QPT_* the kernel driver creates (0: RC, UC, UD); bit 31: DRIVER */
	bool xrc;              /* the driver has XRC domains (alloc_xrcd): XRC SRQs, XRC_INI/XRC_TGT QPs */
	bool dm, odp, dmabuf;  /* core_mem.c: device memory (alloc_dm), ODP MRs and advise_mr, dma-buf MRs */
	bool mcast;            /* core_mcast.c: attach_mcast/detach_mcast on UD QPs */
	uint32_t cq_max_period; /* core_mcast.c: modify_cq (CQ moderation) up to this period (us); 0: none */
	uint32_t cq_flags;     /* the IB_UVERBS_CQ_FLAGS_* its create_cq takes (any other: EOPNOTSUPP) */
	bool rate_limit;       /* packet pacing: a raw packet QP's IB_QP_RATE_LIMIT */
	bool wq;               /* the driver has receive WQs, indirection tables, RSS QPs, flows, counters */
	bool kpost;            /* its provider posts and polls through the kernel (POST_SEND, POST_RECV,
				* POST_SRQ_RECV, POLL_CQ: hfi1verbs at uverbs ABI 1): the family kpost */
	uint32_t port_speed;   /* QUERY_PORT_SPEED's answer (100 Mb/s units); 0: no query_port_speed */
	bool dmah;             /* DMA handles (alloc_dmah: TPH steering tags; core_newer.c) */
	bool import;           /* its provider imports contexts, PDs and MRs (QUERY_CONTEXT with the
				* driver's answer; mlx5's PD_QUERY): the family import */
	bool devx;             /* mlx5's DEVX methods (drv_mlx5_devx.c), with firmware behind them when
				* UVEMU_DEVX=1: the family dv (lifecycle-dv) */
};
#define EMU_DM_MAX (128u * 1024) /* max_dm_size of a device with dm */
#define EMU_QPT(t) ((t) == IB_UVERBS_QPT_DRIVER ? 1u << 31 : 1u << (t))

const struct emu_dev *emu_dev_find(const char *provider);
/* Write the device's sysfs tree under dir (dir/sys/...); 0 or -1 (errno). */
int emu_dev_write_tree(const struct emu_dev *d, const char *dir, const char *uverbs_name);
/* The GID at index of port 1 (index 0: the link-local GID from the node GUID). */
void emu_dev_gid(const struct emu_dev *d, unsigned index, uint8_t gid[16]);
#define EMU_NUM_GIDS 2

/* ---- file descriptors and contexts (interpose.c, kernel.c) ---- */

enum emu_fd_kind { FD_NONE, FD_CMD, FD_ASYNC, FD_COMP, FD_NL };

struct emu_event {
	uint64_t element;     /* user_handle of the object, or the port number */
	uint32_t type;        /* async: IB_EVENT_*; completion events: 0 */
	uint32_t handle;      /* the object's handle (to count what was read) */
	uint16_t obj_type;    /* UVERBS_OBJECT_* the event counts against */
};

#define EMU_EVQ 64
struct emu_evq {
	struct emu_event ev[EMU_EVQ];
	unsigned head, n;
};

#define EMU_CQ_WCS 16 /* completions a CQ holds for POLL_CQ (more: the CQ overruns, EIO) */
struct emu_obj {
	uint16_t type;        /* UVERBS_OBJECT_*; 0 with live false: free slot */
	bool live;
	uint32_t num;         /* pdn, lkey, cqn, qpn, srqn, ... */
	uint64_t user_handle;
	uint32_t cqe, qp_type, state;
	uint32_t pd, scq, rcq, srq; /* handles of the objects this one uses */
	uint32_t xrcd;        /* XRC SRQ, XRC_TGT QP: its domain (~0u: none) */
	uint32_t shared;      /* a QP opened by OPEN_QP: the XRC_TGT QP it shares (~0u: none) */
	uint64_t length, iova; /* MR: what it registers (QUERY_MR); DM: its size */
	uint32_t dm;          /* DM MR: its DM (~0u: none) */
	uint32_t dmah;        /* MR: its DMA handle (~0u: none; core_newer.c) */
	bool odp;             /* MR: on-demand paging */
	uint32_t tbl;         /* an RSS QP: its receive WQ indirection table (~0u: none) */
	uint32_t usecnt;      /* objects using this one (destroying it then is EBUSY) */
	int channel;          /* CQ: its completion channel's fd, or -1 */
	uint32_t comp_events, async_events; /* events read by the user (reported at destroy) */
	uint64_t drv[8];      /* provider scratch */
	uint32_t send_sge, recv_sge; /* QP: its send and receive SGE limits; SRQ: recv_sge */
	unsigned nwc;         /* CQ: completions waiting for POLL_CQ (core_post.c), oldest first */
	struct ib_uverbs_wc wc[EMU_CQ_WCS];
};

/* An mmap key the kernel handed out: what mapping that offset gives. */
struct emu_key {
	uint64_t off;
	size_t size;
	uint32_t a, b;        /* provider data (rxe: log2 element size, index mask) */
};
#define EMU_MAX_KEYS 128

struct emu_ctx {
	int cmd_fd;
	unsigned refs;        /* command fds open on it (dup of one: the same file; interpose.c) */
	bool have_context;    /* GET_CONTEXT done */
	int async_fd;         /* -1 until allocated */
	const struct emu_dev *dev;
	struct emu_obj obj[EMU_MAX_OBJ];
	int node;             /* the served node it was opened on (interpose.c) */
	uint32_t next_num[UVERBS_OBJECT_ASYNC_EVENT + 1]; /* object numbers per type: cqn, qpn, ... */
	uint64_t drv[16];     /* provider scratch */
	struct emu_key keys[EMU_MAX_KEYS];
	uint64_t next_key;    /* the next key's offset (a multiple of the page size) */
};

struct emu_fd {
	enum emu_fd_kind kind;
	int index;            /* FD_ASYNC/FD_COMP: its number in the stream (asyncfd#N, comp#N) */
	struct emu_ctx *ctx;  /* FD_CMD: owned; FD_ASYNC/FD_COMP: the context it belongs to */
	struct emu_evq q;     /* FD_ASYNC/FD_COMP (and FD_CMD's async events, written-path kernels) */
	int peer;             /* FD_NL: the emulator's end of the socket pair */
	uint32_t nl_pid;      /* FD_NL: the bound port id */
	uint32_t nl_seq;
};

/* The process-wide lock every emulator entry point takes (never held while blocking). */
extern pthread_mutex_t emu_lock;
extern struct emu_fd emu_fds[EMU_MAX_FD];
extern const struct emu_dev *emu_device; /* the device served (UVEMU_PROVIDER) */

struct emu_fd *emu_fd_get(int fd); /* NULL unless fd is one of ours */
/* The first uverbs node served (its name as sysfs spells it, bytes). */
const char *emu_node_name(void);
/* A new emulator fd (an eventfd underneath, so poll/select work on it). */
int emu_fd_new(enum emu_fd_kind kind, struct emu_ctx *ctx, bool cloexec, bool nonblock);
/* Queue an event on fd and wake its readers. */
void emu_fd_push(int fd, const struct emu_event *ev);

/* The real libc functions. */
extern int (*real_close)(int);
extern ssize_t (*real_read)(int, void *, size_t);
extern ssize_t (*real_write)(int, const void *, size_t);
extern void *(*real_mmap)(void *, size_t, int, int, int, off_t);
extern int (*real_munmap)(void *, size_t);

/* ---- one command (kernel.c) ---- */

struct emu_req {
	struct emu_ctx *ctx;
	const struct emu_dev *dev;
	int fd;
	/* ioctl: the header and attributes, in the caller's memory */
	struct ib_uverbs_ioctl_hdr *hdr;
	struct ib_uverbs_attr *attrs;
	unsigned nattrs;
	/* write commands (write() or UVERBS_METHOD_INVOKE_WRITE) */
	uint32_t wcmd;        /* IB_USER_VERBS_CMD_*, | IB_USER_VERBS_CMD_FLAG_EXTENDED */
	const uint8_t *in;    /* the core request (after the headers) */
	size_t in_len;
	uint8_t *out;         /* the core response */
	size_t out_len;
	/* driver data */
	const uint8_t *uin;
	size_t uin_len;
	uint8_t *uout;
	size_t uout_len;
	bool short_answer;    /* fault: the driver answers with half of its response */
};

/* Attribute helpers for ioctl methods. */
struct ib_uverbs_attr *emu_attr(struct emu_req *r, uint16_t id);
/* An input attribute's bytes (inline or pointed to), or NULL when absent. */
const void *emu_attr_in(struct emu_req *r, uint16_t id, size_t *len);
/* An inline integer attribute (const/enum/idr/fd): its value, or dflt when absent. */
uint64_t emu_attr_u64(struct emu_req *r, uint16_t id, uint64_t dflt);
/* Write an output attribute (at most its length) and mark it valid; 0, or -ENOSPC/-EFAULT style errno. */
int emu_attr_out(struct emu_req *r, uint16_t id, const void *data, size_t len);
/* Driver response: copy up to uout_len (half of it under a short-answer fault). */
void emu_udata_out(struct emu_req *r, const void *resp, size_t len);
/* Bytes [from, uin_len) of the driver data are zero (the kernel's ib_is_udata_cleared). */
bool emu_udata_cleared(const struct emu_req *r, size_t from);
/* A driver request of exactly len bytes into req, as a kernel driver copies it: EINVAL when the
 * driver data is shorter, EOPNOTSUPP when bytes past it are not zero, else 0. */
int emu_udata_in(const struct emu_req *r, void *req, size_t len);
/* A core write command's response: at most what the caller offered, the rest of its buffer
 * zeroed (the kernel's uverbs_response). */
void emu_resp_out(struct emu_req *r, const void *resp, size_t len);
/* A write command's request, which may be shorter than its struct (an extended command's
 * minimum): declares `type name`, zeroed, with what the caller sent copied over it. */
#define EMU_REQ(type, name)                                                                \
	type name;                                                                         \
	memset(&name, 0, sizeof(name));                                                    \
	memcpy(&name, r->in, r->in_len < sizeof(name) ? r->in_len : sizeof(name))

/* Objects. */
struct emu_obj *emu_obj_new(struct emu_ctx *c, uint16_t type, uint32_t *handle);
struct emu_obj *emu_obj_get(struct emu_ctx *c, uint16_t type, uint32_t handle);
void emu_obj_free(struct emu_ctx *c, uint32_t handle);
uint32_t emu_next_num(struct emu_ctx *c, uint16_t type);
/* A new mmap key for size bytes (offsets from base, page-aligned), and the key at an offset. */
uint64_t emu_key_new(struct emu_ctx *c, size_t size, uint32_t a, uint32_t b);
struct emu_key *emu_key_find(struct emu_ctx *c, uint64_t off);
/* An mmap of a key: it exists and len is within it (0), else EINVAL. */
int emu_key_check(struct emu_ctx *c, size_t len, uint64_t off);

/* ---- core verbs (core.c) ---- */

/* A write command: the core request in r->in, response to r->out; returns 0 or an errno. */
int emu_core_write(struct emu_req *r);
/* An ioctl method (not INVOKE_WRITE); 0 or an errno; EPROTONOSUPPORT when unknown. */
int emu_core_ioctl(struct emu_req *r);
/* The kind of a core attribute, for the log: 'i' in, 'o' out, 'h' handle, 'f' fd, 'c' const. */
char emu_core_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr);
/* The closing of a command fd: every object goes, as the kernel's ucontext cleanup does. */
void emu_ctx_release(struct emu_ctx *c);
/* core_obj.c for the other core_*.c: a use count changed by d; an object destroyed (EBUSY while
 * used), and with a copy of it left in *gone; a handle attribute's value (~0u: absent); a new
 * object's handle written into its attribute. */
void emu_obj_use(struct emu_ctx *c, uint16_t type, uint32_t h, int d);
int emu_obj_destroy(struct emu_req *r, uint16_t type, uint32_t h);
int emu_obj_destroy_gone(struct emu_req *r, uint16_t type, uint32_t h, struct emu_obj *gone);
uint32_t emu_attr_handle(struct emu_req *r, uint16_t id);
void emu_attr_new_handle(struct emu_req *r, uint16_t id, uint32_t h);
/* A write command that is not the called file's (core_obj.c asks core_cq.c, then core_qp.c). */
#define EMU_NOT_MINE (-1)
/* core_cq.c: completion channels and CQs; core_qp.c: QPs and SRQs. Their write commands
 * (EMU_NOT_MINE for another), ioctl methods and attributes' kinds. */
int emu_cq_write(struct emu_req *r);
int emu_cq_ioctl(struct emu_req *r, uint16_t meth);
char emu_cq_attr_kind(uint16_t meth, uint16_t attr);
int emu_qp_write(struct emu_req *r);
int emu_qp_ioctl(struct emu_req *r, uint16_t meth);
int emu_srq_ioctl(struct emu_req *r, uint16_t meth);
char emu_qp_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr);
/* core_xrc.c: OPEN_XRCD, CLOSE_XRCD, OPEN_QP; EOPNOTSUPP for any other command. */
int emu_xrc_write(struct emu_req *r);
/* core_mem.c: the DM object and the MR methods but REG_MR/DESTROY; their attributes' kinds; a DM's mmap. */
int emu_mem_ioctl(struct emu_req *r);
char emu_mem_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr);
int emu_dm_mmap_check(struct emu_ctx *c, uint32_t num, size_t len);
/* core_mcast.c: ATTACH_MCAST, DETACH_MCAST, EX_MODIFY_CQ; a context's groups dropped at its close. */
int emu_mcast_write(struct emu_req *r);
void emu_mcast_release(const struct emu_ctx *c);

/* core_wq.c: WQs and receive WQ indirection tables (EX_CREATE_WQ ... EX_DESTROY_RWQ_IND_TBL, the
 * WQ and RWQ_IND_TBL objects); core_flow.c: flows (EX_CREATE_FLOW, EX_DESTROY_FLOW, FLOW) and
 * counters (COUNTERS). *_cmd: whether the write command is the file's. */
/* core_post.c: posting and polling through the kernel (POST_SEND, POST_RECV, POST_SRQ_RECV,
 * POLL_CQ); *_cmd: whether the write command is the file's. */
bool emu_post_cmd(uint32_t wcmd);
int emu_post_write(struct emu_req *r);
/* The logged copy of a post command's request as the kernel reads it (the reserved words and the
 * union members its opcode and QP type leave unread zeroed); buf: the whole request (with_fixed:
 * the ioctl's CORE_IN) or the work requests after the fixed part (a write's, in r->in). */
void emu_post_canon(const struct emu_req *r, uint32_t wcmd, uint8_t *buf, size_t len, bool with_fixed);
bool emu_wq_cmd(uint32_t wcmd);
int emu_wq_write(struct emu_req *r);
int emu_wq_ioctl(struct emu_req *r);
char emu_wq_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr);
bool emu_flow_cmd(uint32_t wcmd);
int emu_flow_write(struct emu_req *r);
int emu_flow_ioctl(struct emu_req *r);
char emu_flow_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr);
/* core_newer.c: the methods newer than the system's uapi headers (QUERY_PORT_SPEED, the MR's
 * REG_MR, the DMAH and DMABUF objects): whether a method is one, the method, its attributes' kinds. */
#define EMU_OBJECT_DMAH (UVERBS_OBJECT_ASYNC_EVENT + 1)
#define EMU_OBJECT_DMABUF (EMU_OBJECT_DMAH + 1)
bool emu_newer_method(uint16_t obj, uint16_t meth);
int emu_newer_ioctl(struct emu_req *r);
char emu_newer_attr_kind(uint16_t obj, uint16_t meth, uint16_t attr);
/* ---- providers (drv_*.c) ---- */

struct emu_qp_init {
	uint32_t qp_type, max_send_wr, max_recv_wr, max_send_sge, max_recv_sge, max_inline;
	bool srq;
	bool rss;             /* on a receive WQ indirection table: no queues of its own */
};

struct emu_drv {
	const char *name;
	int (*get_context)(struct emu_req *r);
	/* QUERY_CONTEXT's driver part (the kernel's query_ucontext; ibv_import_device): its attributes
	 * answered; without it the core's answer alone. */
	int (*query_context)(struct emu_req *r);
	int (*query_device)(struct emu_req *r);
	int (*alloc_pd)(struct emu_req *r, struct emu_obj *pd);
	int (*reg_mr)(struct emu_req *r, struct emu_obj *mr);
	int (*create_cq)(struct emu_req *r, struct emu_obj *cq);
	/* RESIZE_CQ to cqe entries (the hook sets cq->cqe); without it the command is EOPNOTSUPP. */
	int (*resize_cq)(struct emu_req *r, struct emu_obj *cq, uint32_t cqe);
	int (*create_qp)(struct emu_req *r, struct emu_obj *qp, struct emu_qp_init *init);
	int (*modify_qp)(struct emu_req *r, struct emu_obj *qp);
	int (*create_srq)(struct emu_req *r, struct emu_obj *srq, uint32_t *max_wr, uint32_t *max_sge);
	int (*create_ah)(struct emu_req *r, struct emu_obj *ah);
	/* DM_ALLOC: the driver's attributes and dm->num (its mmap index); without it EOPNOTSUPP. */
	int (*alloc_dm)(struct emu_req *r, struct emu_obj *dm);
	/* WQs (create, modify), indirection tables and flows (core_wq.c, core_flow.c): the driver
	 * data, read and answered; a NULL hook reads and answers nothing. */
	int (*create_wq)(struct emu_req *r, struct emu_obj *wq);
	int (*modify_wq)(struct emu_req *r, struct emu_obj *wq);
	int (*create_rwq_ind_tbl)(struct emu_req *r, struct emu_obj *tbl);
	int (*create_flow)(struct emu_req *r, struct emu_obj *flow);
	int (*destroy)(struct emu_ctx *c, struct emu_obj *o);
	/* DMABUF_ALLOC (core_newer.c): the DM (its num) a mmap offset names (the driver's
	 * pgoff_to_mmap_entry), or -1; without it the method is EPROTONOSUPPORT. */
	int64_t (*dmabuf_dm)(uint64_t off);
	/* Driver-namespace ioctl methods; EPROTONOSUPPORT when unknown. */
	int (*ioctl)(struct emu_req *r);
	char (*attr_kind)(uint16_t obj, uint16_t meth, uint16_t attr);
	/* Zero the bytes of a request's driver data the kernel driver ignores, in the logged copy
	 * (canon.c): obj/meth of the ioctl, wcmd of a write command (else ~0u). */
	void (*canon_uhw)(uint16_t obj, uint16_t meth, uint32_t wcmd, uint8_t *buf, size_t len);
	/* Check an mmap of the command fd and fill the pages the kernel would (0 or an errno). */
	int (*mmap)(struct emu_ctx *c, void *addr, size_t len, int prot, off_t off);
};

const struct emu_drv *emu_drv_find(const char *provider);
/* The driver of the request's device. */
const struct emu_drv *emu_req_drv(const struct emu_req *r);

/* ---- the canonical stream (log.c) ---- */

void emu_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Bytes as little-endian 64-bit words, pointer-like words as "ptr". */
void emu_log_bytes(const char *label, const void *p, size_t len);
const char *emu_fd_name(int fd, char buf[32]);
/* "mapped PATH" for each file of the provider (lib<provider>-rdmav*.so, lib<provider>.so*) in
 * /proc/self/maps, once per process (at the first open of a uverbs node). */
void emu_log_provider_files(const char *provider);
/* One line to the file UVEMU_COVER names (when set): each command as sent, by its numbers, and
 * its result ("ioctl OBJECT METHOD RESULT", "write CMD RESULT"; an INVOKE_WRITE gives both). */
void emu_cover(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool emu_looks_like_ptr(uint64_t v);

/* The kernel-read part of a write command's core request, in place (canon.c). */
void emu_canon_core_in(uint32_t wcmd, uint8_t *buf, size_t len);

/* UVEMU_KERNEL=write: a kernel before the ioctl framework (4.x), write() commands only. */
bool emu_write_only_kernel(void);

/* ---- faults (kernel.c) ---- */

/* Called once per command: 0 to run it, an errno to fail it, -1 for a short answer. */
int emu_fault_next(const char *what);

/* ---- netlink (netlink.c) ---- */

int emu_nl_socket(int type);
void emu_nl_request(struct emu_fd *f, const void *buf, size_t len);

#endif
