//! Device memory, DMA handles and the dma-buf heap (rdma-core: verbs.c; cmd_dm.c, cmd_dmah.c,
//! cmd_device.c; v65 dmabuf_heap.c): the public verbs, the provider's commands and the heap
//! allocator of IBVERBS_PRIVATE_64, each a declaration over `verbs::dm`.
//!
//! `ibv_import_dm`/`ibv_unimport_dm` hand the call to the context's op. The others have an op
//! only at provider ABI 65: an ABI-65 provider's (mlx5's) is called as is; without one (every
//! ABI-34 provider) they answer as rdma-core's defaults do: EOPNOTSUPP. The commands later
//! provider ABIs added (DMA handles: 59, the dma-buf export and the heap: 64) are bound from
//! the ABI that added them on; none has a write() fallback.
//!
//! Divergence throughout: a NULL object, or a NULL `context` inside one, gives EINVAL (or is
//! ignored where there is no return value) where rdma-core would crash.
use core::ffi::c_int;
use core::ffi::c_void;

use crate::abi::driver::{verbs_dm, verbs_dmah, verbs_mr};
use crate::abi::verbs::{ibv_alloc_dm_attr, ibv_dm, ibv_dmah, ibv_dmah_init_attr};
use crate::capi::export::export;
use crate::verbs::cmdbuf::Chain;
use crate::verbs::dm::{self, ibv_dmabuf_heap};
use crate::verbs::handle::{Ctx, Dm, Dmah, Pd, Ptr, VerbsDm, VerbsDmah};

/// `struct ibv_dm *ibv_import_dm(struct ibv_context *context, uint32_t dm_handle)`
///
/// The C form of [`dm::import`]: NULL with errno on failure.
#[export("IBVERBS_1.13")]
fn ibv_import_dm(context: Ctx, dm_handle: u32) -> Null<*mut ibv_dm> {
    dm::import(context, dm_handle)
}

/// `void ibv_unimport_dm(struct ibv_dm *dm)`
///
/// The C form of [`dm::unimport`].
#[export("IBVERBS_1.13")]
fn ibv_unimport_dm(dm: Dm) -> Void {
    dm::unimport(dm)
}

/// `int ibv_dm_export_dmabuf_fd(struct ibv_dm *dm)`
///
/// The C form of [`dm::export_dmabuf_fd`]: the fd, or -1 with errno.
///
/// Divergence: a NULL `dm` gives -1 with EINVAL.
#[export("IBVERBS_1.16")]
fn ibv_dm_export_dmabuf_fd(dm: Dm) -> MinusOne<c_int> {
    dm::export_dmabuf_fd(dm)
}

/// `struct ibv_dmah *ibv_alloc_dmah(struct ibv_context *context, struct ibv_dmah_init_attr *attr)`
///
/// The C form of [`dm::alloc_dmah`]: NULL with errno on failure.
///
/// Divergence: a NULL `context` gives EINVAL.
#[export("IBVERBS_1.15")]
fn ibv_alloc_dmah(context: Ctx, attr: *mut ibv_dmah_init_attr) -> Null<*mut ibv_dmah> {
    dm::alloc_dmah(context, attr)
}

/// `int ibv_dealloc_dmah(struct ibv_dmah *dmah)`
///
/// The C form of [`dm::dealloc_dmah`]: 0, or the positive errno.
///
/// Divergence: a NULL `dmah` gives EINVAL (errno set).
#[export("IBVERBS_1.15")]
fn ibv_dealloc_dmah(dmah: Dmah) -> Status {
    Ok(dm::dealloc_dmah(dmah))
}

/// `int ibv_cmd_alloc_dm(struct ibv_context *ctx, const struct ibv_alloc_dm_attr *dm_attr, struct verbs_dm *dm, struct ibv_command_buffer *link)`
///
/// The C form of [`dm::cmd_alloc`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_alloc_dm(
    ctx: Ctx,
    dm_attr: &ibv_alloc_dm_attr,
    dm: Ptr<verbs_dm>,
    link: Chain,
) -> Errno {
    dm::cmd_alloc(ctx, dm_attr, dm, link)
}

/// `int ibv_cmd_free_dm(struct verbs_dm *dm)`
///
/// The C form of [`dm::cmd_free`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_free_dm(dm: VerbsDm) -> Errno {
    dm::cmd_free(dm)
}

/// `int ibv_cmd_reg_dm_mr(struct ibv_pd *pd, struct verbs_dm *dm, uint64_t offset, size_t length, unsigned int access, struct verbs_mr *vmr, struct ibv_command_buffer *link)`
///
/// The C form of [`dm::cmd_reg_mr`]: 0, or the positive errno.
#[export(PRIVATE 34..)]
fn ibv_cmd_reg_dm_mr(
    pd: Pd,
    dm: Ptr<verbs_dm>,
    offset: u64,
    length: usize,
    access: u32,
    vmr: Ptr<verbs_mr>,
    link: Chain,
) -> Errno {
    dm::cmd_reg_mr(pd, dm, offset, length, access, vmr, link)
}

/// `int ibv_cmd_alloc_dmah(struct ibv_context *ctx, struct verbs_dmah *st, struct ibv_dmah_init_attr *attr)`
///
/// The C form of [`dm::cmd_alloc_dmah`]: 0, or the positive errno (errno set too).
#[export(PRIVATE 59..)]
fn ibv_cmd_alloc_dmah(ctx: Ctx, st: Ptr<verbs_dmah>, attr: Ptr<ibv_dmah_init_attr>) -> Errno {
    dm::cmd_alloc_dmah(ctx, st, attr.read())
}

/// `int ibv_cmd_free_dmah(struct verbs_dmah *dmah)`
///
/// The C form of [`dm::cmd_free_dmah`]: 0, or the positive errno.
#[export(PRIVATE 59..)]
fn ibv_cmd_free_dmah(dmah: VerbsDmah) -> Errno {
    dm::cmd_free_dmah(dmah)
}

/// `int ibv_cmd_export_dmabuf_fd(struct ibv_context *ctx, off_t pg_off)`
///
/// The C form of [`dm::cmd_export_dmabuf_fd`]: the fd, or -1 with errno.
///
/// In `IBVERBS_PRIVATE_59` as rdma-core v62/v63 put it there (without a new provider ABI; v59-v61's
/// node lacks it).
#[export(PRIVATE 59..)]
fn ibv_cmd_export_dmabuf_fd(ctx: Ctx, pg_off: libc::off_t) -> MinusOne<c_int> {
    dm::cmd_export_dmabuf_fd(ctx, pg_off)
}

/// `struct ibv_dmabuf_heap *ibv_dmabuf_heap_cc_shared_init(void)`
///
/// The C form of [`dm::heap_cc_shared_init`]: the heap, or NULL with errno.
#[export(PRIVATE 64..)]
fn ibv_dmabuf_heap_cc_shared_init() -> Null<*mut ibv_dmabuf_heap> {
    dm::heap_cc_shared_init()
}

/// `void ibv_dmabuf_heap_destroy(struct ibv_dmabuf_heap *heap)`
///
/// The C form of [`dm::heap_destroy`].
///
/// Divergence: a heap this library did not hand out is ignored too (rdma-core frees it: libc aborts
/// the process).
#[export(PRIVATE 64..)]
fn ibv_dmabuf_heap_destroy(heap: *mut ibv_dmabuf_heap) -> Void {
    dm::heap_destroy(heap)
}

/// `void *ibv_dmabuf_heap_alloc(struct ibv_dmabuf_heap *heap, size_t size, int *dmabuf_fd)`
///
/// The C form of [`dm::heap_alloc_buf`]: the address, or NULL with errno.
///
/// Divergence: a NULL `dmabuf_fd` gives EINVAL.
#[export(PRIVATE 64..)]
fn ibv_dmabuf_heap_alloc(
    heap: Ptr<ibv_dmabuf_heap>,
    size: usize,
    dmabuf_fd: Ptr<c_int>,
) -> Null<*mut c_void> {
    dm::heap_alloc_buf(heap, size, dmabuf_fd)
}

/// `void ibv_dmabuf_heap_free(void *buf, size_t size, int dmabuf_fd)`
///
/// The C form of [`dm::heap_free`].
///
/// Divergence: an address this library did not map (or already unmapped) is not unmapped (logged at
/// debug level), and a buffer is unmapped by the length it was mapped with (a different `size` is
/// logged); rdma-core unmaps whatever range it is given (a wrong address or a huge size unmaps the
/// process's own memory). The fd is closed either way, as rdma-core closes it.
#[export(PRIVATE 64..)]
fn ibv_dmabuf_heap_free(buf: *mut c_void, size: usize, dmabuf_fd: c_int) -> Void {
    dm::heap_free(buf, size, dmabuf_fd)
}
