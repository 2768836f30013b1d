/* infiniband/verbs_api.h: the verbs names that are the kernel's own.
 *
 * Hand-written for ibverbs-rs (no Rust counterpart is emitted: these are spellings, not types). The
 * flow-action ESP, advise-MR, QP-flag and optional-access names of verbs.h are the kernel uapi's
 * (linux-libc-dev's <rdma/ib_user_ioctl_verbs.h>, reached through <infiniband/ib_user_ioctl_verbs.h>)
 * under an ibv_/IBV_ spelling. Names and values are rdma-core v65's; abi-tests checks every one
 * (abi-tests/values/verbs_api.h.values).
 */
#ifndef VERBS_API_H
#define VERBS_API_H

#include <endian.h>
#include <stdint.h>
#include <linux/types.h>

/* A pointer member of a kernel struct, stored in 64 bits whatever the pointer size: the kernel's
 * header would declare it as a bare __aligned_u64; the verbs API declares it as the pointer itself,
 * overlaid with <name>_data_u64 (and, where pointers are 32-bit, padded by <name>_reserved on the
 * side the byte order puts the high half). Set before the kernel header is read, as rdma-core does;
 * a definition already made (say by an earlier kernel header) is replaced, not warned about. */
#undef RDMA_UAPI_PTR
#if UINTPTR_MAX == UINT64_MAX
#define RDMA_UAPI_PTR(_type, _name)                                                               \
	union {                                                                                   \
		_type _name;                                                                      \
		__aligned_u64 _name##_data_u64;                                                   \
	}
#elif UINTPTR_MAX == UINT32_MAX && __BYTE_ORDER == __LITTLE_ENDIAN
#define RDMA_UAPI_PTR(_type, _name)                                                               \
	union {                                                                                   \
		struct {                                                                          \
			_type _name;                                                              \
			__u32 _name##_reserved;                                                   \
		};                                                                                \
		__aligned_u64 _name##_data_u64;                                                   \
	}
#elif UINTPTR_MAX == UINT32_MAX
#define RDMA_UAPI_PTR(_type, _name)                                                               \
	union {                                                                                   \
		struct {                                                                          \
			__u32 _name##_reserved;                                                   \
			_type _name;                                                              \
		};                                                                                \
		__aligned_u64 _name##_data_u64;                                                   \
	}
#else
#error "infiniband/verbs_api.h: pointers are neither 32 nor 64 bits wide"
#endif

#include <infiniband/ib_user_ioctl_verbs.h>

/* IPsec (ESP) flow actions: types */
#define ibv_flow_action_esp ib_uverbs_flow_action_esp
#define ibv_flow_action_esp_encap ib_uverbs_flow_action_esp_encap
#define ibv_flow_action_esp_flags ib_uverbs_flow_action_esp_flags
#define ibv_flow_action_esp_keymat ib_uverbs_flow_action_esp_keymat
#define ibv_flow_action_esp_keymat_aes_gcm ib_uverbs_flow_action_esp_keymat_aes_gcm
#define ibv_flow_action_esp_keymat_aes_gcm_iv_algo ib_uverbs_flow_action_esp_keymat_aes_gcm_iv_algo
#define ibv_flow_action_esp_replay ib_uverbs_flow_action_esp_replay
#define ibv_flow_action_esp_replay_bmp ib_uverbs_flow_action_esp_replay_bmp

/* IPsec (ESP) flow actions: values */
#define IBV_FLOW_ACTION_ESP_KEYMAT_AES_GCM IB_UVERBS_FLOW_ACTION_ESP_KEYMAT_AES_GCM
#define IBV_FLOW_ACTION_IV_ALGO_SEQ IB_UVERBS_FLOW_ACTION_IV_ALGO_SEQ
#define IBV_FLOW_ACTION_ESP_REPLAY_NONE IB_UVERBS_FLOW_ACTION_ESP_REPLAY_NONE
#define IBV_FLOW_ACTION_ESP_REPLAY_BMP IB_UVERBS_FLOW_ACTION_ESP_REPLAY_BMP
#define IBV_FLOW_ACTION_ESP_FLAGS_INLINE_CRYPTO IB_UVERBS_FLOW_ACTION_ESP_FLAGS_INLINE_CRYPTO
#define IBV_FLOW_ACTION_ESP_FLAGS_FULL_OFFLOAD IB_UVERBS_FLOW_ACTION_ESP_FLAGS_FULL_OFFLOAD
#define IBV_FLOW_ACTION_ESP_FLAGS_TUNNEL IB_UVERBS_FLOW_ACTION_ESP_FLAGS_TUNNEL
#define IBV_FLOW_ACTION_ESP_FLAGS_TRANSPORT IB_UVERBS_FLOW_ACTION_ESP_FLAGS_TRANSPORT
#define IBV_FLOW_ACTION_ESP_FLAGS_DECRYPT IB_UVERBS_FLOW_ACTION_ESP_FLAGS_DECRYPT
#define IBV_FLOW_ACTION_ESP_FLAGS_ENCRYPT IB_UVERBS_FLOW_ACTION_ESP_FLAGS_ENCRYPT
#define IBV_FLOW_ACTION_ESP_FLAGS_ESN_NEW_WINDOW IB_UVERBS_FLOW_ACTION_ESP_FLAGS_ESN_NEW_WINDOW

/* ibv_advise_mr() */
#define ibv_advise_mr_advice ib_uverbs_advise_mr_advice
#define IBV_ADVISE_MR_ADVICE_PREFETCH IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH
#define IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_WRITE
#define IBV_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT IB_UVERBS_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT
#define IBV_ADVISE_MR_FLAG_FLUSH IB_UVERBS_ADVISE_MR_FLAG_FLUSH

/* QP flags, and the access bits a provider may ignore when it does not know them */
#define IBV_QPF_GRH_REQUIRED IB_UVERBS_QPF_GRH_REQUIRED
#define IBV_ACCESS_OPTIONAL_RANGE IB_UVERBS_ACCESS_OPTIONAL_RANGE
#define IBV_ACCESS_OPTIONAL_FIRST IB_UVERBS_ACCESS_OPTIONAL_FIRST

#endif /* VERBS_API_H */
