/* infiniband/tm_types.h: the headers a tag-matching (TM) message carries on the wire.
 *
 * Hand-written for ibverbs-rs: the library never builds or parses these (the provider and the HCA
 * do; applications read them out of receive buffers), so there is no Rust mirror to generate from.
 * Names, values and layouts are rdma-core v65's, checked by abi-tests (values/tm_types.h.values,
 * layouts/sa-tm-v65.tsv). Multi-byte fields are big-endian.
 */
#ifndef _TM_TYPES_H
#define _TM_TYPES_H

#include <linux/types.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What a tag-matching header announces (struct ibv_tmh.opcode). */
enum ibv_tmh_op {
	IBV_TMH_NO_TAG = 0, /* no tag: an ordinary send */
	IBV_TMH_RNDV = 1,   /* rendezvous: a struct ibv_rvh follows, the receiver reads the data */
	IBV_TMH_FIN = 2,    /* rendezvous finished */
	IBV_TMH_EAGER = 3,  /* eager: the data follows the header */
};

/* Tag-matching header, 16 bytes. */
struct ibv_tmh {
	uint8_t opcode;      /* an enum ibv_tmh_op value */
	uint8_t reserved[3]; /* zero */
	__be32 app_ctx;      /* the sender's context, passed through untouched */
	__be64 tag;          /* the tag the receiver matches against its posted tags */
};

/* Rendezvous header, after a struct ibv_tmh of opcode IBV_TMH_RNDV: where to read the data. */
struct ibv_rvh {
	__be64 va;   /* remote address */
	__be32 rkey; /* remote key of the memory there */
	__be32 len;  /* bytes to read */
};

#ifdef __cplusplus
}
#endif

#endif /* _TM_TYPES_H */
