/*
 * driver.h is what a provider (lib<name>-rdmav<ABI>.so) compiles against. It serves every provider
 * ABI since 34 (@IBVERBS_PABI_LIST@), chosen at compile time by IBVERBS_PABI_VERSION, as rdma-core's own
 * build does through its config.h:
@IBVERBS_PABI_NOTES@
 * Define it before the first infiniband/ header (in the provider's config.h, or
 * -DIBVERBS_PABI_VERSION=59); in rdma-core's own tree (ccan/ on the include path) its config.h is
 * read first, as rdma-core's driver.h reads it. It picks the layouts of struct verbs_context,
 * struct ibv_qp_ex and struct ibv_port_attr (verbs.h: IBV_PABI_LAYOUT) and of struct
 * verbs_context_ops, the prototypes the ABIs changed, the name verbs_register_driver stands for,
 * and the private symbol version (IBVERBS_PRIVATE_<ABI>) the provider's calls into the library
 * bind to. A provider that includes verbs.h before this header must define it first:
 * PROVIDER_DRIVER refuses to compile when verbs.h's layouts are not this ABI's. A program that
 * only uses driver.h's helpers (ibv_devinfo reads sysfs files through it) may include it in any
 * order.
 */
#if !defined(IBVERBS_PABI_VERSION) && defined(__has_include)
#if __has_include(<ccan/list.h>) && __has_include(<config.h>)
#include <config.h>
#endif
#endif
#ifndef IBVERBS_PABI_VERSION
#define IBVERBS_PABI_VERSION 34
#endif
#if @IBVERBS_PABI_NOT_KNOWN@
#error "infiniband/driver.h: IBVERBS_PABI_VERSION must be one of the provider ABIs this header serves: @IBVERBS_PABI_LIST@"
#endif
/* The layouts rdma-core changed inside a provider ABI (see verbs.h's IBV_PABI_LAYOUT), each with
 * its IBVERBS_PABI_VERSION only: IBVERBS_PABI_LAYOUT 32 (rdma-core v34), 33 (v35) and 54 (v54 to
 * v56) with 34, @IBVERBS_LAYOUT_V62@ (v62, v63) with @IBVERBS_NODE_V62@. */
#if defined(IBVERBS_PABI_LAYOUT) && @IBVERBS_LAYOUT_NOT_KNOWN@
#error "infiniband/driver.h: IBVERBS_PABI_LAYOUT goes with its IBVERBS_PABI_VERSION only: @IBVERBS_OTHER_LAYOUTS@"
#endif
#if defined(IBVERBS_PABI_LAYOUT)
#define IBV_PABI_LAYOUT_WANTED_ IBVERBS_PABI_LAYOUT
#else
#define IBV_PABI_LAYOUT_WANTED_ IBVERBS_PABI_VERSION
#endif

/* verbs_device.refcount is an atomic_int, which C++ before C++23 cannot name (it sees an int). */
#ifndef __cplusplus
#include <stdatomic.h>
#endif

/* rdma-core's in-tree providers reach ccan's lists (and container_of) through driver.h; when ccan
 * is on the include path, its list.h supplies struct list_node as well. */
#ifdef __has_include
#if __has_include(<ccan/list.h>)
#include <ccan/list.h>
#endif
#endif
