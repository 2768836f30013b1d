//! The kernel uapi `rdma/rdma_user_ioctl_cmds.h` (the ioctl header and attribute records, the
//! `RDMA_VERBS_IOCTL` request number) and the verbs constants of `rdma/rdma_user_ioctl.h`.

/// ioctl type ("magic") of the RDMA subsystem.
pub const RDMA_IOCTL_MAGIC: u32 = 0x1b;
/// Older name of `RDMA_IOCTL_MAGIC`.
pub const IB_IOCTL_MAGIC: u32 = RDMA_IOCTL_MAGIC;

/// `_IOWR(type, nr, size)` of the Linux generic ioctl encoding (direction bits 30-31, size bits
/// 16-29, type bits 8-15, number bits 0-7).
pub const fn iowr(ty: u32, nr: u32, size: usize) -> u32 {
    (3 << 30) | ((size as u32) << 16) | (ty << 8) | nr
}

/// The ioctl request of `/dev/infiniband/uverbsN`:
/// `_IOWR(RDMA_IOCTL_MAGIC, 1, struct ib_uverbs_ioctl_hdr)`.
pub const RDMA_VERBS_IOCTL: u32 = iowr(
    RDMA_IOCTL_MAGIC,
    1,
    core::mem::size_of::<ib_uverbs_ioctl_hdr>(),
);

// Anonymous enum of `ib_uverbs_attr.flags` bits.
/// The attribute is mandatory: fail the call if the kernel does not know it.
pub const UVERBS_ATTR_F_MANDATORY: u16 = 1 << 0;
/// Set by the kernel on output attributes it has written.
pub const UVERBS_ATTR_F_VALID_OUTPUT: u16 = 1 << 1;

/// One attribute of an ioctl command.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_attr {
    pub attr_id: u16,
    pub len: u16,
    pub flags: u16,
    pub attr_data: ib_uverbs_attr_attr_data,
    pub anon_1: ib_uverbs_attr_anon_1,
}

/// Type of `ib_uverbs_attr.attr_data`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_attr_attr_data {
    pub enum_data: ib_uverbs_attr_attr_data_enum_data,
    pub reserved: u16,
}

/// Type of `ib_uverbs_attr.attr_data.enum_data`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_attr_attr_data_enum_data {
    pub elem_id: u8,
    pub reserved: u8,
}

/// Anonymous union inside `ib_uverbs_attr`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union ib_uverbs_attr_anon_1 {
    pub data: u64,
    pub data_s64: i64,
}

/// Header of an RDMA_VERBS_IOCTL call; the attributes follow it.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct ib_uverbs_ioctl_hdr {
    pub length: u16,
    pub object_id: u16,
    pub method_id: u16,
    pub num_attrs: u16,
    pub reserved1: u64,
    pub driver_id: u32,
    pub reserved2: u32,
    pub attrs: [ib_uverbs_attr; 0],
}
