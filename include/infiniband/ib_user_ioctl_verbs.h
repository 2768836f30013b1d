/* infiniband/ib_user_ioctl_verbs.h: the kernel's verbs ioctl uapi, as libibverbs-dev installs it.
 *
 * Hand-written for ibverbs-rs. rdma-core installs its own copy of the kernel header here; ibverbs-rs
 * does not carry kernel text: this header includes the system's <rdma/ib_user_ioctl_verbs.h>
 * (linux-libc-dev) and only adds the names rdma-core v65's copy has that older kernel headers lack.
 * Include <infiniband/verbs_api.h> (or verbs.h) first to get the verbs API's pointer members
 * (RDMA_UAPI_PTR); on its own this header gives the kernel's layout, which is the same on 64-bit.
 *
 * What older kernel headers lack (checked against Debian 12's linux-libc-dev 6.1, 13's 6.12 and
 * sid's 7.2; the kernel commit each arrived with is named in rdma-core's kernel-headers history):
 * - enumerators of enums the kernel already has (a FLUSH access bit, two driver ids, a core-support
 *   bit): defined below as macros cast to that enum, so they behave as the enumerator would, in C
 *   and C++; only for kernel headers older than the first release known to carry them. A kernel
 *   that has them and still falls under the test just sees the same name and value again.
 * - enumerators of enums the kernel does not have yet (dma-buf buffer types, completion counters):
 *   plain integer macros under the same test. The enum types themselves are not declared, because
 *   a kernel header that later declares them would clash.
 * - not supplemented, because a struct can be neither tested for nor patched: struct
 *   ib_uverbs_buffer_desc (kernel 7.2) and ib_uverbs_query_port_resp_ex.active_speed_ex (6.7). No
 *   public verbs.h item needs them; the library itself uses its own mirrors (src/abi/uapi).
 * Values are rdma-core v65's; abi-tests/values/ib_user_ioctl_verbs.h.values checks every name.
 */
#ifndef INFINIBAND_IB_USER_IOCTL_VERBS_H
#define INFINIBAND_IB_USER_IOCTL_VERBS_H

#include <linux/types.h>
#include <linux/version.h>
#include <rdma/ib_user_verbs.h>
#include <rdma/ib_user_ioctl_verbs.h>

#ifndef KERNEL_VERSION
#define KERNEL_VERSION(a, b, c) (((a) << 16) + ((b) << 8) + ((c) > 255 ? 255 : (c)))
#endif

/* Present from kernel 6.2 (seen in 6.12). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 12, 0)
#define IB_UVERBS_ACCESS_FLUSH_GLOBAL ((enum ib_uverbs_access_flags)(1 << 8))
#define IB_UVERBS_ACCESS_FLUSH_PERSISTENT ((enum ib_uverbs_access_flags)(1 << 9))
#define RDMA_DRIVER_MANA ((enum rdma_driver_id)20)
#endif

/* Arrived between kernels 6.13 and 7.2 (driver id: 6.18; seen in 7.2). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 2, 0)
#define RDMA_DRIVER_IONIC ((enum rdma_driver_id)21)
#define IB_UVERBS_CORE_SUPPORT_ROBUST_UDATA ((enum ib_uverbs_core_support)(1 << 1))
/* enum ib_uverbs_buffer_type */
#define IB_UVERBS_BUFFER_TYPE_DMABUF 0
#define IB_UVERBS_BUFFER_TYPE_VA 1
#endif

/* In rdma-core v65's copy, not yet in kernel 7.2's; expected in 7.3. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(7, 3, 0)
/* enum ib_uverbs_comp_cntr_entry */
#define IB_UVERBS_COMP_CNTR_ENTRY_COMP 0
#define IB_UVERBS_COMP_CNTR_ENTRY_ERR 1
/* enum ib_uverbs_comp_cntr_modify_op */
#define IB_UVERBS_COMP_CNTR_MODIFY_OP_SET 0
#define IB_UVERBS_COMP_CNTR_MODIFY_OP_INC 1
/* enum ib_uverbs_qp_attach_comp_cntr_op */
#define IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_SEND (1 << 0)
#define IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_RECV (1 << 1)
#define IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_RDMA_READ (1 << 2)
#define IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_READ (1 << 3)
#define IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_RDMA_WRITE (1 << 4)
#define IB_UVERBS_QP_ATTACH_COMP_CNTR_OP_REMOTE_RDMA_WRITE (1 << 5)
#endif

#endif /* INFINIBAND_IB_USER_IOCTL_VERBS_H */
