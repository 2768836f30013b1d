/* infiniband/sa-kern-abi.h: old names of the kernel's SA path record.
 *
 * Hand-written for ibverbs-rs: two spellings of <rdma/ib_user_sa.h>'s struct ib_user_path_rec
 * (linux-libc-dev). Like rdma-core's, this header is obsolete and says so when included; new code
 * includes <rdma/ib_user_sa.h> and names struct ib_user_path_rec. Checked by
 * abi-tests/values/sa-kern-abi.h.values.
 */
#ifndef INFINIBAND_SA_KERN_ABI_H
#define INFINIBAND_SA_KERN_ABI_H

#warning "This header is obsolete, use rdma/ib_user_sa.h instead"

#include <rdma/ib_user_sa.h>

#define ib_kern_path_rec ib_user_path_rec
#define ibv_kern_path_rec ib_user_path_rec

#endif /* INFINIBAND_SA_KERN_ABI_H */
