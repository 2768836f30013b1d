//! GID and P_Key queries answered from sysfs (rdma-core: cmd_device.c `query_sysfs_gid`,
//! `query_sysfs_gid_type`, `query_sysfs_gid_ndev_ifindex`, `query_sysfs_gid_entry`; verbs.c
//! `ibv_query_pkey`). The kernel's ioctl answers the same questions when it can; these are the
//! fallback, and what `ibv_query_pkey` always uses.
#![forbid(unsafe_code)]

use std::ffi::OsStr;
use std::path::Path;

use super::scan;
use super::sysfs::{ReadError, read_ibdev_sysfs_file};
use crate::errno::Errno;

/// `enum ibv_gid_type_sysfs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GidTypeSysfs {
    IbRoceV1 = 0,
    RoceV2 = 1,
}

fn read(ibdev: &Path, rel: &str, size: usize) -> Result<Vec<u8>, ReadError> {
    let mut buf = vec![0u8; size];
    let n = read_ibdev_sysfs_file(ibdev, OsStr::new(rel), &mut buf)?;
    buf.truncate(n);
    Ok(buf)
}

/// `ports/<port>/gids/<index>`: eight colon-separated 16-bit groups, read through a 41-byte buffer
/// and parsed with `%hx` at every fifth byte, as rdma-core does. None when unreadable or malformed.
pub fn gid(ibdev: &Path, port: u32, index: u32) -> Option<[u8; 16]> {
    let text = read(ibdev, &format!("ports/{port}/gids/{index}"), 41).ok()?;
    let mut out = [0u8; 16];
    for i in 0..8 {
        let field = text.get(i * 5..)?;
        let (v, _) = scan::scan_hx(field)?;
        out[i * 2] = (v >> 8) as u8;
        out[i * 2 + 1] = (v & 0xff) as u8;
    }
    Some(out)
}

/// `ports/<port>/gid_attrs/types/<index>` ("IB/RoCE v1" or "RoCE v2"), with rdma-core's rules for
/// kernels that lack the file: EINVAL from the read (InfiniBand ports) or no `gid_attrs`
/// directory (old kernels) mean v1; a `gid_attrs` directory without the file is EFAULT; any other
/// text is ENOTSUP.
pub fn gid_type(ibdev: &Path, port: u32, index: u32) -> Result<GidTypeSysfs, Errno> {
    match read(ibdev, &format!("ports/{port}/gid_attrs/types/{index}"), 11) {
        Ok(t) if !t.is_empty() => match t.as_slice() {
            b"IB/RoCE v1" => Ok(GidTypeSysfs::IbRoceV1),
            b"RoCE v2" => Ok(GidTypeSysfs::RoceV2),
            _ => Err(Errno(libc::ENOTSUP)),
        },
        Err(ReadError::Os(e)) if e == Errno::EINVAL => Ok(GidTypeSysfs::IbRoceV1),
        _ => {
            let dir = ibdev.join(format!("ports/{port}/gid_attrs"));
            match std::fs::read_dir(&dir) {
                Ok(_) => Err(Errno::EFAULT),
                Err(e) if e.raw_os_error() == Some(libc::ENOENT) => Ok(GidTypeSysfs::IbRoceV1),
                Err(e) => Err(Errno(e.raw_os_error().unwrap_or(libc::EIO))),
            }
        }
    }
}

/// `ports/<port>/gid_attrs/ndevs/<index>`: the net device name behind a RoCE GID, if any.
pub fn gid_ndev(ibdev: &Path, port: u32, index: u32) -> Option<String> {
    // IF_NAMESIZE bytes, as rdma-core reads it.
    let t = read(ibdev, &format!("ports/{port}/gid_attrs/ndevs/{index}"), 16).ok()?;
    if t.is_empty() {
        None
    } else {
        String::from_utf8(t).ok()
    }
}

/// `ports/<port>/pkeys/<index>` as `%hx`, through an 8-byte buffer. None when unreadable.
pub fn pkey(ibdev: &Path, port: u32, index: i32) -> Option<u16> {
    let t = read(ibdev, &format!("ports/{port}/pkeys/{index}"), 8).ok()?;
    scan::scan_hx(&t).map(|(v, _)| v)
}
