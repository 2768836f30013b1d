/* infiniband/arch.h: a remnant kept so that old programs still compile.
 *
 * Hand-written for ibverbs-rs. libibverbs once shipped byte-order helpers and memory barriers here;
 * the barriers are gone (a program wanting them uses C11 atomics) and the 64-bit network byte order
 * helpers remain as deprecated wrappers of <endian.h>'s htobe64/be64toh. Including this header
 * warns, as rdma-core's does, so that such programs get moved off it.
 */
#ifndef INFINIBAND_ARCH_H
#define INFINIBAND_ARCH_H

#include <endian.h>
#include <stdint.h>

#warning "This header is obsolete."

#ifndef ntohll
#undef htonll
/* Host to network (big-endian) order, 64 bits: use htobe64() instead. */
static inline __attribute__((deprecated)) uint64_t htonll(uint64_t host_value)
{
	return htobe64(host_value);
}
/* Network (big-endian) to host order, 64 bits: use be64toh() instead. */
static inline __attribute__((deprecated)) uint64_t ntohll(uint64_t network_value)
{
	return be64toh(network_value);
}
#define htonll htonll
#define ntohll ntohll
#endif

#endif /* INFINIBAND_ARCH_H */
