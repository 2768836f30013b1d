/* infiniband/sa.h: subnet administration (SA) records, as librdmacm and its users pass them.
 *
 * Hand-written for ibverbs-rs. The library converts only struct ibv_sa_path_rec (to and from the
 * kernel's struct ib_user_path_rec: ibv_copy_path_rec_{from,to}_kern, src/capi/marshall.rs, which
 * keeps its own private mirror); the other records are for librdmacm and applications, so nothing
 * here is generated. Names, values and layouts are rdma-core v65's, checked by abi-tests
 * (layouts/sa-tm-v65.tsv, values/sa.h.values).
 */
#ifndef INFINIBAND_SA_H
#define INFINIBAND_SA_H

#include <infiniband/verbs.h>
#include <linux/types.h>

/* A path record in host form (fields the SA marks reserved are left out; padding keeps them). */
struct ibv_sa_path_rec {
	union ibv_gid dgid;
	union ibv_gid sgid;
	__be16 dlid;
	__be16 slid;
	int raw_traffic;
	__be32 flow_label;
	uint8_t hop_limit;
	uint8_t traffic_class;
	int reversible;
	uint8_t numb_path;
	__be16 pkey;
	uint8_t sl;
	uint8_t mtu_selector;
	uint8_t mtu;
	uint8_t rate_selector;
	uint8_t rate;
	uint8_t packet_life_time_selector;
	uint8_t packet_life_time;
	uint8_t preference;
};

/* A multicast member record in host form. */
struct ibv_sa_mcmember_rec {
	union ibv_gid mgid;
	union ibv_gid port_gid;
	uint32_t qkey;
	uint16_t mlid;
	uint8_t mtu_selector;
	uint8_t mtu;
	uint8_t traffic_class;
	uint16_t pkey;
	uint8_t rate_selector;
	uint8_t rate;
	uint8_t packet_life_time_selector;
	uint8_t packet_life_time;
	uint8_t sl;
	uint32_t flow_label;
	uint8_t hop_limit;
	uint8_t scope;
	uint8_t join_state;
	int proxy_join;
};

/* A service record in host form (the two bytes after pkey are the record's reserved field). */
struct ibv_sa_service_rec {
	uint64_t id;
	union ibv_gid gid;
	uint16_t pkey;
	uint32_t lease;
	uint8_t key[16];
	uint8_t name[64];
	uint8_t data8[16];
	uint16_t data16[8];
	uint32_t data32[4];
	uint64_t data64[2];
};

/* struct ibv_path_record.reversible_numpath: the "reversible" bit (the low seven bits count paths). */
#define IBV_PATH_RECORD_REVERSIBLE 0x80

/* A path record exactly as the SA sends it: 64 bytes, big-endian, several fields packed per byte. */
struct ibv_path_record {
	__be64 service_id;
	union ibv_gid dgid;
	union ibv_gid sgid;
	__be16 dlid;
	__be16 slid;
	__be32 flowlabel_hoplimit; /* bits 27..8 flow label, 7..0 hop limit (31..28 reserved) */
	uint8_t tclass;
	uint8_t reversible_numpath; /* IBV_PATH_RECORD_REVERSIBLE, then the number of paths */
	__be16 pkey;
	__be16 qosclass_sl; /* bits 15..4 QoS class, 3..0 service level */
	uint8_t mtu;            /* bits 7..6 selector, 5..0 MTU */
	uint8_t rate;           /* bits 7..6 selector, 5..0 rate */
	uint8_t packetlifetime; /* bits 7..6 selector, 5..0 packet lifetime */
	uint8_t preference;
	uint8_t reserved[6];
};

/* struct ibv_path_data.flags: what a path is for. */
#define IBV_PATH_FLAG_GMP (1 << 0)             /* management datagrams */
#define IBV_PATH_FLAG_PRIMARY (1 << 1)         /* the primary path */
#define IBV_PATH_FLAG_ALTERNATE (1 << 2)       /* the alternate path */
#define IBV_PATH_FLAG_OUTBOUND (1 << 3)        /* from us to the peer */
#define IBV_PATH_FLAG_INBOUND (1 << 4)         /* from the peer to us */
#define IBV_PATH_FLAG_INBOUND_REVERSE (1 << 5) /* the reverse of an inbound path */
#define IBV_PATH_FLAG_BIDIRECTIONAL (IBV_PATH_FLAG_OUTBOUND | IBV_PATH_FLAG_INBOUND_REVERSE)

/* A path record with what it is for (IBV_PATH_FLAG_*). */
struct ibv_path_data {
	uint32_t flags;
	uint32_t reserved;
	struct ibv_path_record path;
};

#endif /* INFINIBAND_SA_H */
