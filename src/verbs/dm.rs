//! Device memory, DMA handles and the dma-buf heap (rdma-core: verbs.c `ibv_import_dm`,
//! `ibv_unimport_dm`, `ibv_dm_export_dmabuf_fd`, `ibv_alloc_dmah`, `ibv_dealloc_dmah`; cmd_dm.c,
//! cmd_dmah.c, cmd_device.c `ibv_cmd_export_dmabuf_fd` for the provider's commands; v65
//! `dmabuf_heap.c`).
//!
//! The public verbs hand the call to the context's op; those only provider ABI 65 has answer
//! as rdma-core's defaults do without one (EOPNOTSUPP). The provider's commands go to
//! [`cmd::dm`](crate::cmd::dm) on the context's command channel and store what the kernel answered
//! in the provider's objects.
//!
//! The dma-buf heap allocator: buffers from a Linux DMA-BUF heap (`/dev/dma_heap/<name>`), mapped
//! into the process, for providers that must place queues in memory shared with the device
//! under confidential computing (mlx5 uses the `system_cc_shared` heap). The kernel interface
//! is one ioctl on the heap's fd, `DMA_HEAP_IOCTL_ALLOC` (`linux/dma-heap.h`,
//! [`sys::heap`](crate::sys::heap)): a length and fd flags in, a dma-buf fd out; the buffer is that
//! fd mapped shared.
//!
//! Called by [`capi::dm`](crate::capi::dm).
use core::ffi::{c_int, c_void};
use std::ffi::CString;

use crate::abi::driver::ibv_mr_type::IBV_MR_TYPE_MR;
use crate::abi::driver::{verbs_dm, verbs_dmah, verbs_mr};
use crate::abi::verbs::ibv_dm_mask::IBV_DM_MASK_HANDLE;
use crate::abi::verbs::ibv_dmah_init_attr_mask::{
    self, IBV_DMAH_INIT_ATTR_MASK_CPU_ID, IBV_DMAH_INIT_ATTR_MASK_PH,
    IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE,
};
use crate::abi::verbs::{ibv_alloc_dm_attr, ibv_dm, ibv_dmah, ibv_dmah_init_attr};
use crate::errno::{Errno, Result};
use crate::verbs::cmdbuf::Chain;
use crate::verbs::disassoc::allow_disassociate;
use crate::verbs::handle::{Ctx, Dm, Dmah, Pd, Ptr, VerbsDm, VerbsDmah};
use crate::verbs::mr::cmd::{MrStore, store};

/// `ibv_import_dm`: the device memory `dm_handle` (`handle`) of another process sharing the command
/// fd, from the provider's `import_dm`; EOPNOTSUPP when the provider cannot import, else its errno.
pub(crate) fn import(ctx: Ctx, handle: u32) -> Result<*mut ibv_dm> {
    let op = ctx.ops().import_dm.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own open context.
    let dm = unsafe { op(ctx.raw(), handle) };
    if dm.is_null() {
        return Err(Errno(crate::sys::errno()));
    }
    Ok(dm)
}

/// `ibv_unimport_dm`: the provider forgets imported device memory (its `unimport_dm`) without
/// freeing the kernel object.
pub(crate) fn unimport(dm: Dm) {
    if let Some(op) = dm.ops().unimport_dm {
        // SAFETY: the provider's op on its own DM.
        unsafe { op(dm.raw()) }
    }
}

/// `ibv_dm_export_dmabuf_fd`: the provider's `dm_export_dmabuf_fd` (ABI 65), its answer as it is
/// (an fd, or -1 with its errno); EOPNOTSUPP without the op, as rdma-core's default.
pub(crate) fn export_dmabuf_fd(dm: Dm) -> Result<c_int> {
    let op = dm.ops().dm_export_dmabuf_fd.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own DM.
    Ok(unsafe { op(dm.raw()) })
}

/// `ibv_alloc_dmah`: a DMA handle (TPH steering hints) from the provider's `alloc_dmah` (ABI 65),
/// `attr` handed over as given; EOPNOTSUPP without the op, as rdma-core's default.
pub(crate) fn alloc_dmah(ctx: Ctx, attr: *mut ibv_dmah_init_attr) -> Result<*mut ibv_dmah> {
    let op = ctx.ops().alloc_dmah.ok_or(Errno::EOPNOTSUPP)?;
    // SAFETY: the provider's op on its own open context; `attr` is the caller's.
    let d = unsafe { op(ctx.raw(), attr) };
    if d.is_null() {
        return Err(Errno(crate::sys::errno()));
    }
    Ok(d)
}

/// `ibv_dealloc_dmah`: the provider's `dealloc_dmah` (ABI 65), its status as it is; EOPNOTSUPP
/// without the op (errno untouched), as rdma-core's default.
pub(crate) fn dealloc_dmah(dmah: Dmah) -> c_int {
    match dmah.ops().dealloc_dmah {
        // SAFETY: the provider's op on its own DMA handle.
        Some(op) => unsafe { op(dmah.raw()) },
        None => libc::EOPNOTSUPP,
    }
}

/// `ibv_cmd_alloc_dm`: DM_ALLOC (ioctl only: [`cmd::dm::alloc_dm`](crate::cmd::dm::alloc_dm)) of
/// `dm_attr->length` bytes at alignment `2^log_align_req`, with the provider's `link` chain; on
/// success sets `dm->handle`, `dm->dm.handle`, `dm->dm.comp_mask = IBV_DM_MASK_HANDLE` and
/// `dm->dm.context`.
pub(crate) fn cmd_alloc(
    ctx: Ctx,
    attr: &ibv_alloc_dm_attr,
    dm: Ptr<verbs_dm>,
    mut link: Chain,
) -> Result<()> {
    let (length, align) = (attr.length as u64, attr.log_align_req);
    let c = ctx.channel();
    let h = crate::cmd::dm::alloc_dm(c.cmd(), length, align, &mut link)?;
    // SAFETY: the provider's DM (`Ptr`), nobody else's during the call.
    let d = unsafe { &mut *dm.as_ptr() };
    d.handle = h;
    d.dm.handle = h;
    d.dm.comp_mask = IBV_DM_MASK_HANDLE as u32;
    d.dm.context = ctx.raw();
    Ok(())
}

/// `ibv_cmd_free_dm`: the DM destroyed by handle (DM_FREE:
/// [`cmd::dm::free_dm`](crate::cmd::dm::free_dm)); EIO counts as done on a disassociated device
/// when allowed
/// ([`allow_disassociate`]: `RDMAV_ALLOW_DISASSOC_DESTROY` set).
pub(crate) fn cmd_free(dm: VerbsDm) -> Result<()> {
    // SAFETY: the provider's live DM (the handle's contract).
    let h = unsafe { (*dm.raw()).handle };
    let c = dm.ctx().channel();
    crate::cmd::dm::free_dm(c.cmd(), h, allow_disassociate())
}

/// `ibv_cmd_reg_dm_mr`: DM_MR_REG ([`cmd::dm::reg_dm_mr`](crate::cmd::dm::reg_dm_mr)) of `length`
/// bytes at `offset` of `dm` with the provider's `link` chain (`access` without
/// `IBV_ACCESS_ZERO_BASED` is EINVAL, nothing sent); on success sets the MR's handle, context,
/// lkey, rkey, length and pd, `addr = NULL` and `vmr->mr_type = IBV_MR_TYPE_MR`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn cmd_reg_mr(
    pd: Pd,
    dm: Ptr<verbs_dm>,
    offset: u64,
    length: usize,
    access: u32,
    vmr: Ptr<verbs_mr>,
    mut link: Chain,
) -> Result<()> {
    // SAFETY: a live PD (the handle's contract).
    let pdh = unsafe { (*pd.raw()).handle };
    // SAFETY: the provider's DM (`Ptr`).
    let dmh = unsafe { (*dm.as_ptr()).handle };
    let c = pd.ctx().channel();
    let keys = crate::cmd::dm::reg_dm_mr(c.cmd(), pdh, dmh, offset, length, access, &mut link)?;
    let s = MrStore {
        keys,
        context: pd.context(),
        pd: Some(pd.raw()),
        range: Some((core::ptr::null_mut(), length)),
        access: None,
        mr_type: IBV_MR_TYPE_MR as u32,
    };
    store(vmr, s);
    Ok(())
}

/// `ibv_cmd_alloc_dmah`: DMAH_ALLOC ([`cmd::dm::alloc_dmah`](crate::cmd::dm::alloc_dmah)) with the
/// CPU id, TPH memory type and processing hint that `attr->comp_mask` names; sets `st->handle` and
/// `st->dmah.context`.
pub(crate) fn cmd_alloc_dmah(
    ctx: Ctx,
    st: Ptr<verbs_dmah>,
    attr: ibv_dmah_init_attr,
) -> Result<()> {
    let has = |b: ibv_dmah_init_attr_mask| attr.comp_mask & b as u32 != 0;
    let init = crate::cmd::dm::DmahInit {
        cpu_id: has(IBV_DMAH_INIT_ATTR_MASK_CPU_ID).then_some(attr.cpu_id),
        tph_mem_type: has(IBV_DMAH_INIT_ATTR_MASK_TPH_MEM_TYPE).then_some(attr.tph_mem_type),
        ph: has(IBV_DMAH_INIT_ATTR_MASK_PH).then_some(attr.ph),
    };
    let h = crate::cmd::dm::alloc_dmah(ctx.channel().cmd(), init)?;
    // SAFETY: the provider's DMA handle (`Ptr`), nobody else's during the call.
    let d = unsafe { &mut *st.as_ptr() };
    d.handle = h;
    d.dmah.context = ctx.raw();
    Ok(())
}

/// `ibv_cmd_free_dmah`: the DMA handle destroyed by handle (DMAH_FREE:
/// [`cmd::dm::free_dmah`](crate::cmd::dm::free_dmah)); EIO counts as done on a disassociated device
/// when allowed
/// ([`allow_disassociate`]: `RDMAV_ALLOW_DISASSOC_DESTROY` set).
pub(crate) fn cmd_free_dmah(dmah: VerbsDmah) -> Result<()> {
    // SAFETY: the provider's live DMA handle (the handle's contract).
    let h = unsafe { (*dmah.raw()).handle };
    let c = dmah.ctx().channel();
    crate::cmd::dm::free_dmah(c.cmd(), h, allow_disassociate())
}

/// `ibv_cmd_export_dmabuf_fd`: a new dma-buf fd for the device memory mapped at page offset
/// `pg_off` of the command fd (DMABUF_ALLOC, ioctl only:
/// [`cmd::dm::export_dmabuf_fd`](crate::cmd::dm::export_dmabuf_fd)).
pub(crate) fn cmd_export_dmabuf_fd(ctx: Ctx, pg_off: i64) -> Result<c_int> {
    crate::cmd::dm::export_dmabuf_fd(ctx.channel().cmd(), pg_off as u64)
}

/// Where the kernel puts the heaps' device nodes.
pub const DMA_HEAP_DIR: &str = "/dev/dma_heap";

/// The confidential-computing shared heap `ibv_dmabuf_heap_cc_shared_init` opens.
pub const CC_SHARED_HEAP: &str = "system_cc_shared";

/// `struct ibv_dmabuf_heap`: an open heap (opaque to callers).
#[repr(C)]
pub struct ibv_dmabuf_heap {
    heap_fd: c_int,
}

/// Open heap `name` under `dir` (read-write, close-on-exec). The heap, or open()'s errno
/// (ENOENT where the kernel has no such heap); EINVAL for a name with a NUL or a slash.
pub fn heap_open(dir: &str, name: &str) -> Result<Box<ibv_dmabuf_heap>> {
    if name.is_empty() || name.contains('/') {
        return Err(Errno::EINVAL);
    }
    let path = CString::new(format!("{dir}/{name}")).map_err(|_| Errno::EINVAL)?;
    let fd = crate::sys::heap::open_rw(&path)?;
    Ok(Box::new(ibv_dmabuf_heap { heap_fd: fd }))
}

/// Allocate `size` bytes from the open heap and map them shared: (address, dma-buf fd). On
/// failure nothing is left open: the ioctl's or mmap's errno.
pub fn heap_alloc(heap: &ibv_dmabuf_heap, size: usize) -> Result<(*mut c_void, c_int)> {
    let fd = crate::sys::heap::heap_alloc(heap.heap_fd, size as u64)?;
    let p = crate::sys::heap::mmap_shared(fd, size).inspect_err(|_| crate::sys::cdev::close(fd))?;
    Ok((p, fd))
}

/// The heaps [`heap_cc_shared_init`] handed out and [`heap_destroy`] has not destroyed.
pub(crate) static HEAPS: crate::verbs::handed::Handed =
    crate::verbs::handed::Handed::new("dma-buf heap");

/// The buffers [`heap_alloc_buf`] mapped and [`heap_free`] has not unmapped, with their lengths.
pub(crate) static BUFFERS: crate::verbs::handed::Handed =
    crate::verbs::handed::Handed::new("dma-buf heap buffer");

/// `ibv_dmabuf_heap_cc_shared_init`: the confidential-computing shared heap ([`CC_SHARED_HEAP`]
/// under [`DMA_HEAP_DIR`]), opened ([`heap_open`]: open()'s errno, ENOENT on a kernel without that
/// heap).
pub(crate) fn heap_cc_shared_init() -> Result<*mut ibv_dmabuf_heap> {
    heap_open(DMA_HEAP_DIR, CC_SHARED_HEAP).map(|h| HEAPS.give(Box::into_raw(h)))
}

/// `ibv_dmabuf_heap_destroy`: closes a heap [`heap_cc_shared_init`] handed out and frees its handle
/// (buffers already allocated stay valid until freed); anything else (NULL included) is ignored.
pub(crate) fn heap_destroy(heap: *mut ibv_dmabuf_heap) {
    if heap.is_null() || !HEAPS.take(heap) {
        return;
    }
    // SAFETY: a handle from heap_cc_shared_init (a leaked Box), taken back once.
    let h = unsafe { Box::from_raw(heap) };
    crate::sys::cdev::close(h.heap_fd);
}

/// `ibv_dmabuf_heap_alloc`: `size` bytes from the heap, mapped read-write and shared, its dma-buf
/// fd (close-on-exec) in `*dmabuf_fd` ([`heap_alloc`]); nothing left open on failure.
pub(crate) fn heap_alloc_buf(
    heap: Ptr<ibv_dmabuf_heap>,
    size: usize,
    dmabuf_fd: Ptr<c_int>,
) -> Result<*mut c_void> {
    // SAFETY: the caller's heap (`Ptr`): one from ibv_dmabuf_heap_cc_shared_init.
    let h = unsafe { &*heap.as_ptr() };
    let (p, fd) = heap_alloc(h, size)?;
    dmabuf_fd.write(fd);
    Ok(BUFFERS.give_sized(p, size))
}

/// `ibv_dmabuf_heap_free`: unmaps a buffer of ours by the length it was mapped with (a different
/// `size` is logged; an address not ours is not unmapped), and closes `dmabuf_fd` either way.
pub(crate) fn heap_free(buf: *mut c_void, size: usize, dmabuf_fd: c_int) {
    // Only a mapping of ours, and only as long as it was mapped: a garbage address or size
    // must not unmap the process's own memory.
    let mapped = if buf.is_null() {
        None
    } else {
        BUFFERS.take_sized(buf)
    };
    if let Some(len) = mapped {
        if len != size {
            crate::log::log(
                crate::log::VERBS_LOG_WARN,
                format_args!(
                    "ibverbs-rs: ibv_dmabuf_heap_free: buffer {buf:p} was mapped with {len} bytes, \
                     freed with {size}; unmapping {len}"
                ),
            );
        }
        // SAFETY: our own mapping of `len` bytes from heap_alloc_buf, taken back once.
        unsafe { crate::sys::heap::munmap(buf, len) };
    }
    crate::sys::cdev::close(dmabuf_fd);
}
