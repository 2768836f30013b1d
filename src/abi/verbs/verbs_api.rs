//! rdma-core v65 `libibverbs/verbs_api.h`: the `IBV_*` spellings of kernel uapi enumerators
//! (`IB_UVERBS_*` of `rdma/ib_user_ioctl_verbs.h`), with the kernel's values.
//!
//! Not emitted by the header generator: `include/infiniband/verbs_api.h` is hand-written and
//! defines each name as the kernel's own (tools/headers, `config::NOT_EMITTED`); these constants are for
//! the Rust side.

// IPsec (ESP) flow actions.
pub const IBV_FLOW_ACTION_ESP_KEYMAT_AES_GCM: u32 = 0;
pub const IBV_FLOW_ACTION_IV_ALGO_SEQ: u32 = 0;
pub const IBV_FLOW_ACTION_ESP_REPLAY_NONE: u32 = 0;
pub const IBV_FLOW_ACTION_ESP_REPLAY_BMP: u32 = 1;
pub const IBV_FLOW_ACTION_ESP_FLAGS_INLINE_CRYPTO: u32 = 0;
pub const IBV_FLOW_ACTION_ESP_FLAGS_FULL_OFFLOAD: u32 = 1 << 0;
pub const IBV_FLOW_ACTION_ESP_FLAGS_TUNNEL: u32 = 0;
pub const IBV_FLOW_ACTION_ESP_FLAGS_TRANSPORT: u32 = 1 << 1;
pub const IBV_FLOW_ACTION_ESP_FLAGS_DECRYPT: u32 = 0;
pub const IBV_FLOW_ACTION_ESP_FLAGS_ENCRYPT: u32 = 1 << 2;
pub const IBV_FLOW_ACTION_ESP_FLAGS_ESN_NEW_WINDOW: u32 = 1 << 3;

// ibv_advise_mr(), QP flags and the optional access bits.
pub const IBV_ADVISE_MR_ADVICE_PREFETCH: u32 = 0;
pub const IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE: u32 = 1;
pub const IBV_ADVISE_MR_ADVICE_PREFETCH_NO_FAULT: u32 = 2;
pub const IBV_ADVISE_MR_FLAG_FLUSH: u32 = 1 << 0;
pub const IBV_QPF_GRH_REQUIRED: u32 = 1 << 0;
/// Access bits a provider may ignore if it does not support them.
pub const IBV_ACCESS_OPTIONAL_RANGE: u32 = 0x3ff0_0000;
pub const IBV_ACCESS_OPTIONAL_FIRST: u32 = 1 << 20;
