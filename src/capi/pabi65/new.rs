//! The names rdma-core v65 added to the private node (IBVERBS_PRIVATE_65 only, default version).
//!
//! `verbs_register_driver_65` and `ibv_cmd_query_port_speed` are implemented; the others are
//! stubs (listed in `stubs.txt`): the library has no command layer yet for completion counters,
//! DMA handles, MR_REG_EX, DM dma-buf export or the dma-buf heap.
// The safety contract of each export is its C prototype, quoted in its doc.
#![allow(unused_variables, clippy::missing_safety_doc)]

use core::ffi::{c_int, c_void};

use crate::abi::driver::pabi34::verbs_device_ops;
use crate::abi::driver::verbs_mr;
use crate::abi::kern_abi::ibv_command_buffer;
use crate::abi::verbs::{
    ibv_comp_cntr, ibv_comp_cntr_caps, ibv_context, ibv_dmah_init_attr, ibv_mr_init_attr, ibv_pd,
    ibv_qp, ibv_qp_attach_comp_cntr_attr,
};
use crate::errno::{CRet, unimplemented};

/// `void verbs_register_driver_65(const struct verbs_device_ops *ops)`
///
/// As `verbs_register_driver_34`, for a provider ABI 65 provider (`lib<name>-rdmav65.so`): the
/// devices it claims are ABI-65 devices, whose contexts are v65 `verbs_context`s. NULL is ignored.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn verbs_register_driver_65(ops: *const verbs_device_ops) {
    // SAFETY: a provider passes its static ops table (same layout at ABI 34 and 65).
    unsafe { crate::capi::devlist::register_driver(ops, 65) };
}

/// `int ibv_cmd_query_port_speed(struct ibv_context *context, uint32_t port_num, uint64_t *speed)`
///
/// UVERBS_METHOD_QUERY_PORT_SPEED (ioctl only): stores the port's speed in `*speed`. 0, or the
/// positive errno (EOPNOTSUPP from a kernel without the method). Divergence: NULL `context` or
/// `speed` gives EINVAL.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_cmd_query_port_speed(context: *mut ibv_context, port_num: u32, speed: *mut u64) -> c_int {
    if speed.is_null() {
        return crate::capi::ret::einval();
    }
    // SAFETY: a NULL or live context of this library; `speed` points to a u64 (the C contract).
    unsafe {
        crate::capi::cmd_device::with_cmd(context, |c| crate::cmd::device::query_port_speed(c, port_num))
            .map(|v| *speed = v)
            .ret_errno()
    }
}

/// Generates int-returning stubs (rdma-core: 0, or the positive errno).
macro_rules! errno_stubs {
    ($($(#[$doc:meta])* $name:ident($($a:ident: $t:ty),*) => $e:expr;)*) => {$(
        $(#[$doc])*
        ///
        /// Stub: returns EOPNOTSUPP (rdma-core: 0, or the positive errno).
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $name($($a: $t),*) -> c_int {
            Err::<(), _>($e).ret_errno()
        }
    )*};
}

/// `struct verbs_dmah` (v65 driver.h), only passed through here.
pub type verbs_dmah = c_void;
/// `struct ibv_dmabuf_heap` (v65 dmabuf_heap.h), opaque.
pub type ibv_dmabuf_heap = c_void;

errno_stubs! {
    /// `int ibv_cmd_alloc_dmah(struct ibv_context *ctx, struct verbs_dmah *st, struct ibv_dmah_init_attr *attr)`
    ibv_cmd_alloc_dmah(ctx: *mut ibv_context, st: *mut verbs_dmah, attr: *mut ibv_dmah_init_attr)
        => unimplemented("ibv_cmd_alloc_dmah");
    /// `int ibv_cmd_free_dmah(struct verbs_dmah *dmah)`
    ibv_cmd_free_dmah(dmah: *mut verbs_dmah)
        => unimplemented("ibv_cmd_free_dmah");
    /// `int ibv_cmd_create_comp_cntr(struct ibv_context *context, struct ibv_comp_cntr *comp_cntr, struct ibv_command_buffer *link)`
    ibv_cmd_create_comp_cntr(context: *mut ibv_context, comp_cntr: *mut ibv_comp_cntr, link: *mut ibv_command_buffer)
        => unimplemented("ibv_cmd_create_comp_cntr");
    /// `int ibv_cmd_destroy_comp_cntr(struct ibv_comp_cntr *comp_cntr)`
    ibv_cmd_destroy_comp_cntr(comp_cntr: *mut ibv_comp_cntr)
        => unimplemented("ibv_cmd_destroy_comp_cntr");
    /// `int ibv_cmd_inc_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
    ibv_cmd_inc_comp_cntr(comp_cntr: *mut ibv_comp_cntr, amount: u64)
        => unimplemented("ibv_cmd_inc_comp_cntr");
    /// `int ibv_cmd_inc_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t amount)`
    ibv_cmd_inc_err_comp_cntr(comp_cntr: *mut ibv_comp_cntr, amount: u64)
        => unimplemented("ibv_cmd_inc_err_comp_cntr");
    /// `int ibv_cmd_set_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
    ibv_cmd_set_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: u64)
        => unimplemented("ibv_cmd_set_comp_cntr");
    /// `int ibv_cmd_set_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t value)`
    ibv_cmd_set_err_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: u64)
        => unimplemented("ibv_cmd_set_err_comp_cntr");
    /// `int ibv_cmd_read_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
    ibv_cmd_read_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: *mut u64)
        => unimplemented("ibv_cmd_read_comp_cntr");
    /// `int ibv_cmd_read_err_comp_cntr(struct ibv_comp_cntr *comp_cntr, uint64_t *value)`
    ibv_cmd_read_err_comp_cntr(comp_cntr: *mut ibv_comp_cntr, value: *mut u64)
        => unimplemented("ibv_cmd_read_err_comp_cntr");
    /// `int ibv_cmd_qp_attach_comp_cntr(struct ibv_qp *qp, struct ibv_comp_cntr *comp_cntr, struct ibv_qp_attach_comp_cntr_attr *attr)`
    ibv_cmd_qp_attach_comp_cntr(qp: *mut ibv_qp, comp_cntr: *mut ibv_comp_cntr, attr: *mut ibv_qp_attach_comp_cntr_attr)
        => unimplemented("ibv_cmd_qp_attach_comp_cntr");
    /// `int ibv_cmd_query_comp_cntr_caps(struct ibv_context *context, struct ibv_comp_cntr_caps *caps, size_t caps_size)`
    ibv_cmd_query_comp_cntr_caps(context: *mut ibv_context, caps: *mut ibv_comp_cntr_caps, caps_size: usize)
        => unimplemented("ibv_cmd_query_comp_cntr_caps");
    /// `int ibv_cmd_export_dmabuf_fd(struct ibv_context *ctx, off_t pg_off)`
    ibv_cmd_export_dmabuf_fd(ctx: *mut ibv_context, pg_off: libc::off_t)
        => unimplemented("ibv_cmd_export_dmabuf_fd");
    /// `int ibv_cmd_reg_mr_ex(struct ibv_pd *pd, struct verbs_mr *vmr, struct ibv_mr_init_attr *mr_init_attr)`
    ibv_cmd_reg_mr_ex(pd: *mut ibv_pd, vmr: *mut verbs_mr, mr_init_attr: *mut ibv_mr_init_attr)
        => unimplemented("ibv_cmd_reg_mr_ex");
}

/// `struct ibv_dmabuf_heap *ibv_dmabuf_heap_cc_shared_init(void)`
///
/// Stub: returns NULL with errno EOPNOTSUPP (rdma-core: the heap, or NULL with errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_dmabuf_heap_cc_shared_init() -> *mut ibv_dmabuf_heap {
    Err(unimplemented("ibv_dmabuf_heap_cc_shared_init")).ret_null()
}

/// `void ibv_dmabuf_heap_destroy(struct ibv_dmabuf_heap *heap)`
///
/// Nothing to release: no heap is ever handed out here (see `ibv_dmabuf_heap_cc_shared_init`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_dmabuf_heap_destroy(heap: *mut ibv_dmabuf_heap) {}

/// `void *ibv_dmabuf_heap_alloc(struct ibv_dmabuf_heap *heap, size_t size, int *dmabuf_fd)`
///
/// Stub: returns NULL with errno EOPNOTSUPP (rdma-core: the mapped buffer, or NULL with errno).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_dmabuf_heap_alloc(
    heap: *mut ibv_dmabuf_heap,
    size: usize,
    dmabuf_fd: *mut c_int,
) -> *mut c_void {
    Err(unimplemented("ibv_dmabuf_heap_alloc")).ret_null()
}

/// `void ibv_dmabuf_heap_free(void *buf, size_t size, int dmabuf_fd)`
///
/// Nothing to free: `ibv_dmabuf_heap_alloc` never returns a buffer here.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn ibv_dmabuf_heap_free(buf: *mut c_void, size: usize, dmabuf_fd: c_int) {}
