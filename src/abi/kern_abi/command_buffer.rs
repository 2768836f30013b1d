//! The ioctl command buffer of rdma-core's `libibverbs/cmd_ioctl.h` (provider ABI 34): the
//! `ib_uverbs_ioctl_hdr` under construction plus bookkeeping, chained to a driver's buffer.

use super::*;

/// `uhw_in_idx` / `uhw_out_idx` value meaning "no driver (UHW) attribute yet".
pub const _UHW_NO_INDEX: u8 = 0xff;

/// An ioctl command being built, chained to its driver part; the attributes follow `hdr`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ibv_command_buffer {
    pub next: *mut ibv_command_buffer,
    pub next_attr: *mut ib_uverbs_attr,
    pub last_attr: *mut ib_uverbs_attr,
    pub uhw_in_idx: u8,
    pub uhw_out_idx: u8,
    pub uhw_in_headroom_dwords: u8,
    pub uhw_out_headroom_dwords: u8,
    /// bitfield: buffer_error:1, fallback_require_ex:1, fallback_ioctl_only:1
    pub bitfield_1: u8,
    pub hdr: ib_uverbs_ioctl_hdr,
}

/// The mask of the `n`th one-bit field of `bitfield_1` in declaration order: the target ABI's
/// bitfield order, the low bit first on a little-endian target and the high bit first on a
/// big-endian one (s390x: 0x80, 0x40, 0x20), as gcc lays out `cmd_ioctl.h`'s `unsigned int
/// buffer_error:1, ...` (tests/abi_layout_kern.rs compiles that bitfield with the target's gcc).
const fn field_bit(n: u32) -> u8 {
    if cfg!(target_endian = "big") {
        0x80 >> n
    } else {
        1 << n
    }
}

impl ibv_command_buffer {
    pub const BUFFER_ERROR: u8 = field_bit(0);
    pub const FALLBACK_REQUIRE_EX: u8 = field_bit(1);
    pub const FALLBACK_IOCTL_ONLY: u8 = field_bit(2);

    const fn with_bit(bits: u8, bit: u8, on: bool) -> u8 {
        if on { bits | bit } else { bits & !bit }
    }

    /// An attribute did not fit: the command must fail.
    pub const fn buffer_error(&self) -> bool {
        self.bitfield_1 & Self::BUFFER_ERROR != 0
    }
    pub const fn set_buffer_error(&mut self, on: bool) {
        self.bitfield_1 = Self::with_bit(self.bitfield_1, Self::BUFFER_ERROR, on);
    }
    /// The write fallback must use the extended command.
    pub const fn fallback_require_ex(&self) -> bool {
        self.bitfield_1 & Self::FALLBACK_REQUIRE_EX != 0
    }
    pub const fn set_fallback_require_ex(&mut self, on: bool) {
        self.bitfield_1 = Self::with_bit(self.bitfield_1, Self::FALLBACK_REQUIRE_EX, on);
    }
    /// There is no write fallback: fail if the kernel lacks the ioctl method.
    pub const fn fallback_ioctl_only(&self) -> bool {
        self.bitfield_1 & Self::FALLBACK_IOCTL_ONLY != 0
    }
    pub const fn set_fallback_ioctl_only(&mut self, on: bool) {
        self.bitfield_1 = Self::with_bit(self.bitfield_1, Self::FALLBACK_IOCTL_ONLY, on);
    }
}
