/* uvemu: one command at a time, as drivers/infiniband/core/uverbs_main.c and uverbs_ioctl.c take it.
 *
 * A command is a write() or an RDMA_VERBS_IOCTL on a command fd, or an mmap of it. Each gets the
 * next number (#N in the stream); UVEMU_FAIL="N:MODE[,N:MODE...]" fails command N with MODE, an
 * errno name (EINVAL, ENOMEM, EIO, ...) or "short" (the command succeeds but the driver answers with
 * half of its response, as an older kernel driver with a smaller response struct would). A failed
 * command has no effect.
 *
 * The ioctl framework's checks that both libraries could trip are the kernel's: the header length,
 * the reserved fields, unknown methods (EPROTONOSUPPORT), unknown mandatory attributes
 * (EPROTONOSUPPORT), a PTR_OUT with VALID_OUTPUT set going in, and the output flags written back.
 */
#define _GNU_SOURCE
#include "uvemu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- faults ---- */

static unsigned cmd_count;

struct fault {
	unsigned n;
	int mode; /* errno, or -1: short answer */
};

static const struct {
	const char *name;
	int e;
} errnames[] = {
	{ "EINVAL", EINVAL }, { "ENOMEM", ENOMEM }, { "EIO", EIO }, { "EFAULT", EFAULT },
	{ "ENOSPC", ENOSPC }, { "EPERM", EPERM }, { "EBUSY", EBUSY }, { "EOPNOTSUPP", EOPNOTSUPP },
	{ "EPROTONOSUPPORT", EPROTONOSUPPORT }, { "ENOTTY", ENOTTY }, { "EAGAIN", EAGAIN },
	{ "ENOENT", ENOENT }, { "EACCES", EACCES }, { "ENODEV", ENODEV }, { "ENOSYS", ENOSYS },
};

const char *emu_errname(int e)
{
	static char buf[16];

	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].e == e)
			return errnames[i].name;
	snprintf(buf, sizeof(buf), "E%d", e);
	return buf;
}

static int parse_mode(const char *s)
{
	if (!strncmp(s, "short", 5))
		return -1;
	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++) {
		size_t l = strlen(errnames[i].name);

		if (!strncmp(s, errnames[i].name, l) && (s[l] == 0 || s[l] == ','))
			return errnames[i].e;
	}
	return atoi(s) > 0 ? atoi(s) : EINVAL;
}

int emu_fault_next(const char *what)
{
	const char *spec = getenv("UVEMU_FAIL");
	unsigned n = ++cmd_count;

	(void)what;
	while (spec && *spec) {
		char *colon;
		unsigned long k = strtoul(spec, &colon, 10);

		if (*colon != ':')
			break;
		if (k == n)
			return parse_mode(colon + 1);
		spec = strchr(colon, ',');
		if (spec)
			spec++;
	}
	return 0;
}

/* ---- objects ---- */

struct emu_obj *emu_obj_new(struct emu_ctx *c, uint16_t type, uint32_t *handle)
{
	for (uint32_t h = 0; h < EMU_MAX_OBJ; h++) {
		if (!c->obj[h].live) {
			memset(&c->obj[h], 0, sizeof(c->obj[h]));
			c->obj[h].type = type;
			c->obj[h].live = true;
			c->obj[h].channel = -1;
			c->obj[h].xrcd = ~0u;
			c->obj[h].shared = ~0u;
			c->obj[h].dm = ~0u;
			c->obj[h].dmah = ~0u;
			c->obj[h].tbl = ~0u;
			*handle = h;
			return &c->obj[h];
		}
	}
	return NULL;
}

struct emu_obj *emu_obj_get(struct emu_ctx *c, uint16_t type, uint32_t handle)
{
	if (!c || handle >= EMU_MAX_OBJ || !c->obj[handle].live || c->obj[handle].type != type)
		return NULL;
	return &c->obj[handle];
}

void emu_obj_free(struct emu_ctx *c, uint32_t handle)
{
	if (handle < EMU_MAX_OBJ)
		memset(&c->obj[handle], 0, sizeof(c->obj[handle]));
}

uint32_t emu_next_num(struct emu_ctx *c, uint16_t type)
{
	static const uint32_t base[] = {
		[UVERBS_OBJECT_PD] = 1, [UVERBS_OBJECT_CQ] = 0x20, [UVERBS_OBJECT_QP] = 0x100,
		[UVERBS_OBJECT_SRQ] = 0x40, [UVERBS_OBJECT_AH] = 1, [UVERBS_OBJECT_MR] = 0x10,
		[UVERBS_OBJECT_MW] = 0x800, [UVERBS_OBJECT_XRCD] = 1, [UVERBS_OBJECT_WQ] = 0x200,
	};
	uint32_t n = c->next_num[type]++;

	return (type < sizeof(base) / sizeof(base[0]) ? base[type] : 1) + n;
}

uint64_t emu_key_new(struct emu_ctx *c, size_t size, uint32_t a, uint32_t b)
{
	uint64_t off = c->next_key;

	c->next_key += (size + 4095) & ~4095ull;
	for (unsigned i = 0; i < EMU_MAX_KEYS; i++) {
		if (!c->keys[i].size) {
			c->keys[i] = (struct emu_key){ off, size, a, b };
			break;
		}
	}
	return off;
}

struct emu_key *emu_key_find(struct emu_ctx *c, uint64_t off)
{
	for (unsigned i = 0; i < EMU_MAX_KEYS; i++)
		if (c->keys[i].size && c->keys[i].off == off)
			return &c->keys[i];
	return NULL;
}

int emu_key_check(struct emu_ctx *c, size_t len, uint64_t off)
{
	struct emu_key *k = emu_key_find(c, off);

	return !k || len > ((k->size + 4095) & ~4095ull) ? EINVAL : 0;
}

/* ---- attributes ---- */

struct ib_uverbs_attr *emu_attr(struct emu_req *r, uint16_t id)
{
	for (unsigned i = 0; i < r->nattrs; i++)
		if (r->attrs[i].attr_id == id)
			return &r->attrs[i];
	return NULL;
}

const void *emu_attr_in(struct emu_req *r, uint16_t id, size_t *len)
{
	struct ib_uverbs_attr *a = emu_attr(r, id);

	if (!a)
		return NULL;
	*len = a->len;
	if (a->len <= sizeof(a->data))
		return &a->data;
	return (const void *)(uintptr_t)a->data;
}

uint64_t emu_attr_u64(struct emu_req *r, uint16_t id, uint64_t dflt)
{
	struct ib_uverbs_attr *a = emu_attr(r, id);
	uint64_t v = 0;

	if (!a)
		return dflt;
	if (a->len == 0)
		return a->data;
	/* An inline attribute's value sits in the first len bytes of data, in the host's byte
	 * order: read it as an integer of that size (on a big-endian host, copying 4 bytes into
	 * the front of a u64 would give value << 32). */
	switch (a->len) {
	case 1: { uint8_t x; memcpy(&x, &a->data, 1); return x; }
	case 2: { uint16_t x; memcpy(&x, &a->data, 2); return x; }
	case 4: { uint32_t x; memcpy(&x, &a->data, 4); return x; }
	}
	memcpy(&v, &a->data, a->len < 8 ? a->len : 8);
	return v;
}

int emu_attr_out(struct emu_req *r, uint16_t id, const void *data, size_t len)
{
	struct ib_uverbs_attr *a = emu_attr(r, id);

	if (!a)
		return 0;
	/* uverbs_copy_to: the user's buffer may be shorter (an older library) or longer. */
	memcpy((void *)(uintptr_t)a->data, data, len < a->len ? len : a->len);
	a->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	return 0;
}

void emu_resp_out(struct emu_req *r, const void *resp, size_t len)
{
	if (!r->out)
		return;
	memcpy(r->out, resp, len < r->out_len ? len : r->out_len);
	if (r->out_len > len)
		memset(r->out + len, 0, r->out_len - len);
}

bool emu_udata_cleared(const struct emu_req *r, size_t from)
{
	for (size_t i = from; i < r->uin_len; i++)
		if (r->uin[i])
			return false;
	return true;
}

int emu_udata_in(const struct emu_req *r, void *req, size_t len)
{
	if (r->uin_len < len)
		return EINVAL;
	if (!emu_udata_cleared(r, len))
		return EOPNOTSUPP;
	memcpy(req, r->uin, len);
	return 0;
}

void emu_udata_out(struct emu_req *r, const void *resp, size_t len)
{
	size_t n = len < r->uout_len ? len : r->uout_len;

	if (!r->uout || !n)
		return;
	if (r->short_answer) {
		/* An older driver's smaller struct. The rest is what the provider had there, which the
		 * kernel leaves alone; zeroed here so that runs under both libraries see the same (most
		 * providers zero their response buffers anyway). */
		n = (n / 2) & ~(size_t)7;
		memset(r->uout + n, 0, r->uout_len - n);
	}
	memcpy(r->uout, resp, n);
}

static bool driver_ns(uint16_t id)
{
	return id & UVERBS_ID_NS_MASK;
}

/* The core methods with driver data (UVERBS_ATTR_UHW_IN/OUT); in the others, and in driver
 * methods, attribute ids from UVERBS_ID_NS_MASK up are the driver's own. */
static bool has_uhw(uint16_t obj, uint16_t meth)
{
	if (driver_ns(obj) || driver_ns(meth))
		return false;
	switch (obj) {
	case UVERBS_OBJECT_DEVICE:
		return meth == UVERBS_METHOD_INVOKE_WRITE || meth == UVERBS_METHOD_GET_CONTEXT;
	case UVERBS_OBJECT_CQ:
	case UVERBS_OBJECT_QP:
	case UVERBS_OBJECT_SRQ:
	case UVERBS_OBJECT_WQ:
		return meth == 0; /* CREATE */
	case UVERBS_OBJECT_FLOW_ACTION:
		return meth == 0;
	/* DM_ALLOC, DM_MR_REG, REG_DMABUF_MR: no UHW; mlx5's DM attributes are its own (0x1000 up) */
	}
	return false;
}

/* Log a request's bytes as the kernel reads them: the core request of write command wcmd
 * (obj ~0), or driver data (the provider's canonical form). */
static void log_canon(const struct emu_req *r, const void *p, size_t len, uint32_t wcmd, int obj, int meth)
{
	uint8_t copy[4096];
	const struct emu_drv *d = emu_device ? emu_drv_find(emu_device->provider) : NULL;

	if (len > sizeof(copy)) {
		emu_log_bytes("", p, len);
		return;
	}
	memcpy(copy, p, len);
	/* Driver data of an ioctl method: named by the write command it stands for. */
	if (obj == UVERBS_OBJECT_DEVICE && meth == UVERBS_METHOD_GET_CONTEXT)
		wcmd = IB_USER_VERBS_CMD_GET_CONTEXT;
	else if (obj == UVERBS_OBJECT_CQ && meth == UVERBS_METHOD_CQ_CREATE)
		wcmd = IB_USER_VERBS_CMD_CREATE_CQ;
	else if (obj == UVERBS_OBJECT_QP && meth == UVERBS_METHOD_QP_CREATE)
		wcmd = IB_USER_VERBS_CMD_CREATE_QP;
	else if (obj == UVERBS_OBJECT_SRQ && meth == UVERBS_METHOD_SRQ_CREATE)
		wcmd = IB_USER_VERBS_CMD_CREATE_SRQ;
	if (emu_post_cmd(wcmd))
		emu_post_canon(r, wcmd, copy, len, obj == ~0);
	else if (obj == ~0)
		emu_canon_core_in(wcmd, copy, len);
	else if (d && d->canon_uhw)
		d->canon_uhw(obj, meth, wcmd & ~IB_USER_VERBS_CMD_FLAG_EXTENDED, copy, len);
	emu_log_bytes("", copy, len);
}

/* ---- names for the stream ---- */

static const char *const obj_names[] = {
	"DEVICE", "PD", "COMP_CHANNEL", "CQ", "QP", "SRQ", "AH", "MR", "MW", "FLOW", "XRCD",
	"RWQ_IND_TBL", "WQ", "FLOW_ACTION", "DM", "COUNTERS", "ASYNC_EVENT",
};

static const char *const dev_methods[] = {
	"INVOKE_WRITE", "INFO_HANDLES", "QUERY_PORT", "GET_CONTEXT", "QUERY_CONTEXT",
	"QUERY_GID_TABLE", "QUERY_GID_ENTRY",
};

static void method_name(char *buf, size_t n, uint16_t obj, uint16_t meth)
{
	const char *o = obj < sizeof(obj_names) / sizeof(obj_names[0]) ? obj_names[obj] : NULL;
	char ob[16];

	if (!o) {
		snprintf(ob, sizeof(ob), "obj%#x", obj);
		o = ob;
	}
	if (obj == UVERBS_OBJECT_DEVICE && meth < sizeof(dev_methods) / sizeof(dev_methods[0]))
		snprintf(buf, n, "%s.%s", o, dev_methods[meth]);
	else if (obj != UVERBS_OBJECT_DEVICE && meth < 2 && obj < 17 &&
		 (obj == UVERBS_OBJECT_CQ || obj == UVERBS_OBJECT_QP || obj == UVERBS_OBJECT_SRQ ||
		  obj == UVERBS_OBJECT_WQ))
		snprintf(buf, n, "%s.%s", o, meth ? "DESTROY" : "CREATE");
	else
		snprintf(buf, n, "%s.m%#x", o, meth);
}

static char attr_kind(struct emu_req *r, uint16_t id)
{
	uint16_t obj = r->hdr->object_id, meth = r->hdr->method_id;
	const struct emu_drv *d;
	char k = 0;

	if (has_uhw(obj, meth) && id == UVERBS_ATTR_UHW_IN)
		return 'i';
	if (has_uhw(obj, meth) && id == UVERBS_ATTR_UHW_OUT)
		return 'o';
	if (!driver_ns(obj) && !driver_ns(meth) && !driver_ns(id))
		k = emu_core_attr_kind(obj, meth, id);
	d = emu_drv_find(r->dev->provider);
	if (!k && d && d->attr_kind)
		k = d->attr_kind(obj, meth, id);
	return k ? k : '?';
}

static void log_attr_in(struct emu_req *r, struct ib_uverbs_attr *a, char kind)
{
	char label[64], nb[32];

	snprintf(label, sizeof(label), "  a%#x%s", a->attr_id,
		 a->flags & UVERBS_ATTR_F_MANDATORY ? "!" : "");
	switch (kind) {
	case 'i': {
		const void *p = a->len <= 8 ? (void *)&a->data : (void *)(uintptr_t)a->data;
		uint16_t obj = r->hdr->object_id, meth = r->hdr->method_id;
		bool invoke = obj == UVERBS_OBJECT_DEVICE && meth == UVERBS_METHOD_INVOKE_WRITE;
		uint32_t wcmd = invoke ? emu_attr_u64(r, UVERBS_ATTR_WRITE_CMD, ~0u) : ~0u;

		emu_log("%s in len=%u:", label, a->len);
		if (invoke && a->attr_id == UVERBS_ATTR_CORE_IN)
			log_canon(r, p, a->len, wcmd, ~0, 0);
		else if (has_uhw(obj, meth) && a->attr_id == UVERBS_ATTR_UHW_IN)
			log_canon(r, p, a->len, wcmd, obj, meth);
		else
			emu_log_bytes("", p, a->len);
		break;
	}
	case 'o':
		emu_log("%s out len=%u\n", label, a->len);
		break;
	case 'h':
		emu_log("%s handle %llu\n", label, (unsigned long long)a->data);
		break;
	case 'n': /* a new object's handle: written by the kernel */
		emu_log("%s new\n", label);
		break;
	case 'f':
		emu_log("%s fd %s\n", label, emu_fd_name((int)a->data, nb));
		break;
	case 'c':
		emu_log("%s const len=%u %#llx\n", label, a->len, (unsigned long long)emu_attr_u64(r, a->attr_id, 0));
		break;
	case 'e': /* an enum attribute: its element */
		emu_log("%s enum %u\n", label, a->attr_data.enum_data.elem_id);
		break;
	default:
		emu_log("%s len=%u flags=%#x\n", label, a->len, a->flags);
	}
}

/* ---- ioctl ---- */

/* UVEMU_KERNEL=write: the kernel has write() commands only. */
bool emu_write_only_kernel(void)
{
	static int v = -1;

	if (v < 0) {
		const char *k = getenv("UVEMU_KERNEL");

		v = k && !strcmp(k, "write");
	}
	return v;
}

static int run_ioctl(struct emu_req *r)
{
	struct ib_uverbs_ioctl_hdr *h = r->hdr;
	const struct emu_drv *d = emu_drv_find(r->dev->provider);

	bool uhw = has_uhw(h->object_id, h->method_id);

	for (unsigned i = 0; i < r->nattrs; i++) {
		struct ib_uverbs_attr *a = &r->attrs[i];

		if (a->flags & ~(UVERBS_ATTR_F_MANDATORY | UVERBS_ATTR_F_VALID_OUTPUT))
			return EINVAL;
		/* An attribute this kernel does not know: fine unless the caller needs it. */
		if ((a->flags & UVERBS_ATTR_F_MANDATORY) && attr_kind(r, a->attr_id) == '?')
			return EPROTONOSUPPORT;
		if (!uhw)
			continue;
		if (a->attr_id == UVERBS_ATTR_UHW_IN) {
			r->uin = a->len <= 8 ? (const uint8_t *)&a->data : (const uint8_t *)(uintptr_t)a->data;
			r->uin_len = a->len;
		} else if (a->attr_id == UVERBS_ATTR_UHW_OUT) {
			r->uout = (uint8_t *)(uintptr_t)a->data;
			r->uout_len = a->len;
		}
	}
	if ((h->object_id & UVERBS_ID_NS_MASK) || (h->method_id & UVERBS_ID_NS_MASK))
		return d && d->ioctl ? d->ioctl(r) : EPROTONOSUPPORT;
	return emu_core_ioctl(r);
}

int emu_ioctl(int fd, struct ib_uverbs_ioctl_hdr *hdr)
{
	struct emu_req r = { 0 };
	char name[48];
	int ret, fault;

	pthread_mutex_lock(&emu_lock);
	r.fd = fd;
	r.ctx = emu_fd_get(fd)->ctx;
	r.dev = r.ctx->dev;
	r.hdr = hdr;
	r.attrs = hdr->attrs;
	r.nattrs = hdr->num_attrs;

	method_name(name, sizeof(name), hdr->object_id, hdr->method_id);
	if (emu_write_only_kernel()) {
		/* A kernel before the ioctl framework (4.x): not a command, nothing to fail. */
		emu_log("ioctl %s -> ENOTTY\n", name);
		pthread_mutex_unlock(&emu_lock);
		errno = ENOTTY;
		return -1;
	}
	fault = emu_fault_next("ioctl");
	emu_log("#%u ioctl %s drv=%u n=%u\n", cmd_count, name, hdr->driver_id, hdr->num_attrs);
	if (hdr->length != sizeof(*hdr) + hdr->num_attrs * sizeof(struct ib_uverbs_attr)) {
		ret = EINVAL;
		goto out;
	}
	/* Sorted by id: the kernel reads them into a bundle by id, the order is the library's. */
	{
		unsigned order[64], n = hdr->num_attrs < 64 ? hdr->num_attrs : 64;

		for (unsigned i = 0; i < n; i++)
			order[i] = i;
		for (unsigned i = 1; i < n; i++)
			for (unsigned j = i; j > 0 && hdr->attrs[order[j]].attr_id < hdr->attrs[order[j - 1]].attr_id; j--) {
				unsigned t = order[j];

				order[j] = order[j - 1];
				order[j - 1] = t;
			}
		for (unsigned i = 0; i < n; i++)
			log_attr_in(&r, &hdr->attrs[order[i]], attr_kind(&r, hdr->attrs[order[i]].attr_id));
	}
	if (hdr->reserved1 || hdr->reserved2) {
		ret = EPROTONOSUPPORT;
		goto out;
	}
	if (fault > 0) {
		emu_log("  !fault %s\n", emu_errname(fault));
		ret = fault;
		goto out;
	}
	r.short_answer = fault < 0;
	if (r.short_answer)
		emu_log("  !fault short\n");
	ret = run_ioctl(&r);
	if (!ret && r.uout)
		emu_attr(&r, UVERBS_ATTR_UHW_OUT)->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
out:
	emu_cover("ioctl %u %u %s\n", hdr->object_id, hdr->method_id, ret ? emu_errname(ret) : "0");
	if (ret) {
		emu_log("  -> %s\n", emu_errname(ret));
	} else {
		emu_log("  -> 0");
		for (unsigned i = 0; i < r.nattrs; i++) {
			char k = attr_kind(&r, r.attrs[i].attr_id), nb[32];

			if (k == 'n')
				emu_log(" a%#x=%llu", r.attrs[i].attr_id, (unsigned long long)r.attrs[i].data);
			else if (k == 'F')
				emu_log(" a%#x=%s", r.attrs[i].attr_id, emu_fd_name((int)r.attrs[i].data, nb));
		}
		emu_log("\n");
	}
	pthread_mutex_unlock(&emu_lock);
	if (ret) {
		errno = ret;
		return -1;
	}
	return 0;
}

/* ---- write ---- */

int emu_write_sizes(uint32_t cmd, size_t *req, size_t *resp);
const char *emu_write_name(uint32_t cmd);

static void log_write(struct emu_req *r, const char *how)
{
	emu_log("#%u %s %s\n", cmd_count, how, emu_write_name(r->wcmd));
	emu_log("  in len=%zu:", r->in_len);
	log_canon(r, r->in, r->in_len, r->wcmd, ~0, 0);
	if (r->uin_len) {
		emu_log("  uhw in len=%zu:", r->uin_len);
		log_canon(r, r->uin, r->uin_len, r->wcmd, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE);
	}
	emu_log("  out len=%zu uhw out len=%zu\n", r->out_len, r->uout_len);
}

/* Run a write command whose buffers r describes. */
static int run_write(struct emu_req *r, const char *how, int fault)
{
	int ret;

	log_write(r, how);
	if (fault > 0) {
		emu_log("  !fault %s\n", emu_errname(fault));
		return fault;
	}
	r->short_answer = fault < 0;
	if (r->short_answer)
		emu_log("  !fault short\n");
	ret = emu_core_write(r);
	emu_log("  -> %s\n", ret ? emu_errname(ret) : "0");
	return ret;
}

static int invoke_write(struct emu_req *r);

/* UVERBS_METHOD_INVOKE_WRITE: a write command in ioctl attributes. Called from emu_core_ioctl. */
int emu_invoke_write(struct emu_req *r)
{
	int ret = invoke_write(r);

	emu_cover("write %#x %s\n", (unsigned)emu_attr_u64(r, UVERBS_ATTR_WRITE_CMD, ~0ull),
		  ret ? emu_errname(ret) : "0");
	return ret;
}

static int invoke_write(struct emu_req *r)
{
	struct ib_uverbs_attr *cin = emu_attr(r, UVERBS_ATTR_CORE_IN);
	struct ib_uverbs_attr *cout = emu_attr(r, UVERBS_ATTR_CORE_OUT);
	size_t req, resp;
	int ret;

	r->wcmd = emu_attr_u64(r, UVERBS_ATTR_WRITE_CMD, ~0ull);
	if (emu_write_sizes(r->wcmd, &req, &resp))
		return EOPNOTSUPP;
	if (!cin || cin->len < req)
		return ENOSPC;
	r->in = cin->len <= 8 ? (const uint8_t *)&cin->data : (const uint8_t *)(uintptr_t)cin->data;
	r->in_len = cin->len;
	if (resp) {
		if (!cout || cout->len < resp)
			return ENOSPC;
		r->out = (uint8_t *)(uintptr_t)cout->data;
		r->out_len = cout->len;
	}
	ret = emu_core_write(r);
	if (!ret && cout)
		cout->flags |= UVERBS_ATTR_F_VALID_OUTPUT;
	return ret;
}

ssize_t emu_write(int fd, const void *buf, size_t len)
{
	const struct ib_uverbs_cmd_hdr *h = buf;
	struct emu_req r = { 0 };
	size_t req, resp;
	int ret, fault;

	pthread_mutex_lock(&emu_lock);
	r.fd = fd;
	r.ctx = emu_fd_get(fd)->ctx;
	r.dev = r.ctx->dev;
	fault = emu_fault_next("write");
	if (len < sizeof(*h)) {
		emu_log("#%u write short len=%zu\n  -> EINVAL\n", cmd_count, len);
		ret = EINVAL;
		goto out;
	}
	r.wcmd = h->command;
	if (emu_write_sizes(r.wcmd, &req, &resp)) {
		emu_log("#%u write cmd=%#x\n  -> ENOSYS\n", cmd_count, h->command);
		ret = ENOSYS;
		goto out;
	}
	if (h->command & IB_USER_VERBS_CMD_FLAG_EXTENDED) {
		const struct ib_uverbs_ex_cmd_hdr *ex = (const void *)(h + 1);
		size_t core_in = h->in_words * 8, core_out = h->out_words * 8;

		if (len < sizeof(*h) + sizeof(*ex) ||
		    len != sizeof(*h) + sizeof(*ex) + core_in + ex->provider_in_words * 8) {
			emu_log("#%u write-ex %s bad length %zu\n  -> EINVAL\n", cmd_count,
				emu_write_name(r.wcmd), len);
			ret = EINVAL;
			goto out;
		}
		r.in = (const uint8_t *)(ex + 1);
		r.in_len = core_in;
		r.uin = r.in + core_in;
		r.uin_len = ex->provider_in_words * 8;
		r.out = (uint8_t *)(uintptr_t)ex->response;
		r.out_len = core_out;
		r.uout = r.out ? r.out + core_out : NULL;
		r.uout_len = r.out ? ex->provider_out_words * 8 : 0;
		if (ex->cmd_hdr_reserved) {
			ret = EINVAL;
			goto out;
		}
		ret = run_write(&r, "write-ex", fault);
	} else {
		if (h->in_words * 4 != len || len - sizeof(*h) < req) {
			emu_log("#%u write %s bad length %zu\n  -> EINVAL\n", cmd_count,
				emu_write_name(r.wcmd), len);
			ret = EINVAL;
			goto out;
		}
		r.in = (const uint8_t *)(h + 1);
		r.in_len = req;
		r.uin = r.in + req;
		r.uin_len = len - sizeof(*h) - req;
		if (resp) {
			uint64_t p;

			memcpy(&p, r.in, sizeof(p));
			if (h->out_words * 4 < resp) {
				emu_log("#%u write %s out_words %u too small\n  -> ENOSPC\n", cmd_count,
					emu_write_name(r.wcmd), h->out_words);
				ret = ENOSPC;
				goto out;
			}
			r.out = (uint8_t *)(uintptr_t)p;
			r.out_len = resp;
			r.uout = r.out + resp;
			r.uout_len = h->out_words * 4 - resp;
		}
		ret = run_write(&r, "write", fault);
	}
out:
	if (len >= sizeof(*h))
		emu_cover("write %#x %s\n", h->command, ret ? emu_errname(ret) : "0");
	pthread_mutex_unlock(&emu_lock);
	if (ret) {
		errno = ret;
		return -1;
	}
	return len;
}

/* ---- mmap ---- */

static struct map {
	void *addr;
	size_t len;
	unsigned id;
} maps[EMU_MAX_MAPS];
static unsigned map_ids;

void *emu_mmap(int fd, void *addr, size_t len, int prot, int flags, off_t off)
{
	const struct emu_drv *d;
	struct emu_ctx *c;
	void *p = MAP_FAILED;
	int fault, ret = 0;

	pthread_mutex_lock(&emu_lock);
	c = emu_fd_get(fd)->ctx;
	d = emu_drv_find(c->dev->provider);
	fault = emu_fault_next("mmap");
	emu_log("#%u mmap off=%#llx len=%#zx prot=%#x flags=%#x\n", cmd_count, (unsigned long long)off,
		len, prot, flags & ~MAP_FIXED);
	if (fault > 0) {
		emu_log("  !fault %s\n", emu_errname(fault));
		ret = fault;
		goto out;
	}
	if (!c->have_context) {
		ret = EINVAL;
		goto out;
	}
	p = real_mmap(addr, len, prot | PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)), -1, 0);
	if (p == MAP_FAILED) {
		ret = errno;
		goto out;
	}
	ret = d && d->mmap ? d->mmap(c, p, len, prot, off) : 0;
	if (ret) {
		real_munmap(p, len);
		p = MAP_FAILED;
		goto out;
	}
	if (!(prot & PROT_WRITE) || !(prot & PROT_READ))
		mprotect(p, len, prot);
	for (unsigned i = 0; i < EMU_MAX_MAPS; i++) {
		if (!maps[i].addr) {
			maps[i] = (struct map){ p, len, map_ids++ };
			emu_log("  -> map#%u\n", maps[i].id);
			break;
		}
	}
out:
	if (ret)
		emu_log("  -> %s\n", emu_errname(ret));
	pthread_mutex_unlock(&emu_lock);
	if (ret) {
		errno = ret;
		return MAP_FAILED;
	}
	return p;
}

void emu_munmap_note(void *addr, size_t len)
{
	pthread_mutex_lock(&emu_lock);
	for (unsigned i = 0; i < EMU_MAX_MAPS; i++) {
		struct map *m = &maps[i];

		if (m->addr && (char *)addr >= (char *)m->addr && (char *)addr < (char *)m->addr + m->len) {
			emu_log("munmap map#%u+%#zx len=%#zx\n", m->id, (size_t)((char *)addr - (char *)m->addr), len);
			if (addr == m->addr && len >= m->len)
				m->addr = NULL;
			break;
		}
	}
	pthread_mutex_unlock(&emu_lock);
}
