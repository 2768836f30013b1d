//! GID table queries behind `ibv_query_gid`, `ibv_query_gid_type`, `_ibv_query_gid_ex` and
//! `_ibv_query_gid_table` (rdma-core: cmd_device.c `__ibv_query_gid_ex`, `query_sysfs_gid_entry`,
//! `query_gid_table_fb`).
//!
//! The kernel's QUERY_GID_ENTRY / QUERY_GID_TABLE ioctls answer first; a kernel without them
//! (before 5.10: EPROTONOSUPPORT/ENOTTY, remembered per context) gets rdma-core's sysfs fallback.
//!
//! Called by the GID exports of [`capi::context`](crate::capi::context) and
//! [`capi::driver`](crate::capi::driver).
use crate::verbs::ctxpriv::Context;
use crate::verbs::handle::{Ctx, Ptr};
use core::ffi::c_int;
use std::path::PathBuf;

use crate::abi::driver::verbs_query_gid_attr_mask::{
    VERBS_QUERY_GID_ATTR_GID, VERBS_QUERY_GID_ATTR_NDEV_IFINDEX, VERBS_QUERY_GID_ATTR_TYPE,
};
use crate::abi::verbs::{
    IBV_LINK_LAYER_ETHERNET, IBV_LINK_LAYER_INFINIBAND, ibv_context, ibv_device_attr, ibv_gid,
    ibv_gid_entry, ibv_port_attr,
};
use crate::device::query::{self, GidTypeSysfs};
use crate::errno::{Errno, Result};

/// The ibdev sysfs directory of a context's device.
///
/// # Safety
/// `ctx` is an open context.
pub(crate) unsafe fn ibdev_path(ctx: *mut ibv_context) -> Option<PathBuf> {
    // SAFETY: the caller's contract: an open context.
    let dev = unsafe { (*ctx).device };
    if dev.is_null() {
        return None;
    }
    // SAFETY: an open context's device is one of the registry's `verbs_device`s, held while open.
    let s = unsafe { (*crate::verbs::devlist::vdev_of(dev).0).sysfs };
    if s.is_null() {
        return None;
    }
    // SAFETY: the device's sysfs record, which lives as long as the device.
    Some(unsafe { crate::verbs::devlist::sysfs_ibdev_path(s) })
}

/// The link layer of a port, through the context's full `query_port`.
unsafe fn link_layer(ctx: *mut ibv_context, port: u32) -> Result<u8> {
    // SAFETY: zeroed plain data.
    let mut pa: ibv_port_attr = unsafe { core::mem::zeroed() };
    // SAFETY: an open context; pa is ours and full-sized.
    let rc = unsafe {
        super::query::lib_query_port(ctx, port as u8, &mut pa, size_of::<ibv_port_attr>())
    };
    if rc != 0 {
        Err(Errno(rc))
    } else {
        Ok(pa.link_layer)
    }
}

/// rdma-core's `query_sysfs_gid_entry`. `link_layer` is the port's when the caller knows it.
unsafe fn sysfs_gid_entry(
    ctx: *mut ibv_context,
    port: u32,
    index: u32,
    entry: &mut ibv_gid_entry,
    mask: u32,
    link: Option<u8>,
) -> Result<()> {
    // SAFETY: the caller's contract.
    let dir = unsafe { ibdev_path(ctx) }.ok_or(Errno::EINVAL)?;
    entry.gid_index = index;
    entry.port_num = port;
    if mask & VERBS_QUERY_GID_ATTR_GID as u32 != 0 {
        entry.gid.raw = query::gid(&dir, port, index).ok_or(Errno::EINVAL)?;
    }
    if mask & VERBS_QUERY_GID_ATTR_TYPE as u32 != 0 {
        entry.gid_type = match query::gid_type(&dir, port, index).map_err(|_| Errno::EINVAL)? {
            GidTypeSysfs::RoceV2 => 2,
            GidTypeSysfs::IbRoceV1 => {
                let ll = match link {
                    Some(l) => l,
                    // SAFETY: the caller's contract.
                    None => unsafe { link_layer(ctx, port) }?,
                };
                // InfiniBand, and an unspecified link layer, are IB; Ethernet is RoCE v1.
                if u32::from(ll) == IBV_LINK_LAYER_ETHERNET {
                    1
                } else {
                    let _ = IBV_LINK_LAYER_INFINIBAND;
                    0
                }
            }
        };
    }
    if mask & VERBS_QUERY_GID_ATTR_NDEV_IFINDEX as u32 != 0 {
        entry.ndev_ifindex = match query::gid_ndev(&dir, port, index) {
            None => 0,
            Some(name) => match crate::sys::if_nametoindex(&name) {
                0 => return Err(Errno(crate::sys::errno())),
                i => i,
            },
        };
    }
    Ok(())
}

fn is_zero(e: &ibv_gid_entry) -> bool {
    // SAFETY: every bit pattern of the 16 bytes is a valid `raw` view of the GID union.
    unsafe { e.gid.raw == [0; 16] }
}

/// `__ibv_query_gid_ex`: one entry (`entry_size` bytes at `entry`, at least an `ibv_gid_entry`);
/// the kernel's answer, or sysfs's with ENODATA for an empty slot when the GID was asked for.
///
/// # Safety
/// `ctx` is an open context; `entry` points to `entry_size` writable bytes.
pub(crate) unsafe fn query_gid_entry(
    ctx: *mut ibv_context,
    port: u32,
    index: u32,
    entry: *mut ibv_gid_entry,
    entry_size: usize,
    flags: u32,
    fallback_mask: u32,
) -> Result<()> {
    // SAFETY: the caller's contract: `entry_size` writable bytes at `entry`.
    let bytes = unsafe { super::buf::provider_buf(entry, entry_size) };
    // SAFETY: the caller's contract: an open context.
    let cx = unsafe { Context::from_raw(ctx) }?;
    let via = crate::cmd::device::query_gid_entry(cx.cmd(), port, index, flags, bytes)?;
    if via == crate::cmd::device::GidVia::Kernel {
        return Ok(());
    }
    // SAFETY: the caller's contract.
    let entry = unsafe { &mut *entry };
    // SAFETY: the caller's contract.
    unsafe { sysfs_gid_entry(ctx, port, index, entry, fallback_mask, None) }?;
    if fallback_mask & VERBS_QUERY_GID_ATTR_GID as u32 != 0 && is_zero(entry) {
        return Err(Errno(libc::ENODATA));
    }
    Ok(())
}

/// `_ibv_query_gid_table` through sysfs (`query_gid_table_fb`): the non-empty entries of every port.
///
/// # Safety
/// `ctx` is an open context; `entries` holds `max` entries `entry_size` bytes apart.
pub(crate) unsafe fn query_gid_table(
    ctx: *mut ibv_context,
    entries: *mut ibv_gid_entry,
    max: usize,
    flags: u32,
    entry_size: usize,
) -> Result<usize> {
    // The product is checked (overflow: rdma-core's SIZE_MAX).
    let bytes = max.checked_mul(entry_size).map(|n| {
        if n == 0 {
            &mut [][..]
        } else {
            // SAFETY: the caller's contract: `max` entries `entry_size` bytes apart.
            unsafe { super::buf::provider_buf(entries, n) }
        }
    });
    // SAFETY: the caller's contract: an open context.
    let cx = unsafe { Context::from_raw(ctx) }?;
    let (via, count) = crate::cmd::device::query_gid_table(cx.cmd(), flags, entry_size, bytes)?;
    if via == crate::cmd::device::GidVia::Kernel {
        return Ok(count as usize);
    }
    if entry_size < size_of::<ibv_gid_entry>() {
        return Err(Errno::EINVAL);
    }
    // SAFETY: zeroed plain data.
    let mut dev_attr: ibv_device_attr = unsafe { core::mem::zeroed() };
    // SAFETY: an open context.
    let rc = unsafe { super::query::query_device(ctx, &mut dev_attr) };
    if rc != 0 {
        return Err(Errno(rc));
    }
    let mask = VERBS_QUERY_GID_ATTR_GID as u32
        | VERBS_QUERY_GID_ATTR_TYPE as u32
        | VERBS_QUERY_GID_ATTR_NDEV_IFINDEX as u32;
    let mut n = 0usize;
    for port in 1..=u32::from(dev_attr.phys_port_cnt) {
        // SAFETY: zeroed plain data.
        let mut pa: ibv_port_attr = unsafe { core::mem::zeroed() };
        // SAFETY: an open context; pa is full-sized.
        let rc = unsafe {
            super::query::lib_query_port(ctx, port as u8, &mut pa, size_of::<ibv_port_attr>())
        };
        if rc != 0 {
            return Err(Errno(rc));
        }
        for j in 0..pa.gid_tbl_len.max(0) as u32 {
            // SAFETY: zeroed plain data.
            let mut e: ibv_gid_entry = unsafe { core::mem::zeroed() };
            // SAFETY: the caller's contract.
            unsafe { sysfs_gid_entry(ctx, port, j, &mut e, mask, Some(pa.link_layer)) }?;
            if is_zero(&e) {
                continue;
            }
            if n == max {
                return Err(Errno::EINVAL);
            }
            // SAFETY: n < max: the offset stays inside the caller's array.
            let slot = unsafe { entries.cast::<u8>().add(n * entry_size) };
            // SAFETY: a slot of the caller's array, at least an ibv_gid_entry long (checked).
            unsafe { slot.cast::<ibv_gid_entry>().write_unaligned(e) };
            n += 1;
        }
    }
    Ok(n)
}

/// `ibv_query_gid`: one GID; an empty table slot reads as the zero GID with success, errno left at
/// ENODATA as rdma-core's failed kernel query leaves it.
pub(crate) fn gid(ctx: Ctx, port_num: u8, index: c_int, gid: Ptr<ibv_gid>) -> Result<()> {
    // SAFETY: zeroed plain data.
    let mut entry: ibv_gid_entry = unsafe { core::mem::zeroed() };
    let attr_gid = VERBS_QUERY_GID_ATTR_GID as u32;
    // SAFETY: an open context (Ctx's contract); entry is ours.
    let r = unsafe {
        query_gid_entry(
            ctx.raw(),
            port_num.into(),
            index as u32,
            &mut entry,
            size_of::<ibv_gid_entry>(),
            0,
            attr_gid,
        )
    };
    match r {
        Ok(()) => gid.write(entry.gid),
        Err(e) if e.0 == libc::ENODATA => {
            // SAFETY: zeroed plain data.
            gid.write(unsafe { core::mem::zeroed() });
            crate::sys::set_errno(libc::ENODATA);
        }
        Err(e) => return Err(e),
    }
    Ok(())
}

/// `_ibv_query_gid_ex`: one GID table entry (GID, type, net device) into `entry_size` bytes at
/// `entry` (at least an `ibv_gid_entry`, else EINVAL): the kernel's answer, or sysfs's on kernels
/// without the ioctl ([`query_gid_entry`]: ENODATA for an empty slot).
pub(crate) fn gid_ex(
    ctx: Ctx,
    port_num: u32,
    gid_index: u32,
    entry: Ptr<ibv_gid_entry>,
    flags: u32,
    entry_size: usize,
) -> Result<()> {
    if entry_size < size_of::<ibv_gid_entry>() {
        return Err(Errno::EINVAL);
    }
    let all = VERBS_QUERY_GID_ATTR_GID as u32
        | VERBS_QUERY_GID_ATTR_TYPE as u32
        | VERBS_QUERY_GID_ATTR_NDEV_IFINDEX as u32;
    // SAFETY: an open context; the caller's entry of `entry_size` bytes (Ptr's contract).
    unsafe {
        query_gid_entry(
            ctx.raw(),
            port_num,
            gid_index,
            entry.as_ptr(),
            entry_size,
            flags,
            all,
        )
    }
}

/// `_ibv_query_gid_table`: every non-empty GID of every port, as entries `entry_size` bytes apart
/// in `entries` (NULL only with `max_entries` 0, else EINVAL); the count (EINVAL when more than
/// `max_entries` exist).
pub(crate) fn gid_table(
    ctx: Ctx,
    entries: *mut ibv_gid_entry,
    max_entries: usize,
    flags: u32,
    entry_size: usize,
) -> Result<usize> {
    if entries.is_null() && max_entries > 0 {
        return Err(Errno::EINVAL);
    }
    // SAFETY: an open context; the caller's array holds max_entries entries of entry_size bytes.
    unsafe { query_gid_table(ctx.raw(), entries, max_entries, flags, entry_size) }
}

/// `ibv_query_pkey`: `ports/<port>/pkeys/<index>` from sysfs into `*pkey`, network order; -1 when
/// sysfs has no such entry (errno as the failed read left it, as rdma-core), EINVAL for a context
/// without a sysfs record.
pub(crate) fn pkey(ctx: Ctx, port_num: u8, index: c_int, pkey: Ptr<u16>) -> Result<c_int> {
    // SAFETY: an open context (Ctx's contract).
    let dir = unsafe { ibdev_path(ctx.raw()) }.ok_or(Errno::EINVAL)?;
    Ok(
        match crate::device::query::pkey(&dir, port_num.into(), index) {
            Some(v) => {
                pkey.write(v.to_be());
                0
            }
            None => -1,
        },
    )
}

/// `ibv_get_pkey_index`: the first table index holding `pkey` (network order), or -1 when the
/// table ends first.
pub(crate) fn pkey_index(ctx: Ctx, port_num: u8, pkey_be: u16) -> Result<c_int> {
    let mut v = 0u16;
    // SAFETY: our own u16, for the loop.
    let out = unsafe { Ptr::from_raw(&mut v) }?;
    let mut i: c_int = 0;
    loop {
        if pkey(ctx, port_num, i, out)? < 0 {
            return Ok(-1);
        }
        if out.read() == pkey_be {
            return Ok(i);
        }
        i = match i.checked_add(1) {
            Some(n) => n,
            None => return Ok(-1),
        };
    }
}

/// `ibv_query_gid_type`: the sysfs-style type of GID `index` of `port` (0: IB/RoCE v1, 1: RoCE v2);
/// an empty slot (ENODATA) reads as v1; the failing query's errno otherwise.
pub(crate) fn gid_type(ctx: Ctx, port: u8, index: u32) -> Result<u32> {
    let mut entry = crate::sys::pod::zeroed::<ibv_gid_entry>();
    let size = size_of::<ibv_gid_entry>();
    let mask = crate::abi::driver::verbs_query_gid_attr_mask::VERBS_QUERY_GID_ATTR_TYPE as u32;
    // SAFETY: an open context (Ctx's contract); `entry` is ours, `size` bytes.
    match unsafe { query_gid_entry(ctx.raw(), port.into(), index, &mut entry, size, 0, mask) } {
        Err(e) if e.0 == libc::ENODATA => Ok(0),
        Err(e) => Err(e),
        // IBV_GID_TYPE_IB and _ROCE_V1 are sysfs's "IB/RoCE v1" (0); _ROCE_V2 is 1.
        Ok(()) => Ok(u32::from(entry.gid_type >= 2)),
    }
}
