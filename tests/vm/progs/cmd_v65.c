/* The provider-facing commands rdma-core v65 added (IBVERBS_PRIVATE_65: completion counters,
 * DMA handles, dma-buf export, MR_REG_EX, the port speed), called on rxe0 the way an ABI-65
 * provider (efa, mlx5) calls them. tests/vm/checks.txt runs this under the system libibverbs
 * (rdma-core 44, which has none of them) and under ours; the output must be identical.
 *
 * Where the library lacks a command (dlvsym finds nothing: the system run), this program does
 * what rdma-core v65 does in its place on this kernel:
 * - ibv_cmd_reg_mr_ex: the guest's 6.1 kernel has no UVERBS_METHOD_REG_MR, so v65 falls back to
 *   the legacy REG_MR write with no driver data, i.e. v44's ibv_cmd_reg_mr with the core
 *   request and response only. The MR is real: it is deregistered with ibv_cmd_dereg_mr.
 * - the ioctl-only commands: v65 sends one RDMA_VERBS_IOCTL and returns the kernel's errno; the
 *   program sends the same ioctl (object, method and attributes as rdma-core v65's cmd_*.c
 *   build them, from the v65 uapi ids) on the context's command fd and prints the kernel's
 *   answer in the same form. This kernel knows none of these objects or methods.
 *
 * The structs are declared here from rdma-core 44's and v65's layouts (driver.h and the v65
 * verbs.h are not in the installed headers). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_ioctl_verbs.h>
#include <rdma/rdma_user_ioctl_cmds.h>

struct verbs_mr {
	struct ibv_mr ibv_mr;
	uint32_t mr_type;
	int access;
};
struct req_reg_mr { struct ib_uverbs_cmd_hdr hdr; struct ib_uverbs_reg_mr core; };
int ibv_cmd_reg_mr(struct ibv_pd *, void *, size_t, uint64_t, int, struct verbs_mr *, void *,
		   size_t, struct ib_uverbs_reg_mr_resp *, size_t);
int ibv_cmd_dereg_mr(struct verbs_mr *);

/* rdma-core v65 verbs.h / driver.h */
struct v65_comp_cntr { struct ibv_context *context; uint32_t handle; };
struct v65_comp_cntr_caps { uint64_t max_value; uint32_t max_counters; uint32_t supported_qp_attach_ops; };
struct v65_qp_attach_comp_cntr_attr { uint32_t comp_mask; uint32_t op_mask; };
struct v65_dmah { struct ibv_context *context; };
struct v65_verbs_dmah { struct v65_dmah dmah; uint32_t handle; };
struct v65_dmah_init_attr { uint32_t comp_mask; uint32_t cpu_id; uint8_t ph; uint8_t tph_mem_type; };
struct v65_mr_init_attr {
	size_t length;
	int access;
	uint64_t comp_mask;
	uint64_t iova;
	void *addr;
	int fd;
	uint64_t fd_offset;
	void *dmah;
	void *buf;
};
enum { MASK_IOVA = 1, MASK_ADDR = 2 };

/* v65 uapi ids (kernel-headers/rdma/ib_user_ioctl_cmds.h) */
enum { OBJ_DEVICE = 0, OBJ_QP = 4, OBJ_DMAH = 17, OBJ_DMABUF = 18, OBJ_COMP_CNTR = 19 };
enum { M_QUERY_PORT_SPEED = 7, M_QUERY_COMP_CNTR_CAPS = 8, M_QP_ATTACH_COMP_CNTR = 2 };
enum { M_CNTR_CREATE = 0, M_CNTR_DESTROY = 1, M_CNTR_MODIFY = 2, M_CNTR_READ = 3 };
enum { M_DMAH_ALLOC = 0, M_DMAH_FREE = 1, M_DMABUF_ALLOC = 0 };

static struct ibv_context *ctx;

static const char *en(int e)
{
	return e ? strerrorname_np(e) : "0";
}

static void line(const char *name, int ret, int err)
{
	printf("%-28s ret %s errno %s\n", name, ret == -1 ? "-1" : en(ret), en(ret ? err : 0));
}

/* One attribute as rdma-core's fill_attr_* leave it: mandatory, `len` bytes, `data`. */
struct attr { uint16_t id, len; uint8_t elem; uint64_t data; };

/* The ioctl v65 sends (execute_ioctl): rdma-core returns the kernel's errno, 0 on success. */
static int raw_ioctl(uint16_t obj, uint16_t method, const struct attr *a, int n)
{
	struct {
		struct ib_uverbs_ioctl_hdr hdr;
		struct ib_uverbs_attr attrs[8];
	} b;
	int i;

	memset(&b, 0, sizeof(b));
	b.hdr.length = sizeof(b.hdr) + n * sizeof(b.attrs[0]);
	b.hdr.object_id = obj;
	b.hdr.method_id = method;
	b.hdr.num_attrs = n;
	b.hdr.driver_id = RDMA_DRIVER_RXE;
	for (i = 0; i < n; i++) {
		b.attrs[i].attr_id = a[i].id;
		b.attrs[i].len = a[i].len;
		b.attrs[i].flags = UVERBS_ATTR_F_MANDATORY;
		b.attrs[i].attr_data.enum_data.elem_id = a[i].elem;
		b.attrs[i].data = a[i].data;
	}
	return ioctl(ctx->cmd_fd, RDMA_VERBS_IOCTL, &b.hdr) ? errno : 0;
}

#define SYM(name) dlvsym(RTLD_DEFAULT, name, "IBVERBS_PRIVATE_65")

/* Run `ours` when the library has `name`, else the ioctl v65 sends; print the outcome. */
#define CMD(name, type, ours, obj, method, ...)                                                  \
	do {                                                                                      \
		type f_ = (type)SYM(name);                                                       \
		const struct attr a_[] = { __VA_ARGS__ };                                         \
		int r_;                                                                           \
		errno = 0;                                                                        \
		r_ = f_ ? (ours) : raw_ioctl(obj, method, a_, sizeof(a_) / sizeof(a_[0]));       \
		line(name, r_, errno);                                                            \
	} while (0)

typedef int (*cntr_fn)(struct v65_comp_cntr *);
typedef int (*cntr_val_fn)(struct v65_comp_cntr *, uint64_t);
typedef int (*cntr_read_fn)(struct v65_comp_cntr *, uint64_t *);
typedef int (*create_cntr_fn)(struct ibv_context *, struct v65_comp_cntr *, void *);
typedef int (*caps_fn)(struct ibv_context *, struct v65_comp_cntr_caps *, size_t);
typedef int (*attach_fn)(struct ibv_qp *, struct v65_comp_cntr *, struct v65_qp_attach_comp_cntr_attr *);
typedef int (*alloc_dmah_fn)(struct ibv_context *, struct v65_verbs_dmah *, struct v65_dmah_init_attr *);
typedef int (*free_dmah_fn)(struct v65_verbs_dmah *);
typedef int (*export_fn)(struct ibv_context *, off_t);
typedef int (*speed_fn)(struct ibv_context *, uint32_t, uint64_t *);
typedef int (*reg_mr_ex_fn)(struct ibv_pd *, struct verbs_mr *, struct v65_mr_init_attr *);

/* ibv_cmd_reg_mr_ex, or v65's fallback on this kernel: the REG_MR write with core buffers. */
static void reg(const char *name, struct ibv_pd *pd, uint64_t mask, void *addr, size_t len,
		uint64_t iova, int access)
{
	reg_mr_ex_fn f = (reg_mr_ex_fn)SYM("ibv_cmd_reg_mr_ex");
	struct v65_mr_init_attr a = { .length = len, .access = access, .comp_mask = mask,
				      .iova = iova, .addr = addr, .fd = -1 };
	struct ib_uverbs_reg_mr_resp resp;
	struct req_reg_mr req;
	struct verbs_mr v;
	int r;

	memset(&v, 0xee, sizeof(v));
	errno = 0;
	if (f)
		r = f(pd, &v, &a);
	else
		r = ibv_cmd_reg_mr(pd, addr, len, (mask & MASK_IOVA) ? iova : (uintptr_t)addr, access,
				   &v, &req, sizeof(req), &resp, sizeof(resp));
	line(name, r, errno);
	if (r)
		return;
	printf("  context %d type %u access %#x lkey-set %d rkey-set %d\n", v.ibv_mr.context == ctx,
	       v.mr_type, v.access, v.ibv_mr.lkey != 0xeeeeeeee, v.ibv_mr.rkey != 0xeeeeeeee);
	line("  cmd_dereg_mr", ibv_cmd_dereg_mr(&v), errno);
}

int main(void)
{
	struct v65_comp_cntr cc = { .handle = 0 };
	struct v65_comp_cntr_caps caps;
	struct v65_qp_attach_comp_cntr_attr at = { .op_mask = 3 };
	struct v65_verbs_dmah dmah = { .handle = 0 };
	struct v65_dmah_init_attr dinit = { .comp_mask = 1, .cpu_id = 0 };
	struct ibv_device **list;
	struct ibv_pd *pd;
	struct ibv_qp qp;
	uint64_t v = 0, speed = 0;
	uint32_t u32 = 0;
	char *buf;
	int n, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "rxe0"))
			ctx = ibv_open_device(list[i]);
	if (!ctx || !(pd = ibv_alloc_pd(ctx))) {
		printf("no rxe0\n");
		return 1;
	}
	memset(&qp, 0, sizeof(qp));
	qp.context = ctx;
	cc.context = ctx;
	dmah.dmah.context = ctx;

	CMD("ibv_cmd_create_comp_cntr", create_cntr_fn, f_(ctx, &cc, NULL), OBJ_COMP_CNTR,
	    M_CNTR_CREATE, { 0, 0, 0, 0 });
	CMD("ibv_cmd_set_comp_cntr", cntr_val_fn, f_(&cc, 5), OBJ_COMP_CNTR, M_CNTR_MODIFY,
	    { 0, 0, 0, 0 }, { 1, 8, 0, 0 }, { 2, 8, 0, 0 }, { 3, 8, 0, 5 });
	CMD("ibv_cmd_inc_err_comp_cntr", cntr_val_fn, f_(&cc, 1), OBJ_COMP_CNTR, M_CNTR_MODIFY,
	    { 0, 0, 0, 0 }, { 1, 8, 0, 1 }, { 2, 8, 0, 1 }, { 3, 8, 0, 1 });
	CMD("ibv_cmd_read_comp_cntr", cntr_read_fn, f_(&cc, &v), OBJ_COMP_CNTR, M_CNTR_READ,
	    { 0, 0, 0, 0 }, { 1, 8, 0, 0 }, { 2, 8, 0, (uintptr_t)&v });
	CMD("ibv_cmd_qp_attach_comp_cntr", attach_fn, f_(&qp, &cc, &at), OBJ_QP,
	    M_QP_ATTACH_COMP_CNTR, { 0, 0, 0, 0 }, { 1, 0, 0, 0 }, { 2, 4, 0, 3 });
	CMD("ibv_cmd_destroy_comp_cntr", cntr_fn, f_(&cc), OBJ_COMP_CNTR, M_CNTR_DESTROY,
	    { 0, 0, 0, 0 });
	CMD("ibv_cmd_query_comp_cntr_caps", caps_fn, f_(ctx, &caps, sizeof(caps)), OBJ_DEVICE,
	    M_QUERY_COMP_CNTR_CAPS, { 0, 4, 0, (uintptr_t)&caps.max_counters },
	    { 1, 8, 0, (uintptr_t)&caps.max_value }, { 2, 4, 0, (uintptr_t)&u32 });
	CMD("ibv_cmd_query_port_speed", speed_fn, f_(ctx, 1, &speed), OBJ_DEVICE,
	    M_QUERY_PORT_SPEED, { 0, 8, 0, 1 }, { 1, 8, 0, (uintptr_t)&speed });
	CMD("ibv_cmd_alloc_dmah", alloc_dmah_fn, f_(ctx, &dmah, &dinit), OBJ_DMAH, M_DMAH_ALLOC,
	    { 0, 0, 0, 0 }, { 1, 4, 0, 0 });
	CMD("ibv_cmd_free_dmah", free_dmah_fn, f_(&dmah), OBJ_DMAH, M_DMAH_FREE, { 0, 0, 0, 0 });
	/* -1 with errno in v65 */
	{
		export_fn f = (export_fn)SYM("ibv_cmd_export_dmabuf_fd");
		const struct attr a[] = { { 0, 0, 0, 0 }, { 1, 8, 0, 0 } };
		int r;

		errno = 0;
		if (f) {
			r = f(ctx, 0);
		} else {
			r = raw_ioctl(OBJ_DMABUF, M_DMABUF_ALLOC, a, 2);
			errno = r;
			r = r ? -1 : 0;
		}
		line("ibv_cmd_export_dmabuf_fd", r, errno);
	}

	if (posix_memalign((void **)&buf, 4096, 1 << 16))
		return 1;
	memset(buf, 0, 1 << 16);
	reg("ibv_cmd_reg_mr_ex addr", pd, MASK_ADDR, buf, 8192, 0, IBV_ACCESS_LOCAL_WRITE);
	reg("ibv_cmd_reg_mr_ex addr iova", pd, MASK_ADDR | MASK_IOVA, buf + 100, 1000, 0x10064,
	    IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
	reg("ibv_cmd_reg_mr_ex remote write", pd, MASK_ADDR, buf, 4096, 0,
	    IBV_ACCESS_REMOTE_WRITE);
	reg("ibv_cmd_reg_mr_ex implicit odp", pd, MASK_ADDR, buf, SIZE_MAX, 0,
	    IBV_ACCESS_ON_DEMAND | IBV_ACCESS_LOCAL_WRITE);

	printf("dealloc_pd %d\n", ibv_dealloc_pd(pd));
	printf("close %d\n", ibv_close_device(ctx));
	ibv_free_device_list(list);
	free(buf);
	return 0;
}
