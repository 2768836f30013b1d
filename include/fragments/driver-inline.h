/*
 * The provider side of driver.h: the macros and static inline helpers a provider is written with
 * (registration, match tables, context allocation, logging, the container helpers). Hand-written in
 * this project's own words from rdma-core's documented behaviour; tools/headers appends it to
 * the generated driver.h. The provider ABI (IBVERBS_PABI_VERSION) is the one the opening
 * comment of this header describes.
 */

/* The address of the `type` whose `member` is at `ptr` (ccan's, when ccan/list.h came in above). */
#ifndef container_of
#define container_of(ptr, type, member) ((type *)(void *)((char *)(ptr) - offsetof(type, member)))
#endif

#define IBV_STRINGIFY_(x) IBV_STRINGIFY_TOKENS_(x)
#define IBV_STRINGIFY_TOKENS_(x) #x

/*
 * Logging through the library's verbs log (VERBS_LOG_LEVEL, VERBS_LOG_FILE): each message is
 * prefixed "<device name>: <function>:<line>: ", and errno is the same after the call as before.
 * `ctx` is the provider's struct verbs_context. The *_datapath forms compile to nothing unless the
 * provider is built with VERBS_DEBUG defined.
 */
#define verbs_log(ctx, level, fmt, ...)                                                         \
	do {                                                                                    \
		int verbs_log_saved_errno_ = errno;                                             \
		__verbs_log((ctx), (level), "%s: %s:%d: " fmt, (ctx)->context.device->name,     \
			    __func__, __LINE__, ##__VA_ARGS__);                                 \
		errno = verbs_log_saved_errno_;                                                 \
	} while (0)
#define verbs_debug(ctx, ...) verbs_log(ctx, VERBS_LOG_DEBUG, __VA_ARGS__)
#define verbs_info(ctx, ...) verbs_log(ctx, VERBS_LOG_INFO, __VA_ARGS__)
#define verbs_warn(ctx, ...) verbs_log(ctx, VERBS_LOG_WARN, __VA_ARGS__)
#define verbs_err(ctx, ...) verbs_log(ctx, VERBS_LOG_ERR, __VA_ARGS__)

#ifdef VERBS_DEBUG
#define verbs_log_datapath(ctx, level, ...) verbs_log(ctx, level, __VA_ARGS__)
#else
#define verbs_log_datapath(ctx, level, ...) do { } while (0)
#endif
#define verbs_debug_datapath(ctx, ...) verbs_log_datapath(ctx, VERBS_LOG_DEBUG, __VA_ARGS__)
#define verbs_info_datapath(ctx, ...) verbs_log_datapath(ctx, VERBS_LOG_INFO, __VA_ARGS__)
#define verbs_warn_datapath(ctx, ...) verbs_log_datapath(ctx, VERBS_LOG_WARN, __VA_ARGS__)
#define verbs_err_datapath(ctx, ...) verbs_log_datapath(ctx, VERBS_LOG_ERR, __VA_ARGS__)

/*
 * Entries of a provider's match table (`verbs_device_ops.match_table`, ended by an all-zero
 * entry). The library tries, per device: the kernel driver id (the way new providers match), then
 * the PCI vendor and device ids, then the sysfs modalias against a fnmatch pattern. `data` is
 * handed back through `verbs_sysfs_dev.match->driver_data`.
 */
#define VERBS_DRIVER_ID(id) { .u = { .driver_id = (id) }, .kind = VERBS_MATCH_DRIVER_ID }
#define VERBS_PCI_MATCH(vendor_id, device_id, data)                                             \
	{ .driver_data = (void *)(data), .vendor = (vendor_id), .device = (device_id),          \
	  .kind = VERBS_MATCH_PCI }
#define VERBS_MODALIAS_MATCH(pattern, data)                                                     \
	{ .driver_data = (void *)(data), .u = { .modalias = (pattern) }, .kind = VERBS_MATCH_MODALIAS }
/* By the start of the IB device's name (a modalias pattern on the name; it only applies to
 * devices without a modalias, and rdma-core discourages it: names can change). */
#define VERBS_NAME_MATCH(name_prefix, data)                                                     \
	{ .driver_data = (data), .u = { .modalias = "rdma_device:*N" name_prefix "*" },         \
	  .kind = VERBS_MATCH_MODALIAS }

/* The core's objects around the public ones (each public object is the first member). */
static inline struct verbs_device *verbs_get_device(const struct ibv_device *dev)
{
	return container_of(dev, struct verbs_device, device);
}

static inline struct verbs_mr *verbs_get_mr(struct ibv_mr *mr)
{
	return container_of(mr, struct verbs_mr, ibv_mr);
}

/* The old provider entry point (before verbs_device_ops.alloc_device), kept as a type. */
typedef struct verbs_device *(*verbs_driver_init_func)(const char *uverbs_sys_path, int abi_version);

/*
 * Registration. verbs_register_driver stands for the entry point of this provider ABI
 * (verbs_register_driver_34 or verbs_register_driver_65), so a provider can only register with a
 * library that speaks its ABI, whatever the dynamic linker does with symbol versions.
 */
#define IBV_REGISTER_DRIVER_(abi) IBV_REGISTER_DRIVER_NAME_(abi)
#define IBV_REGISTER_DRIVER_NAME_(abi) verbs_register_driver_##abi
#define verbs_register_driver IBV_REGISTER_DRIVER_(IBVERBS_PABI_VERSION)
#ifdef __cplusplus
extern "C" {
#endif
void verbs_register_driver(const struct verbs_device_ops *ops);
#ifdef __cplusplus
}
#endif

/*
 * PROVIDER_DRIVER(name, ops): the provider's registration, used once at file scope as
 * `PROVIDER_DRIVER(name, ops);` where `ops` is its struct verbs_device_ops. An ELF constructor
 * registers `ops` while the library dlopen()s the provider (or at program start for a provider
 * linked into the program), and `verbs_provider_<name>` names `ops` for static linking. It does
 * not compile when verbs.h declared another provider ABI's layouts than IBVERBS_PABI_VERSION (see
 * the opening comment).
 */
#define PROVIDER_DRIVER(provider_name, drv_struct)                                              \
	IBV_STATIC_ASSERT_(IBV_PABI_LAYOUT == IBV_PABI_LAYOUT_WANTED_,                          \
			   "infiniband/verbs.h declared another provider ABI's layouts: define "   \
			   "IBVERBS_PABI_VERSION before including it");                            \
	static __attribute__((constructor)) void provider_name##_register_driver(void)          \
	{                                                                                       \
		verbs_register_driver(&drv_struct);                                             \
	}                                                                                       \
	extern const struct verbs_device_ops verbs_provider_##provider_name                     \
		__attribute__((alias(IBV_STRINGIFY_(drv_struct))))

/*
 * verbs_init_and_alloc_context(ibdev, cmd_fd, drv_ctx_ptr, ctx_memb, driver_id): allocates the
 * provider's context object (the type `drv_ctx_ptr` points to, zeroed, from malloc: the provider
 * frees it) and sets up its struct verbs_context member `ctx_memb`. Returns it as that pointer
 * type, or NULL with errno set. `drv_ctx_ptr` is not evaluated. The library takes the member's
 * place as an offset disguised as a pointer; the disguise also checks, unevaluated, that the
 * member is a struct verbs_context.
 */
#define verbs_init_and_alloc_context(ibdev, cmd_fd, drv_ctx_ptr, ctx_memb, driver_id)          \
	((__typeof__(drv_ctx_ptr))_verbs_init_and_alloc_context(                                \
		(ibdev), (cmd_fd), sizeof(*(drv_ctx_ptr)),                                      \
		IBV_CONTEXT_AT_(__typeof__(*(drv_ctx_ptr)), ctx_memb), (driver_id)))
#define IBV_CONTEXT_AT_(type, member)                                                           \
	((struct verbs_context *)(uintptr_t)(offsetof(type, member) +                           \
					     0 * sizeof(ibv_is_verbs_context_(&((type *)0)->member))))
static inline int ibv_is_verbs_context_(struct verbs_context *context)
{
	(void)context;
	return 0;
}

/* Whether `input` has no bit outside `supported` (a provider's comp_mask check). */
static inline bool check_comp_mask(uint64_t input, uint64_t supported)
{
	return (input & ~supported) == 0;
}

/* A provider's alloc_parent_domain starts with this: a parent domain needs a PD (else EINVAL). */
static inline int ibv_check_alloc_parent_domain(struct ibv_parent_domain_init_attr *attr)
{
	if (attr->pd == NULL) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* A parent domain stands for the PD it contains wherever the core looks (context and handle). */
static inline void ibv_initialize_parent_domain(struct ibv_pd *parent_domain, struct ibv_pd *contained_pd)
{
	parent_domain->context = contained_pd->context;
	parent_domain->handle = contained_pd->handle;
}

#if IBVERBS_PABI_VERSION >= 64
/* Provider ABI 64 on. */

/* A buffer a provider hands out through its alloc_buf op (ibv_alloc_buf): `size` bytes at `addr`
 * for `pd`, in the dma-buf `dmabuf_fd` (-1: ordinary memory). */
struct ibv_buf {
	void *addr;
	size_t size;
	struct ibv_pd *pd;
	int dmabuf_fd;
};

static inline void ibv_buf_init(struct ibv_buf *buf, struct ibv_pd *pd, void *addr, size_t size)
{
	buf->addr = addr;
	buf->size = size;
	buf->pd = pd;
	buf->dmabuf_fd = -1;
}

static inline void ibv_buf_init_dmabuf(struct ibv_buf *buf, struct ibv_pd *pd, void *addr, size_t size,
				       int fd)
{
	ibv_buf_init(buf, pd, addr, size);
	buf->dmabuf_fd = fd;
}
#endif

#if IBVERBS_PABI_VERSION >= 59
/* Provider ABI 59 on. */

/* What a provider adds to ibv_cmd_create_cq_ex(2): the CQ ring it allocated itself (`length` 0:
 * none), at a virtual address or in a dma-buf (CREATE_CQ_CMD_FLAGS_WITH_MEM_VA / _DMABUF). */
struct verbs_create_cq_prov_attr {
	struct {
		uint64_t length;
		union {
			uint8_t *ptr;
			struct {
				uint64_t offset;
				int fd;
			} dmabuf;
		};
	} buffer;
};

static inline struct verbs_dmah *verbs_get_dmah(struct ibv_dmah *dmah)
{
	return container_of(dmah, struct verbs_dmah, dmah);
}
#endif

/* verbs_qp overlays the plain and the extended QP: the plain one must start the extended one. */
IBV_STATIC_ASSERT_(offsetof(struct ibv_qp_ex, qp_base) == 0, "struct ibv_qp_ex starts with its ibv_qp");
