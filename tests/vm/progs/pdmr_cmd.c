/* The provider-facing ibv_cmd_* exports of the PD/MR/MW/AH/mcast/XRCD/DM family, called directly
 * on rxe0 the way a provider calls them (tests/vm/checks.txt runs this under the system
 * libibverbs and under ours; the output must be identical). This reaches commands the rxe
 * provider never sends (XRCD, DM, query/advise/rereg/dma-buf MR) and checks what each stores into
 * the provider's objects. Multicast uses a QP handle the kernel does not know (no QPs yet): the
 * command is sent and refused. Objects made here are the kernel's only (the provider never saw
 * them), so they are destroyed with the ibv_cmd_* destroys too.
 *
 * The provider ABI structs are not in the installed headers (driver.h is not shipped); they are
 * declared here from the layouts of rdma-core 44's driver.h and kern-abi.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <infiniband/verbs.h>
#include <rdma/ib_user_verbs.h>

struct verbs_mr {
	struct ibv_mr ibv_mr;
	uint32_t mr_type;
	int access;
};

struct verbs_xrcd {
	struct ibv_xrcd xrcd;
	uint32_t comp_mask;
	uint32_t handle;
};

struct verbs_dm {
	struct ibv_dm dm;
	uint32_t handle;
};

/* kern-abi.h's request structs: the write header, then the core request. */
struct req_alloc_pd { struct ib_uverbs_cmd_hdr hdr; struct ib_uverbs_alloc_pd core; };
struct req_reg_mr { struct ib_uverbs_cmd_hdr hdr; struct ib_uverbs_reg_mr core; };
struct req_rereg_mr { struct ib_uverbs_cmd_hdr hdr; struct ib_uverbs_rereg_mr core; };
struct req_alloc_mw { struct ib_uverbs_cmd_hdr hdr; struct ib_uverbs_alloc_mw core; };
struct req_open_xrcd { struct ib_uverbs_cmd_hdr hdr; struct ib_uverbs_open_xrcd core; };

int ibv_cmd_alloc_pd(struct ibv_context *, struct ibv_pd *, void *, size_t,
		     struct ib_uverbs_alloc_pd_resp *, size_t);
int ibv_cmd_dealloc_pd(struct ibv_pd *);
int ibv_cmd_reg_mr(struct ibv_pd *, void *, size_t, uint64_t, int, struct verbs_mr *, void *,
		   size_t, struct ib_uverbs_reg_mr_resp *, size_t);
int ibv_cmd_rereg_mr(struct verbs_mr *, uint32_t, void *, size_t, uint64_t, int, struct ibv_pd *,
		     void *, size_t, struct ib_uverbs_rereg_mr_resp *, size_t);
int ibv_cmd_dereg_mr(struct verbs_mr *);
int ibv_cmd_query_mr(struct ibv_pd *, struct verbs_mr *, uint32_t);
int ibv_cmd_advise_mr(struct ibv_pd *, enum ibv_advise_mr_advice, uint32_t, struct ibv_sge *, uint32_t);
int ibv_cmd_reg_dmabuf_mr(struct ibv_pd *, uint64_t, size_t, uint64_t, int, int, struct verbs_mr *);
int ibv_cmd_reg_dm_mr(struct ibv_pd *, struct verbs_dm *, uint64_t, size_t, unsigned int,
		      struct verbs_mr *, void *);
int ibv_cmd_alloc_mw(struct ibv_pd *, enum ibv_mw_type, struct ibv_mw *, void *, size_t,
		     struct ib_uverbs_alloc_mw_resp *, size_t);
int ibv_cmd_dealloc_mw(struct ibv_mw *);
int ibv_cmd_alloc_dm(struct ibv_context *, const struct ibv_alloc_dm_attr *, struct verbs_dm *, void *);
int ibv_cmd_free_dm(struct verbs_dm *);
int ibv_cmd_open_xrcd(struct ibv_context *, struct verbs_xrcd *, int, struct ibv_xrcd_init_attr *,
		      void *, size_t, struct ib_uverbs_open_xrcd_resp *, size_t);
int ibv_cmd_close_xrcd(struct verbs_xrcd *);
int ibv_cmd_attach_mcast(struct ibv_qp *, const union ibv_gid *, uint16_t);
int ibv_cmd_detach_mcast(struct ibv_qp *, const union ibv_gid *, uint16_t);
int ibv_cmd_create_ah(struct ibv_pd *, struct ibv_ah *, struct ibv_ah_attr *,
		      struct ib_uverbs_create_ah_resp *, size_t);
int ibv_cmd_destroy_ah(struct ibv_ah *);

static struct ibv_context *ctx;

static const char *en(int e)
{
	return e ? strerrorname_np(e) : "0";
}

#define INT(name, call)                                                                    \
	({                                                                                 \
		errno = 0;                                                                 \
		int r_ = (call);                                                           \
		int e_ = errno;                                                            \
		printf("%-34s ret %s errno %s\n", name, en(r_), en(r_ ? e_ : 0));          \
		r_;                                                                        \
	})

static void show_vmr(const char *name, const struct verbs_mr *v, struct ibv_pd *pd)
{
	const struct ibv_mr *m = &v->ibv_mr;

	printf("%-34s context %d pd %d addr-null %d length %zu type %u access %#x handle-set %d\n",
	       name, m->context == ctx, m->pd == pd, m->addr == NULL, m->length, v->mr_type, v->access,
	       m->handle != 0xeeeeeeee);
}

int main(void)
{
	struct ibv_device **list;
	struct ibv_pd pd, bogus_pd;
	struct verbs_mr vmr, qmr, xmr;
	union ibv_gid gid0, mgid;
	char *buf;
	int n, i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	list = ibv_get_device_list(&n);
	for (i = 0; list && i < n; i++)
		if (!strcmp(ibv_get_device_name(list[i]), "rxe0"))
			ctx = ibv_open_device(list[i]);
	if (!ctx) {
		printf("no rxe0\n");
		return 1;
	}
	buf = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED || ibv_query_gid(ctx, 1, 0, &gid0)) {
		printf("setup failed\n");
		return 1;
	}

	/* PD */
	{
		struct req_alloc_pd req;
		struct ib_uverbs_alloc_pd_resp resp;

		memset(&pd, 0, sizeof(pd));
		if (INT("cmd_alloc_pd", ibv_cmd_alloc_pd(ctx, &pd, &req, sizeof(req), &resp, sizeof(resp))))
			return 1;
		printf("  pd context %d handle==resp %d\n", pd.context == ctx, pd.handle == resp.pd_handle);
	}
	bogus_pd = pd;
	bogus_pd.handle = 0x7ffffff0;

	/* MR: register, query it back, rereg (rxe's kernel cannot), dma-buf, advise */
	{
		struct req_reg_mr req;
		struct ib_uverbs_reg_mr_resp resp;

		memset(&vmr, 0xee, sizeof(vmr));
		INT("cmd_reg_mr", ibv_cmd_reg_mr(&pd, buf, 8192, (uintptr_t)buf,
						 IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ, &vmr, &req,
						 sizeof(req), &resp, sizeof(resp)));
		printf("  keys==resp %d handle==resp %d context %d type %u access %#x\n",
		       vmr.ibv_mr.lkey == resp.lkey && vmr.ibv_mr.rkey == resp.rkey,
		       vmr.ibv_mr.handle == resp.mr_handle, vmr.ibv_mr.context == ctx, vmr.mr_type,
		       vmr.access);
		memset(&xmr, 0xee, sizeof(xmr));
		INT("cmd_reg_mr implicit odp with addr", ibv_cmd_reg_mr(&pd, buf, SIZE_MAX, 0,
			IBV_ACCESS_ON_DEMAND, &xmr, &req, sizeof(req), &resp, sizeof(resp)));
		INT("cmd_reg_mr bad pd", ibv_cmd_reg_mr(&bogus_pd, buf, 4096, 0, 0, &xmr, &req,
							sizeof(req), &resp, sizeof(resp)));
	}
	memset(&qmr, 0xee, sizeof(qmr));
	INT("cmd_query_mr", ibv_cmd_query_mr(&pd, &qmr, vmr.ibv_mr.handle));
	printf("  lkey %d rkey %d\n", qmr.ibv_mr.lkey == vmr.ibv_mr.lkey, qmr.ibv_mr.rkey == vmr.ibv_mr.rkey);
	show_vmr("  query_mr", &qmr, &pd);
	memset(&qmr, 0xee, sizeof(qmr));
	INT("cmd_query_mr bad handle", ibv_cmd_query_mr(&pd, &qmr, 0x7ffffff0));
	{
		struct req_rereg_mr req;
		struct ib_uverbs_rereg_mr_resp resp;

		INT("cmd_rereg_mr access", ibv_cmd_rereg_mr(&vmr, IBV_REREG_MR_CHANGE_ACCESS, NULL, 0, 0,
							    IBV_ACCESS_LOCAL_WRITE, NULL, &req,
							    sizeof(req), &resp, sizeof(resp)));
		INT("cmd_rereg_mr pd", ibv_cmd_rereg_mr(&vmr, IBV_REREG_MR_CHANGE_PD, NULL, 0, 0, 0, &pd,
							&req, sizeof(req), &resp, sizeof(resp)));
	}
	{
		struct ibv_sge sge = { .addr = (uintptr_t)buf, .length = 4096, .lkey = vmr.ibv_mr.lkey };

		INT("cmd_advise_mr prefetch", ibv_cmd_advise_mr(&pd, IBV_ADVISE_MR_ADVICE_PREFETCH, 0, &sge, 1));
		INT("cmd_advise_mr no sge", ibv_cmd_advise_mr(&pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE, 0, NULL, 0));
	}
	{
		int fd = open("/dev/null", O_RDONLY);

		memset(&xmr, 0xee, sizeof(xmr));
		INT("cmd_reg_dmabuf_mr /dev/null", ibv_cmd_reg_dmabuf_mr(&pd, 0, 4096, 0, fd, 0, &xmr));
		INT("cmd_reg_dmabuf_mr fd -1", ibv_cmd_reg_dmabuf_mr(&pd, 0, 4096, 0, -1, 0, &xmr));
		close(fd);
	}

	/* DM: rxe's kernel has no device memory */
	{
		struct ibv_alloc_dm_attr da = { .length = 4096, .log_align_req = 12 };
		struct verbs_dm dm;

		memset(&dm, 0, sizeof(dm));
		dm.dm.context = ctx;
		INT("cmd_alloc_dm", ibv_cmd_alloc_dm(ctx, &da, &dm, NULL));
		dm.handle = 1;
		INT("cmd_free_dm", ibv_cmd_free_dm(&dm));
		memset(&xmr, 0xee, sizeof(xmr));
		INT("cmd_reg_dm_mr not zero-based", ibv_cmd_reg_dm_mr(&pd, &dm, 0, 4096, IBV_ACCESS_LOCAL_WRITE, &xmr, NULL));
		INT("cmd_reg_dm_mr", ibv_cmd_reg_dm_mr(&pd, &dm, 0, 4096,
						       IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_ZERO_BASED, &xmr, NULL));
	}

	/* MW */
	{
		struct req_alloc_mw req;
		struct ib_uverbs_alloc_mw_resp resp;
		struct ibv_mw mw;

		memset(&mw, 0, sizeof(mw));
		if (!INT("cmd_alloc_mw type 2", ibv_cmd_alloc_mw(&pd, IBV_MW_TYPE_2, &mw, &req, sizeof(req),
								 &resp, sizeof(resp)))) {
			printf("  mw context %d pd %d type %d rkey==resp %d handle==resp %d\n",
			       mw.context == ctx, mw.pd == &pd, mw.type, mw.rkey == resp.rkey,
			       mw.handle == resp.mw_handle);
			INT("dealloc_pd with mr, mw", ibv_cmd_dealloc_pd(&pd));
			INT("cmd_dealloc_mw", ibv_cmd_dealloc_mw(&mw));
			INT("cmd_dealloc_mw again", ibv_cmd_dealloc_mw(&mw));
		}
		INT("cmd_alloc_mw type 0", ibv_cmd_alloc_mw(&pd, 0, &mw, &req, sizeof(req), &resp, sizeof(resp)));
	}

	/* XRCD: mask checks in the library, then rxe's kernel refuses */
	{
		struct req_open_xrcd req;
		struct ib_uverbs_open_xrcd_resp resp;
		struct verbs_xrcd x;
		struct ibv_xrcd_init_attr xa = { .fd = -1, .oflags = O_CREAT };

		memset(&x, 0xee, sizeof(x));
		xa.comp_mask = IBV_XRCD_INIT_ATTR_RESERVED;
		INT("cmd_open_xrcd reserved mask", ibv_cmd_open_xrcd(ctx, &x, sizeof(x), &xa, &req, sizeof(req), &resp, sizeof(resp)));
		xa.comp_mask = IBV_XRCD_INIT_ATTR_FD;
		INT("cmd_open_xrcd fd only", ibv_cmd_open_xrcd(ctx, &x, sizeof(x), &xa, &req, sizeof(req), &resp, sizeof(resp)));
		xa.comp_mask = IBV_XRCD_INIT_ATTR_FD | IBV_XRCD_INIT_ATTR_OFLAGS;
		INT("cmd_open_xrcd", ibv_cmd_open_xrcd(ctx, &x, sizeof(x), &xa, &req, sizeof(req), &resp, sizeof(resp)));
		printf("  xrcd untouched %d\n", x.comp_mask == 0xeeeeeeee);
		x.xrcd.context = ctx;
		x.handle = 0x7ffffff0;
		INT("cmd_close_xrcd bad handle", ibv_cmd_close_xrcd(&x));
	}

	/* AH */
	{
		struct ibv_ah ah;
		struct ibv_ah_attr aa;
		struct { struct ib_uverbs_create_ah_resp core; uint32_t driver[3]; } resp;

		memset(&aa, 0, sizeof(aa));
		aa.is_global = 1;
		aa.port_num = 1;
		aa.grh.hop_limit = 1;
		aa.grh.dgid = gid0;
		memset(&ah, 0, sizeof(ah));
		if (!INT("cmd_create_ah", ibv_cmd_create_ah(&pd, &ah, &aa, &resp.core, sizeof(resp)))) {
			printf("  ah context %d handle==resp %d pd-untouched %d\n", ah.context == ctx,
			       ah.handle == resp.core.ah_handle, ah.pd == NULL);
			INT("dealloc_pd with mr, ah", ibv_cmd_dealloc_pd(&pd));
			INT("cmd_destroy_ah", ibv_cmd_destroy_ah(&ah));
			INT("cmd_destroy_ah again", ibv_cmd_destroy_ah(&ah));
		}
		aa.port_num = 3;
		INT("cmd_create_ah bad port", ibv_cmd_create_ah(&pd, &ah, &aa, &resp.core, sizeof(resp)));
	}

	/* Multicast: a QP handle the kernel does not know (covered with a real UD QP once QPs land) */
	{
		struct ibv_qp qp;

		memset(&qp, 0, sizeof(qp));
		qp.context = ctx;
		qp.handle = 0x7ffffff0;
		qp.qp_type = IBV_QPT_UD;
		memset(&mgid, 0, sizeof(mgid));
		mgid.raw[0] = 0xff;
		mgid.raw[1] = 0x0e;
		mgid.raw[15] = 1;
		INT("cmd_attach_mcast unknown qp", ibv_cmd_attach_mcast(&qp, &mgid, 0xc001));
		INT("cmd_detach_mcast unknown qp", ibv_cmd_detach_mcast(&qp, &mgid, 0xc001));
		INT("attach_mcast unknown qp", ibv_attach_mcast(&qp, &mgid, 0xc001));
		INT("detach_mcast unknown qp", ibv_detach_mcast(&qp, &mgid, 0xc001));
	}

	INT("cmd_dealloc_pd with mr", ibv_cmd_dealloc_pd(&pd));
	INT("cmd_dereg_mr", ibv_cmd_dereg_mr(&vmr));
	INT("cmd_dereg_mr again", ibv_cmd_dereg_mr(&vmr));
	INT("cmd_dealloc_pd bad handle", ibv_cmd_dealloc_pd(&bogus_pd));
	INT("cmd_dealloc_pd", ibv_cmd_dealloc_pd(&pd));
	INT("cmd_dealloc_pd again", ibv_cmd_dealloc_pd(&pd));
	INT("close_device", ibv_close_device(ctx));
	ibv_free_device_list(list);
	return 0;
}
