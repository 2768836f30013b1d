//! The provider ABI 65 commands (rdma-core v65 `cmd_comp_cntr.c`, `cmd_dmah.c`, `cmd_dmabuf.c`,
//! `cmd_mr.c`: `ibv_cmd_reg_mr_ex`, `cmd_device.c`: `ibv_cmd_query_comp_cntr_caps`) on the fake
//! kernel: object, method, attribute ids, order, lengths and flags as rdma-core builds them, what
//! comes back, and `reg_mr_ex`'s write fallback. The guest's 6.1 kernel has none of these
//! objects, so the bytes are checked here (the VM checks what the real kernel answers).
mod common;

use common::{A, Fake, Link, Links, Out, Reply, attr, u32_at, u64_at};
use core::mem::offset_of;
use ibverbs::abi::kern_abi::ibv_reg_mr;
use ibverbs::abi::uapi::*;
use ibverbs::abi::verbs::ibv_access_flags::IBV_ACCESS_ON_DEMAND;
use ibverbs::abi::verbs::ibv_mr_init_attr_mask::*;
use ibverbs::cmd::counters::*;
use ibverbs::cmd::dm::{DmahInit, alloc_dmah, export_dmabuf_fd, free_dmah};
use ibverbs::cmd::mr::{MrKeys, RegMrEx, reg_mr_ex};
use ibverbs::cmd::{CmdState, Ctx, op};
use ibverbs::errno::Errno;
use ibverbs::sys::pod;

const EFA: u32 = 17;
/// `UVERBS_ATTR_F_MANDATORY`.
const M: u16 = 1;

fn ids(attrs: &[A]) -> Vec<u16> {
    attrs.iter().map(|a| a.id).collect()
}

#[test]
fn comp_cntr_create_destroy() {
    let st = CmdState::new(EFA, true);
    let fake = Fake::new([
        Reply::IoctlOk(vec![(UVERBS_ATTR_CREATE_COMP_CNTR_HANDLE, Out::Data(42))]),
        Reply::IoctlErr(libc::EIO),
        Reply::IoctlErr(libc::EIO),
    ]);
    // The provider's link chain goes after the head's one attribute and comes back.
    let mut links = Links(vec![Link::of([attr(UVERBS_ID_DRIVER_NS | 3, 4, 7)])]);
    assert_eq!(create_comp_cntr(Ctx::new(&fake, &st), &mut links), Ok(42));
    assert_eq!(links.0.len(), 1);
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id, p.num_attrs, p.driver_id),
        (
            UVERBS_OBJECT_COMP_CNTR,
            UVERBS_METHOD_COMP_CNTR_CREATE,
            2,
            EFA
        )
    );
    assert_eq!(
        p.attrs[0],
        A {
            id: UVERBS_ATTR_CREATE_COMP_CNTR_HANDLE,
            len: 0,
            flags: M,
            attr_data: 0,
            data: 0
        }
    );
    assert_eq!(
        (p.attrs[1].id, p.attrs[1].data),
        (UVERBS_ID_DRIVER_NS | 3, 7)
    );
    // A destroy: EIO counts as done only when disassociated destroys are allowed.
    assert_eq!(destroy_comp_cntr(Ctx::new(&fake, &st), 42, true), Ok(()));
    assert_eq!(
        destroy_comp_cntr(Ctx::new(&fake, &st), 42, false),
        Err(Errno::EIO)
    );
    let p = &fake.ioctls()[1];
    assert_eq!(
        (p.object_id, p.method_id),
        (UVERBS_OBJECT_COMP_CNTR, UVERBS_METHOD_COMP_CNTR_DESTROY)
    );
    assert_eq!(
        p.attrs,
        vec![A {
            id: UVERBS_ATTR_DESTROY_COMP_CNTR_HANDLE,
            len: 0,
            flags: M,
            attr_data: 0,
            data: 42
        }]
    );
}

#[test]
fn comp_cntr_modify_and_read() {
    let st = CmdState::new(EFA, true);
    let fake = Fake::new([
        Reply::IoctlOk(vec![]),
        Reply::IoctlErr(libc::EINVAL),
        Reply::IoctlOk(vec![(
            UVERBS_ATTR_READ_COMP_CNTR_RESP_VALUE,
            Out::Bytes(1234u64.to_ne_bytes().to_vec()),
        )]),
    ]);
    let (err, inc) = (
        ib_uverbs_comp_cntr_entry::IB_UVERBS_COMP_CNTR_ENTRY_ERR as u8,
        ib_uverbs_comp_cntr_modify_op::IB_UVERBS_COMP_CNTR_MODIFY_OP_INC as u8,
    );
    assert_eq!(
        modify_comp_cntr(Ctx::new(&fake, &st), 5, err, inc, 99),
        Ok(())
    );
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id),
        (UVERBS_OBJECT_COMP_CNTR, UVERBS_METHOD_COMP_CNTR_MODIFY)
    );
    // fill_attr_const_in is an 8-byte inline value.
    assert_eq!(
        p.attrs,
        vec![
            A {
                id: UVERBS_ATTR_MODIFY_COMP_CNTR_HANDLE,
                len: 0,
                flags: M,
                attr_data: 0,
                data: 5
            },
            A {
                id: UVERBS_ATTR_MODIFY_COMP_CNTR_ENTRY,
                len: 8,
                flags: M,
                attr_data: 0,
                data: 1
            },
            A {
                id: UVERBS_ATTR_MODIFY_COMP_CNTR_OP,
                len: 8,
                flags: M,
                attr_data: 0,
                data: 1
            },
            A {
                id: UVERBS_ATTR_MODIFY_COMP_CNTR_VALUE,
                len: 8,
                flags: M,
                attr_data: 0,
                data: 99
            },
        ]
    );
    assert_eq!(
        modify_comp_cntr(Ctx::new(&fake, &st), 5, 0, 0, 1),
        Err(Errno::EINVAL)
    );
    assert_eq!(read_comp_cntr(Ctx::new(&fake, &st), 5, 0), Ok(1234));
    let p = &fake.ioctls()[2];
    assert_eq!(
        (p.object_id, p.method_id),
        (UVERBS_OBJECT_COMP_CNTR, UVERBS_METHOD_COMP_CNTR_READ)
    );
    assert_eq!(
        ids(&p.attrs),
        [
            UVERBS_ATTR_READ_COMP_CNTR_HANDLE,
            UVERBS_ATTR_READ_COMP_CNTR_ENTRY,
            UVERBS_ATTR_READ_COMP_CNTR_RESP_VALUE
        ]
    );
    assert_eq!((p.attrs[1].len, p.attrs[1].data), (8, 0));
    assert_eq!(p.attrs[2].len, 8);
}

#[test]
fn qp_attach_sends_known_ops_only() {
    let st = CmdState::new(EFA, true);
    let fake = Fake::new([Reply::IoctlOk(vec![])]);
    assert_eq!(
        qp_attach_comp_cntr(Ctx::new(&fake, &st), 3, 4, 0xffff_ff05),
        Ok(())
    );
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id),
        (UVERBS_OBJECT_QP, UVERBS_METHOD_QP_ATTACH_COMP_CNTR)
    );
    assert_eq!(
        p.attrs,
        vec![
            A {
                id: UVERBS_ATTR_QP_ATTACH_COMP_CNTR_HANDLE,
                len: 0,
                flags: M,
                attr_data: 0,
                data: 3
            },
            A {
                id: UVERBS_ATTR_QP_ATTACH_COMP_CNTR_CNTR_HANDLE,
                len: 0,
                flags: M,
                attr_data: 0,
                data: 4
            },
            A {
                id: UVERBS_ATTR_QP_ATTACH_COMP_CNTR_OP_MASK,
                len: 4,
                flags: M,
                attr_data: 0,
                data: common::inline(4, 0x05)
            },
        ]
    );
}

#[test]
fn query_comp_cntr_caps_reads_three_outputs() {
    let st = CmdState::new(EFA, true);
    let fake = Fake::new([
        Reply::IoctlOk(vec![
            (
                UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_MAX_COUNTERS,
                Out::Bytes(64u32.to_ne_bytes().to_vec()),
            ),
            (
                UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_MAX_VALUE,
                Out::Bytes(u64::MAX.to_ne_bytes().to_vec()),
            ),
            (
                UVERBS_ATTR_QUERY_COMP_CNTR_CAPS_SUPPORTED_QP_ATTACH_OPS,
                Out::Bytes(0x1c3u32.to_ne_bytes().to_vec()),
            ),
        ]),
        Reply::IoctlErr(libc::EPROTONOSUPPORT),
    ]);
    let caps = query_comp_cntr_caps(Ctx::new(&fake, &st)).unwrap();
    assert_eq!(
        caps,
        CompCntrCaps {
            max_counters: 64,
            max_value: u64::MAX,
            supported_qp_attach_ops: 0x03
        }
    );
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id),
        (UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_COMP_CNTR_CAPS)
    );
    assert_eq!(
        p.attrs.iter().map(|a| (a.id, a.len)).collect::<Vec<_>>(),
        [(0, 4), (1, 8), (2, 4)]
    );
    // No write fallback: an older kernel's answer is the result.
    assert_eq!(
        query_comp_cntr_caps(Ctx::new(&fake, &st)),
        Err(Errno::EPROTONOSUPPORT)
    );
}

#[test]
fn dmah_alloc_free_and_dmabuf_export() {
    let st = CmdState::new(EFA, true);
    let fake = Fake::new([
        Reply::IoctlOk(vec![(UVERBS_ATTR_ALLOC_DMAH_HANDLE, Out::Data(8))]),
        Reply::IoctlOk(vec![(UVERBS_ATTR_ALLOC_DMAH_HANDLE, Out::Data(9))]),
        Reply::IoctlOk(vec![]),
        Reply::IoctlOk(vec![(UVERBS_ATTR_ALLOC_DMABUF_HANDLE, Out::Data(17))]),
    ]);
    let all = DmahInit {
        cpu_id: Some(3),
        tph_mem_type: Some(1),
        ph: Some(2),
    };
    assert_eq!(alloc_dmah(Ctx::new(&fake, &st), all), Ok(8));
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id),
        (UVERBS_OBJECT_DMAH, UVERBS_METHOD_DMAH_ALLOC)
    );
    assert_eq!(
        p.attrs,
        vec![
            A {
                id: UVERBS_ATTR_ALLOC_DMAH_HANDLE,
                len: 0,
                flags: M,
                attr_data: 0,
                data: 0
            },
            A {
                id: UVERBS_ATTR_ALLOC_DMAH_CPU_ID,
                len: 4,
                flags: M,
                attr_data: 0,
                data: common::inline(4, 3)
            },
            // fill_attr_in_enum(…, tph_mem_type, NULL, 0): the element in attr_data, no data.
            A {
                id: UVERBS_ATTR_ALLOC_DMAH_TPH_MEM_TYPE,
                len: 0,
                flags: M,
                attr_data: u16::from_ne_bytes([1, 0]), // enum_data.elem_id
                data: 0
            },
            // One inline byte.
            A {
                id: UVERBS_ATTR_ALLOC_DMAH_PH,
                len: 1,
                flags: M,
                attr_data: 0,
                data: common::inline(1, 2)
            },
        ]
    );
    // comp_mask 0: the handle only.
    assert_eq!(alloc_dmah(Ctx::new(&fake, &st), DmahInit::default()), Ok(9));
    assert_eq!(
        ids(&fake.ioctls()[1].attrs),
        [UVERBS_ATTR_ALLOC_DMAH_HANDLE]
    );
    assert_eq!(free_dmah(Ctx::new(&fake, &st), 9, false), Ok(()));
    let p = &fake.ioctls()[2];
    assert_eq!(
        (p.object_id, p.method_id, p.attrs[0].id, p.attrs[0].data),
        (
            UVERBS_OBJECT_DMAH,
            UVERBS_METHOD_DMAH_FREE,
            UVERBS_ATTR_FREE_DMA_HANDLE,
            9
        )
    );
    assert_eq!(export_dmabuf_fd(Ctx::new(&fake, &st), 0x30), Ok(17));
    let p = &fake.ioctls()[3];
    assert_eq!(
        (p.object_id, p.method_id),
        (UVERBS_OBJECT_DMABUF, UVERBS_METHOD_DMABUF_ALLOC)
    );
    assert_eq!(
        p.attrs,
        vec![
            A {
                id: UVERBS_ATTR_ALLOC_DMABUF_HANDLE,
                len: 0,
                flags: M,
                attr_data: 0,
                data: 0
            },
            A {
                id: UVERBS_ATTR_ALLOC_DMABUF_PGOFF,
                len: 8,
                flags: M,
                attr_data: 0,
                data: 0x30
            },
        ]
    );
}

fn mr_ok(handle: u64, lkey: u32, rkey: u32) -> Reply {
    Reply::IoctlOk(vec![
        (UVERBS_ATTR_REG_MR_HANDLE, Out::Data(handle)),
        (
            UVERBS_ATTR_REG_MR_RESP_LKEY,
            Out::Bytes(lkey.to_ne_bytes().to_vec()),
        ),
        (
            UVERBS_ATTR_REG_MR_RESP_RKEY,
            Out::Bytes(rkey.to_ne_bytes().to_vec()),
        ),
    ])
}

#[test]
fn reg_mr_ex_by_address_and_by_dmabuf() {
    let st = CmdState::new(EFA, true);
    let fake = Fake::new([mr_ok(5, 0x11, 0x22), mr_ok(6, 0x33, 0x44)]);
    let by_addr = RegMrEx {
        comp_mask: IBV_REG_MR_MASK_ADDR as u64 | IBV_REG_MR_MASK_DMAH as u64,
        length: 4096,
        access: 7,
        addr: 0x1000,
        dmah: 12,
        ..Default::default()
    };
    assert_eq!(
        reg_mr_ex(Ctx::new(&fake, &st), 9, &by_addr),
        Ok((
            MrKeys {
                handle: 5,
                lkey: 0x11,
                rkey: 0x22
            },
            false
        ))
    );
    let p = &fake.ioctls()[0];
    assert_eq!(
        (p.object_id, p.method_id),
        (UVERBS_OBJECT_MR, UVERBS_METHOD_REG_MR)
    );
    let a = &p.attrs;
    assert_eq!(
        ids(a),
        [
            UVERBS_ATTR_REG_MR_ADDR,
            UVERBS_ATTR_REG_MR_IOVA,
            UVERBS_ATTR_REG_MR_HANDLE,
            UVERBS_ATTR_REG_MR_RESP_LKEY,
            UVERBS_ATTR_REG_MR_RESP_RKEY,
            UVERBS_ATTR_REG_MR_PD_HANDLE,
            UVERBS_ATTR_REG_MR_LENGTH,
            UVERBS_ATTR_REG_MR_ACCESS_FLAGS,
            UVERBS_ATTR_REG_MR_DMA_HANDLE,
        ]
    );
    // The iova defaults to the address.
    assert_eq!(
        [
            a[0].data,
            a[1].data,
            a[5].data,
            a[6].data,
            a[7].value(),
            a[8].data
        ],
        [0x1000, 0x1000, 9, 4096, 7, 12]
    );
    assert_eq!((a[3].len, a[4].len, a[7].len), (4, 4, 4));

    let by_fd = RegMrEx {
        comp_mask: (IBV_REG_MR_MASK_FD as u64
            | IBV_REG_MR_MASK_FD_OFFSET as u64
            | IBV_REG_MR_MASK_IOVA as u64),
        length: 8192,
        access: 1,
        iova: 0x7000,
        fd: 33,
        fd_offset: 0x200,
        ..Default::default()
    };
    assert_eq!(
        reg_mr_ex(Ctx::new(&fake, &st), 9, &by_fd),
        Ok((
            MrKeys {
                handle: 6,
                lkey: 0x33,
                rkey: 0x44
            },
            true
        ))
    );
    let a = &fake.ioctls()[1].attrs;
    assert_eq!(
        ids(&a[..3]),
        [
            UVERBS_ATTR_REG_MR_FD_OFFSET,
            UVERBS_ATTR_REG_MR_FD,
            UVERBS_ATTR_REG_MR_IOVA
        ]
    );
    // fill_attr_in_fd: the fd in data, no length.
    assert_eq!(
        (a[0].data, a[1].len, a[1].data, a[2].data),
        (0x200, 0, 33, 0x7000)
    );
    assert_eq!(a.len(), 9);
}

#[test]
fn reg_mr_ex_refuses_bad_masks_before_sending() {
    let st = CmdState::new(EFA, true);
    let fake = Fake::new([]);
    let c = Ctx::new(&fake, &st);
    let (addr, fd, off, iova) = (
        IBV_REG_MR_MASK_ADDR as u64,
        IBV_REG_MR_MASK_FD as u64,
        IBV_REG_MR_MASK_FD_OFFSET as u64,
        IBV_REG_MR_MASK_IOVA as u64,
    );
    for m in [
        0,
        fd,
        fd | addr | off | iova,
        fd | off, /* no iova */
        addr | off,
        iova,
    ] {
        let r = RegMrEx {
            comp_mask: m,
            length: 64,
            addr: 0x1000,
            ..Default::default()
        };
        assert_eq!(reg_mr_ex(c, 1, &r), Err(Errno::EINVAL), "mask {m:#x}");
    }
    // The implicit on-demand MR takes no address.
    let odp = IBV_ACCESS_ON_DEMAND as i32;
    let r = RegMrEx {
        comp_mask: addr,
        length: usize::MAX,
        access: odp,
        addr: 0x1000,
        ..Default::default()
    };
    assert_eq!(reg_mr_ex(c, 1, &r), Err(Errno::EINVAL));
    assert!(fake.calls().is_empty());
}

#[test]
fn reg_mr_ex_falls_back_to_the_reg_mr_write() {
    let st = CmdState::new(EFA, false);
    let mut r: ib_uverbs_reg_mr_resp = pod::zeroed();
    r.mr_handle = 7;
    r.lkey = 0x55;
    r.rkey = 0x66;
    let w = Reply::WriteOk(pod::bytes(&r).to_vec());
    let fake = Fake::new([Reply::IoctlErr(libc::EPROTONOSUPPORT), w.clone(), w]);
    let c = Ctx::new(&fake, &st);
    let odp = IBV_ACCESS_ON_DEMAND as i32;
    let implicit = RegMrEx {
        comp_mask: IBV_REG_MR_MASK_ADDR as u64,
        length: usize::MAX,
        access: odp,
        ..Default::default()
    };
    assert_eq!(
        reg_mr_ex(c, 9, &implicit),
        Ok((
            MrKeys {
                handle: 7,
                lkey: 0x55,
                rkey: 0x66
            },
            false
        ))
    );
    // The kernel's refusal is remembered: the next one goes straight to write().
    let with_iova = RegMrEx {
        comp_mask: (IBV_REG_MR_MASK_ADDR as u64 | IBV_REG_MR_MASK_IOVA as u64),
        length: 4096,
        access: 3,
        addr: 0x1000,
        iova: 0x9000,
        ..Default::default()
    };
    assert_eq!(reg_mr_ex(c, 9, &with_iova).map(|k| k.0.handle), Ok(7));
    assert_eq!(fake.ioctls().len(), 1);
    let ws = fake.writes();
    assert_eq!(ws.len(), 2);
    // The legacy command with no driver data: header and core request only.
    for w in &ws {
        assert_eq!(w.len(), size_of::<ibv_reg_mr>());
        assert_eq!(u32_at(w, 0), IB_USER_VERBS_CMD_REG_MR);
    }
    let h = 8;
    assert_eq!(
        u64_at(&ws[0], h + offset_of!(ib_uverbs_reg_mr, length)),
        u64::MAX
    );
    assert_eq!(
        u64_at(&ws[1], h + offset_of!(ib_uverbs_reg_mr, start)),
        0x1000
    );
    assert_eq!(
        u64_at(&ws[1], h + offset_of!(ib_uverbs_reg_mr, hca_va)),
        0x9000
    );
    assert_eq!(
        u32_at(&ws[1], h + offset_of!(ib_uverbs_reg_mr, pd_handle)),
        9
    );
    assert_eq!(
        u32_at(&ws[1], h + offset_of!(ib_uverbs_reg_mr, access_flags)),
        3
    );
    // A dma-buf or DMA-handle request has no write form.
    let by_fd = RegMrEx {
        comp_mask: (IBV_REG_MR_MASK_FD as u64
            | IBV_REG_MR_MASK_FD_OFFSET as u64
            | IBV_REG_MR_MASK_IOVA as u64),
        fd: 3,
        ..Default::default()
    };
    assert_eq!(reg_mr_ex(c, 9, &by_fd), Err(Errno::EOPNOTSUPP));
    let dmah = RegMrEx {
        comp_mask: (IBV_REG_MR_MASK_ADDR as u64 | IBV_REG_MR_MASK_DMAH as u64),
        ..Default::default()
    };
    assert_eq!(reg_mr_ex(c, 9, &dmah), Err(Errno::EOPNOTSUPP));
    assert!(st.is_unsupported(op::REG_MR_EX));
    assert_eq!(fake.unused_replies(), 0);
}

#[test]
fn reg_mr_ex_without_any_ioctl() {
    // ENOTTY (no ioctl interface at all) also takes the write path; other errors are results.
    let st = CmdState::new(EFA, false);
    let fake = Fake::new([
        Reply::IoctlErr(libc::ENOTTY),
        Reply::WriteErr(libc::EFAULT),
        Reply::IoctlErr(libc::ENOMEM),
    ]);
    let r = RegMrEx {
        comp_mask: IBV_REG_MR_MASK_ADDR as u64,
        length: 64,
        addr: 0x1000,
        ..Default::default()
    };
    assert_eq!(reg_mr_ex(Ctx::new(&fake, &st), 1, &r), Err(Errno::EFAULT));
    let st = CmdState::new(EFA, false);
    assert_eq!(reg_mr_ex(Ctx::new(&fake, &st), 1, &r), Err(Errno::ENOMEM));
    assert_eq!(fake.unused_replies(), 0);
}
