//! rdma-core `libibverbs/driver.h` types that include/fragments/driver-inline.h spells by hand
//! (not emitted by the header generator: their C definitions carry anonymous unions the
//! fragment writes out, under `#if IBVERBS_PABI_VERSION >= 59`); checked against the v64 and v65
//! layouts by tests/abi_layout_rust.rs.

use core::ffi::c_int;

/// `struct verbs_create_cq_prov_attr` (provider ABI 59 on): a CQ ring the provider allocated
/// itself, which `ibv_cmd_create_cq_ex(2)` hands the kernel when its `cmd_flags` say so.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_create_cq_prov_attr {
    pub buffer: verbs_create_cq_prov_attr_buffer,
}

/// Its `buffer`: the length, and where the ring is.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_create_cq_prov_attr_buffer {
    pub length: u64,
    pub anon_1: verbs_create_cq_prov_attr_buffer_u,
}

/// A virtual address (`CREATE_CQ_CMD_FLAGS_WITH_MEM_VA`) or a dma-buf (`_WITH_MEM_DMABUF`).
#[repr(C)]
#[derive(Clone, Copy)]
pub union verbs_create_cq_prov_attr_buffer_u {
    pub ptr: *mut u8,
    pub dmabuf: verbs_create_cq_prov_attr_dmabuf,
}

/// The dma-buf of a CQ ring and the ring's offset in it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct verbs_create_cq_prov_attr_dmabuf {
    pub offset: u64,
    pub fd: c_int,
}
