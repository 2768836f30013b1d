//! The ENOMEM hints wired into the exports: `ibv_reg_mr` and `ibv_create_cq` on a context made
//! here whose provider ops fail. The log is the process's (read once from the environment), so
//! the test runs itself again as a child with VERBS_LOG_LEVEL and VERBS_LOG_FILE set, and reads
//! the file: ENOMEM is explained with the memlock figures, errno stays ENOMEM, another errno is
//! not explained, and below warn level nothing is written.

use core::ffi::{c_int, c_void};
use core::ptr::null_mut;

use crate::abi::driver::{verbs_context_ops, verbs_context_pabi34};
use crate::abi::verbs::{ibv_comp_channel, ibv_context, ibv_cq, ibv_mr, ibv_pd};
use crate::verbs::ctxpriv::ContextPriv;

const CHILD: &str = "IBVERBS_RS_EXPLAIN_CHILD";

unsafe extern "C" fn reg_fails(
    _pd: *mut ibv_pd,
    _addr: *mut c_void,
    len: usize,
    _iova: u64,
    _access: c_int,
) -> *mut ibv_mr {
    crate::sys::set_errno(if len == 4096 {
        libc::EINVAL
    } else {
        libc::ENOMEM
    });
    null_mut()
}

unsafe extern "C" fn cq_fails(
    _c: *mut ibv_context,
    _cqe: c_int,
    _ch: *mut ibv_comp_channel,
    _v: c_int,
) -> *mut ibv_cq {
    crate::sys::set_errno(libc::ENOMEM);
    null_mut()
}

fn failing_context() -> *mut ibv_context {
    // SAFETY: zeroed plain data: NULL pointers and absent ops.
    let mut ops: verbs_context_ops = unsafe { core::mem::zeroed() };
    ops.reg_mr = Some(reg_fails);
    ops.create_cq = Some(cq_fails);
    let p = Box::new(ContextPriv::new(
        ops,
        crate::cmd::CmdState::new(0, false),
        false,
    ));
    // SAFETY: zeroed plain data: a verbs_context of NULL pointers and absent ops is a valid value.
    let v: *mut verbs_context_pabi34 = Box::into_raw(Box::new(unsafe { core::mem::zeroed() }));
    // SAFETY: our own allocation.
    unsafe { (*v).r#priv = Box::into_raw(p).cast() };
    // SAFETY: `v` is the live allocation just made; only its field's address is taken.
    unsafe { &raw mut (*v).context }
}

/// In the child: the failing calls, and errno after each.
fn child() {
    let ctx = failing_context();
    let mut pd = ibv_pd {
        context: ctx,
        handle: 1,
    };
    let mut buf = vec![0u8; 1 << 20];
    // SAFETY: a PD of the context made here; the buffer outlives the call.
    let mr = unsafe { crate::capi::mr::ibv_reg_mr(&mut pd, buf.as_mut_ptr().cast(), 1 << 20, 1) };
    assert!(mr.is_null());
    assert_eq!(crate::sys::errno(), libc::ENOMEM, "errno after ibv_reg_mr");
    // SAFETY: the same PD of this context and the same buffer, longer than the 4096 bytes asked.
    let mr = unsafe { crate::capi::mr::ibv_reg_mr(&mut pd, buf.as_mut_ptr().cast(), 4096, 1) };
    assert!(mr.is_null());
    assert_eq!(
        crate::sys::errno(),
        libc::EINVAL,
        "errno after the EINVAL ibv_reg_mr"
    );
    // SAFETY: the context made here; no channel.
    // SAFETY: the context made here; no channel.
    let cq = unsafe { crate::capi::cq::ibv_create_cq(ctx, 16, null_mut(), null_mut(), 0) };
    assert!(cq.is_null());
    assert_eq!(
        crate::sys::errno(),
        libc::ENOMEM,
        "errno after ibv_create_cq"
    );
}

/// Run this test again in a child with `level`; the log it wrote.
fn run_child(level: &str) -> String {
    let log = std::env::temp_dir().join(format!("explain-{}-{level}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "capi::explain_tests::enomem_is_explained",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .env("VERBS_LOG_LEVEL", level)
        .env("VERBS_LOG_FILE", &log)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "child: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let _ = std::fs::remove_file(&log);
    text
}

#[test]
fn enomem_is_explained() {
    if std::env::var_os(CHILD).is_some() {
        child();
        return;
    }
    let log = run_child("2");
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(lines.len(), 2, "{log}");
    assert!(
        lines[0].starts_with("libibverbs: ibv_reg_mr of 1048576 bytes (1 MiB) failed with ENOMEM"),
        "{log}"
    );
    assert!(
        lines[0].contains("RLIMIT_MEMLOCK") || lines[0].contains("CAP_IPC_LOCK"),
        "{log}"
    );
    assert!(
        lines[1].starts_with("libibverbs: ibv_create_cq failed with ENOMEM"),
        "{log}"
    );
    assert_eq!(run_child("1"), "", "error level: no hint");
}
