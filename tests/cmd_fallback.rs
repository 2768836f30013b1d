//! The per-context ioctl-or-write rules: `_check_legacy`, `_execute_ioctl_fallback`, the
//! unsupported-ioctl bitmap and the `has_ioctl_write` probe.

mod common;

use common::{Fake, Link, Links, Reply, attr};
use ibverbs::abi::driver::verbs_context_ops;
use ibverbs::abi::uapi::*;
use ibverbs::cmd::fallback::{
    OP_BITS, VERBS_OPS_NUM, check_legacy, execute_ioctl_fallback, has_ioctl_write,
};
use ibverbs::cmd::{CmdState, Ctx, Driver, Fallback, IoctlArg, IoctlCmd, OpBit, op};
use ibverbs::errno::Errno;

fn cmd_with_links(links: Vec<Link>) -> IoctlCmd<'static> {
    // The command outlives this function: its argument memory is leaked (a test's few bytes).
    let arg = Box::leak(Box::new(IoctlArg::new()));
    let mut cmd = IoctlCmd::new(arg, UVERBS_OBJECT_DEVICE, UVERBS_METHOD_QUERY_PORT);
    Links(links).link(&mut cmd).unwrap();
    cmd
}

#[test]
fn op_bits_are_verbs_context_ops_slots() {
    assert_eq!(VERBS_OPS_NUM, size_of::<verbs_context_ops>() / 8);
    assert_eq!(VERBS_OPS_NUM, 93);
    // Alphabetical slots of the newest table (rdma-core v65's bits).
    assert_eq!(
        op::ASYNC_EVENT,
        OpBit(core::mem::offset_of!(verbs_context_ops, async_event) / 8)
    );
    assert_eq!(
        op::QUERY_PORT,
        OpBit(core::mem::offset_of!(verbs_context_ops, query_port) / 8)
    );
    assert_eq!(
        op::FREE_CONTEXT,
        OpBit(core::mem::offset_of!(verbs_context_ops, free_context) / 8)
    );
    assert_eq!(
        op::REG_MR_EX,
        OpBit(core::mem::offset_of!(verbs_context_ops, reg_mr_ex) / 8)
    );
}

#[test]
fn check_legacy_rules() {
    // Nothing linked: plain write.
    assert_eq!(
        check_legacy(&cmd_with_links(vec![])),
        Ok(Fallback::TryWrite)
    );
    // The head's own attributes are the core's business, mandatory or not.
    let mut c = cmd_with_links(vec![]);
    c.in_u64(5, 1);
    assert_eq!(check_legacy(&c), Ok(Fallback::TryWrite));
    // A mandatory driver attribute cannot travel by write...
    let mut l = Link::of([attr(0x1010, 8, 1)]);
    assert_eq!(
        check_legacy(&cmd_with_links(vec![l.clone()])),
        Err(Errno::EOPNOTSUPP)
    );
    // ...an optional one is dropped, and UHW_IN/UHW_OUT become the write's driver data.
    l.attrs[0].flags &= !UVERBS_ATTR_F_MANDATORY;
    l.attrs.push(attr(UVERBS_ATTR_UHW_IN, 8, 1));
    l.attrs.push(attr(UVERBS_ATTR_UHW_OUT, 8, 0x1000));
    assert_eq!(
        check_legacy(&cmd_with_links(vec![l.clone()])),
        Ok(Fallback::TryWrite)
    );
    // Flags: any buffer may require the extended write; ioctl-only wins over it.
    let mut ex = l.clone();
    ex.fallback_require_ex = true;
    assert_eq!(
        check_legacy(&cmd_with_links(vec![Link::default(), ex.clone()])),
        Ok(Fallback::TryWriteEx)
    );
    let io = Link {
        fallback_ioctl_only: true,
        ..Link::default()
    };
    assert_eq!(
        check_legacy(&cmd_with_links(vec![ex.clone(), io])),
        Err(Errno::EOPNOTSUPP)
    );
    let mut c = cmd_with_links(vec![ex]);
    c.fallback_ioctl_only = true;
    assert_eq!(check_legacy(&c), Err(Errno::EOPNOTSUPP));
    let mut c = cmd_with_links(vec![]);
    c.fallback_require_ex = true;
    assert_eq!(check_legacy(&c), Ok(Fallback::TryWriteEx));
}

#[test]
fn enotty_marks_every_command() {
    let fake = Fake::new([Reply::IoctlErr(libc::ENOTTY)]);
    let st = CmdState::new(14, false);
    let ctx = Ctx::new(&fake, &st);
    assert_eq!(
        execute_ioctl_fallback(ctx, op::QUERY_PORT, &mut cmd_with_links(vec![])),
        Ok(Fallback::TryWrite)
    );
    for bit in 0..OP_BITS {
        assert!(st.is_unsupported(OpBit(bit)), "bit {bit}");
    }
    assert!(st.is_unsupported(op::REG_MR_EX));
    assert!(!st.is_unsupported(OpBit(OP_BITS)));
    // Later commands do not try the ioctl at all.
    assert_eq!(
        execute_ioctl_fallback(ctx, op::FREE_CONTEXT, &mut cmd_with_links(vec![])),
        Ok(Fallback::TryWrite)
    );
    assert_eq!(fake.calls().len(), 1);
    // ...but still refuse what write() cannot carry.
    let l = Link::of([attr(0x1010, 8, 1)]);
    assert_eq!(
        execute_ioctl_fallback(ctx, op::FREE_CONTEXT, &mut cmd_with_links(vec![l])),
        Err(Errno::EOPNOTSUPP)
    );
    assert_eq!(fake.calls().len(), 1);
}

#[test]
fn eprotonosupport_marks_one_command() {
    let fake = Fake::new([
        Reply::IoctlErr(libc::EPROTONOSUPPORT),
        Reply::IoctlOk(vec![]),
    ]);
    let st = CmdState::new(14, false);
    let ctx = Ctx::new(&fake, &st);
    assert_eq!(
        execute_ioctl_fallback(ctx, op::ASYNC_EVENT, &mut cmd_with_links(vec![])),
        Ok(Fallback::TryWrite)
    );
    assert!(st.is_unsupported(op::ASYNC_EVENT));
    assert!(!st.is_unsupported(op::QUERY_PORT));
    assert_eq!(
        execute_ioctl_fallback(ctx, op::QUERY_PORT, &mut cmd_with_links(vec![])),
        Ok(Fallback::Success)
    );
    assert_eq!(
        execute_ioctl_fallback(ctx, op::ASYNC_EVENT, &mut cmd_with_links(vec![])),
        Ok(Fallback::TryWrite)
    );
    assert_eq!(fake.calls().len(), 2);
}

#[test]
fn other_errors_are_returned_and_not_remembered() {
    let fake = Fake::new([Reply::IoctlErr(libc::EINVAL), Reply::IoctlErr(libc::EIO)]);
    let st = CmdState::new(14, false);
    let ctx = Ctx::new(&fake, &st);
    assert_eq!(
        execute_ioctl_fallback(ctx, op::QUERY_PORT, &mut cmd_with_links(vec![])),
        Err(Errno::EINVAL)
    );
    assert!(!st.is_unsupported(op::QUERY_PORT));
    assert_eq!(
        execute_ioctl_fallback(ctx, op::QUERY_PORT, &mut cmd_with_links(vec![])),
        Err(Errno::EIO)
    );
}

#[test]
fn has_ioctl_write_probe() {
    for (reply, want) in [
        (libc::ENOSPC, true),
        (libc::EINVAL, true),
        (libc::EPROTONOSUPPORT, false),
        (libc::ENOTTY, false),
    ] {
        let fake = Fake::new([Reply::IoctlErr(reply)]);
        let st = CmdState::new(14, false);
        assert_eq!(has_ioctl_write(Ctx::new(&fake, &st)), want, "errno {reply}");
        let p = &fake.ioctls()[0];
        assert_eq!(
            (p.object_id, p.method_id, p.num_attrs, p.driver_id),
            (UVERBS_OBJECT_DEVICE, UVERBS_METHOD_INVOKE_WRITE, 1, 14)
        );
        let a = p.attrs[0];
        assert_eq!(
            (a.id, a.len, a.flags, a.data),
            (UVERBS_ATTR_WRITE_CMD, 8, UVERBS_ATTR_F_MANDATORY, 1)
        );
    }
    let fake = Fake::new([Reply::IoctlOk(vec![])]);
    assert!(has_ioctl_write(Ctx::new(&fake, &CmdState::new(0, false))));
}

#[test]
fn init_probes_with_the_driver_id() {
    let fake = Fake::new([Reply::IoctlErr(libc::ENOSPC)]);
    let st = CmdState::init(&fake, 14);
    assert!(st.use_ioctl_write());
    assert_eq!(st.driver_id(), 14);
    assert_eq!(fake.ioctls()[0].driver_id, 14);
    let fake = Fake::new([Reply::IoctlErr(libc::ENOTTY)]);
    let st = CmdState::init(&fake, 14);
    assert!(!st.use_ioctl_write());
    // The probe is not a command: it marks nothing unsupported.
    assert!(!st.is_unsupported(op::QUERY_PORT));
}
