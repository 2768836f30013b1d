/*
 * Which layouts this header declares. Programs get the newest provider ABI's (rdma-core v65's). A
 * provider built for an older provider ABI (IBVERBS_PABI_VERSION, see infiniband/driver.h's
 * opening comment) gets that ABI's for the structs the provider ABIs changed and v65 grew: struct
 * verbs_context with only the public ops its ABI put in front of it (none at 34 and 57, three at
 * 59, six at 64), and at 34 rdma-core v44's struct ibv_qp_ex without wr_flush (and no
 * ibv_wr_flush) and struct ibv_port_attr without active_speed_ex. The members concerned are under
 * `#if IBV_PABI_LAYOUT >= N`. In rdma-core's own tree (ccan/ on the include path) its config.h
 * says which ABI the tree builds, as rdma-core's headers read it. rdma-core v62 and v63 built
 * provider ABI @IBVERBS_NODE_V62@ with a layout of their own, without a new ABI number (struct
 * verbs_context with dm_export_dmabuf_fd in front too, four ops in all; struct verbs_context_ops
 * with dm_export_dmabuf_fd and query_port_speed): a provider built from those releases' sources
 * defines IBVERBS_PABI_LAYOUT @IBVERBS_LAYOUT_V62@ beside IBVERBS_PABI_VERSION @IBVERBS_NODE_V62@.
 */
#if !defined(IBVERBS_PABI_VERSION) && defined(__has_include)
#if __has_include(<ccan/list.h>) && __has_include(<config.h>)
#include <config.h>
#endif
#endif
#if defined(IBVERBS_PABI_VERSION) && defined(IBVERBS_PABI_LAYOUT)
#define IBV_PABI_LAYOUT IBVERBS_PABI_LAYOUT
#elif defined(IBVERBS_PABI_VERSION)
#define IBV_PABI_LAYOUT IBVERBS_PABI_VERSION
#else
#define IBV_PABI_LAYOUT @IBVERBS_NEWEST_PABI@
#endif
