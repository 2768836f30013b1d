//! Completion channels, CQ and async event acknowledgement without a device: the channel
//! command's bytes through the fake seam, the ack counters and their wake-ups, the channel's
//! EBUSY rule, and our EINVAL for the NULL arguments rdma-core would crash on (so the VM's
//! behaviour diffs cannot run them under the system library).

mod common;

use common::{Fake, Reply, u16_at, u32_at};
use core::ptr::null_mut;
use ibverbs::abi::ctype::CEnum;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use ibverbs::abi::uapi::IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL;
use ibverbs::abi::verbs::*;
use ibverbs::capi::{cq, events};
use ibverbs::cmd::cq::create_comp_channel;
use ibverbs::cmd::{CmdState, Ctx};
use ibverbs::errno::Errno;
use ibverbs::sys;

#[test]
fn create_comp_channel_is_a_plain_write() {
    let st = CmdState::new(14, false);
    let fake = Fake::new([
        Reply::WriteOk(7u32.to_ne_bytes().to_vec()),
        Reply::WriteErr(libc::EMFILE),
    ]);
    assert_eq!(create_comp_channel(Ctx::new(&fake, &st)), Ok(7));
    let w = &fake.writes()[0];
    assert_eq!(
        (w.len(), u32_at(w, 0), u16_at(w, 4), u16_at(w, 6)),
        (16, IB_USER_VERBS_CMD_CREATE_COMP_CHANNEL, 4, 1)
    );
    assert_eq!(
        create_comp_channel(Ctx::new(&fake, &st)),
        Err(Errno(libc::EMFILE))
    );
}

/// Zeroed plain data with an initialised mutex and condvar at the given fields.
fn new_cq() -> Box<ibv_cq> {
    // SAFETY: ibv_cq is plain data; all-zero is valid before init.
    let mut c: Box<ibv_cq> = Box::new(unsafe { core::mem::zeroed() });
    // SAFETY: our own fields.
    unsafe {
        libc::pthread_mutex_init(&mut c.mutex, core::ptr::null());
        libc::pthread_cond_init(&mut c.cond, core::ptr::null());
    }
    c
}

#[test]
fn acks_count_under_the_mutex_and_wake_a_waiter() {
    let mut c = new_cq();
    let p = &mut *c as *mut ibv_cq as usize;
    let done = Arc::new(AtomicBool::new(false));
    let d2 = done.clone();
    // A waiter as ibv_cmd_destroy_cq waits: until 3 completion events and 1 async event.
    let t = std::thread::spawn(move || {
        let cq = p as *mut ibv_cq;
        // SAFETY: the CQ outlives the thread (joined below).
        unsafe {
            libc::pthread_mutex_lock(&mut (*cq).mutex);
            while (*cq).comp_events_completed != 3 || (*cq).async_events_completed != 1 {
                libc::pthread_cond_wait(&mut (*cq).cond, &mut (*cq).mutex);
            }
            libc::pthread_mutex_unlock(&mut (*cq).mutex);
        }
        d2.store(true, Ordering::SeqCst);
    });
    // SAFETY: a live CQ; events filled as ibv_get_async_event fills them.
    unsafe {
        events::ibv_ack_cq_events(p as *mut ibv_cq, 1);
        events::ibv_ack_cq_events(p as *mut ibv_cq, 2);
        let mut ev: ibv_async_event = core::mem::zeroed();
        ev.event_type = CEnum::new(ibv_event_type::IBV_EVENT_CQ_ERR as u32);
        ev.element.cq = p as *mut ibv_cq;
        events::ibv_ack_async_event(&mut ev);
        // Port and device events touch nothing.
        ev.event_type = CEnum::new(ibv_event_type::IBV_EVENT_PORT_ACTIVE as u32);
        ev.element.port_num = 1;
        events::ibv_ack_async_event(&mut ev);
    }
    t.join().unwrap();
    assert!(done.load(Ordering::SeqCst));
    assert_eq!((c.comp_events_completed, c.async_events_completed), (3, 1));
}

#[test]
fn qp_srq_wq_events_bump_their_objects() {
    // SAFETY: zeroed plain data with initialised sync fields; the events name them.
    unsafe {
        let mut qp: ibv_qp = core::mem::zeroed();
        let mut srq: ibv_srq = core::mem::zeroed();
        let mut wq: ibv_wq = core::mem::zeroed();
        libc::pthread_mutex_init(&mut qp.mutex, core::ptr::null());
        libc::pthread_cond_init(&mut qp.cond, core::ptr::null());
        libc::pthread_mutex_init(&mut srq.mutex, core::ptr::null());
        libc::pthread_cond_init(&mut srq.cond, core::ptr::null());
        libc::pthread_mutex_init(&mut wq.mutex, core::ptr::null());
        libc::pthread_cond_init(&mut wq.cond, core::ptr::null());
        let mut ev: ibv_async_event = core::mem::zeroed();
        for t in [
            ibv_event_type::IBV_EVENT_QP_FATAL,
            ibv_event_type::IBV_EVENT_COMM_EST,
            ibv_event_type::IBV_EVENT_QP_LAST_WQE_REACHED,
        ] {
            ev.event_type = CEnum::new(t as u32);
            ev.element.qp = &mut qp;
            events::ibv_ack_async_event(&mut ev);
        }
        ev.event_type = CEnum::new(ibv_event_type::IBV_EVENT_SRQ_LIMIT_REACHED as u32);
        ev.element.srq = &mut srq;
        events::ibv_ack_async_event(&mut ev);
        ev.event_type = CEnum::new(ibv_event_type::IBV_EVENT_WQ_FATAL as u32);
        ev.element.wq = &mut wq;
        events::ibv_ack_async_event(&mut ev);
        assert_eq!(
            (
                qp.events_completed,
                srq.events_completed,
                wq.events_completed
            ),
            (3, 1, 1)
        );
        // A NULL object (rdma-core would crash) and a NULL event are ignored.
        ev.element.wq = null_mut();
        events::ibv_ack_async_event(&mut ev);
        events::ibv_ack_async_event(null_mut());
        events::ibv_ack_cq_events(null_mut(), 1);
    }
}

#[test]
fn destroy_comp_channel_is_busy_while_used() {
    // SAFETY: a zeroed context with an initialised mutex; the channel is never freed (refcnt 1).
    unsafe {
        let mut ctx: ibv_context = core::mem::zeroed();
        libc::pthread_mutex_init(&mut ctx.mutex, core::ptr::null());
        let mut ch = ibv_comp_channel {
            context: &mut ctx,
            fd: -1,
            refcnt: 1,
        };
        assert_eq!(events::ibv_destroy_comp_channel(&mut ch), libc::EBUSY);
        assert_eq!(ch.refcnt, 1);
        assert_eq!(
            libc::pthread_mutex_trylock(&mut ctx.mutex),
            0,
            "the mutex was released"
        );
    }
}

/// Run `f` with errno preset to a sentinel; return its result and the errno it left.
fn with_errno<T>(f: impl FnOnce() -> T) -> (T, i32) {
    sys::set_errno(12345);
    let r = f();
    (r, sys::errno())
}

#[test]
fn null_arguments_give_einval() {
    // SAFETY: each export accepts NULL (our documented divergence).
    unsafe {
        assert_eq!(
            with_errno(|| events::ibv_get_async_event(null_mut(), null_mut())),
            (-1, libc::EINVAL)
        );
        let mut cqp = null_mut();
        let mut cqc = null_mut();
        assert_eq!(
            with_errno(|| events::ibv_get_cq_event(null_mut(), &mut cqp, &mut cqc)),
            (-1, libc::EINVAL)
        );
        let mut ch = ibv_comp_channel {
            context: null_mut(),
            fd: -1,
            refcnt: 0,
        };
        assert_eq!(
            with_errno(|| events::ibv_get_cq_event(&mut ch, null_mut(), &mut cqc)),
            (-1, libc::EINVAL)
        );
        let (p, e) = with_errno(|| events::ibv_create_comp_channel(null_mut()));
        assert!(p.is_null());
        assert_eq!(e, libc::EINVAL);
        assert_eq!(events::ibv_destroy_comp_channel(null_mut()), libc::EINVAL);
        let (p, e) = with_errno(|| cq::ibv_create_cq(null_mut(), 1, null_mut(), null_mut(), 0));
        assert!(p.is_null());
        assert_eq!(e, libc::EINVAL);
        assert_eq!(cq::ibv_resize_cq(null_mut(), 1), libc::EINVAL);
        assert_eq!(cq::ibv_destroy_cq(null_mut()), libc::EINVAL);
        assert_eq!(cq::ibv_cmd_destroy_cq(null_mut()), libc::EINVAL);
        assert_eq!(cq::ibv_cmd_req_notify_cq(null_mut(), 0), libc::EINVAL);
        assert_eq!(
            with_errno(|| cq::ibv_cmd_poll_cq(null_mut(), 1, null_mut())),
            (-1, libc::EINVAL)
        );
        assert_eq!(
            cq::ibv_cmd_resize_cq(null_mut(), 1, null_mut(), 0, null_mut(), 0),
            libc::EINVAL
        );
        assert_eq!(
            cq::ibv_cmd_modify_cq(null_mut(), null_mut(), null_mut(), 0),
            libc::EINVAL
        );
        let r = cq::ibv_cmd_create_cq(
            null_mut(),
            1,
            null_mut(),
            0,
            null_mut(),
            null_mut(),
            0,
            null_mut(),
            0,
        );
        assert_eq!(r, libc::EINVAL);
        let r = cq::ibv_cmd_create_cq_ex(
            null_mut(),
            null_mut(),
            null_mut(),
            null_mut(),
            0,
            null_mut(),
            0,
            0,
        );
        assert_eq!(r, libc::EINVAL);
    }
}

#[test]
fn create_cq_without_a_request_buffer() {
    use ibverbs::abi::kern_abi::ibv_create_cq;
    use ibverbs::abi::uapi::*;
    use ibverbs::cmd::cq::{CqCreated, CqInit, create_cq};
    use ibverbs::sys::pod;
    // rxe's ibv_cmd_create_cq(…, NULL, 0, &resp.ibv_resp, sizeof(resp)): no UHW_IN, UHW_OUT
    // for the driver response, and a write fallback in a buffer of ours.
    let a = CqInit {
        cqe: 16,
        channel_fd: None,
        comp_vector: 0,
        user_handle: 0x77,
        async_fd: 5,
        imported: false,
        buffer: None,
    };
    let st = CmdState::new(14, true);
    let fake = Fake::new([Reply::IoctlOk(vec![])]);
    let mut resp = vec![0u8; size_of::<ib_uverbs_create_cq_resp>() + 8];
    create_cq(Ctx::new(&fake, &st), &a, &mut [], &mut resp).unwrap();
    let ids: Vec<u16> = fake.ioctls()[0].attrs.iter().map(|x| x.id).collect();
    assert!(
        !ids.contains(&UVERBS_ATTR_UHW_IN) && ids.contains(&UVERBS_ATTR_UHW_OUT),
        "{ids:?}"
    );

    let st = CmdState::new(14, false);
    let mut k: ib_uverbs_create_cq_resp = pod::zeroed();
    k.cq_handle = 3;
    k.cqe = 31;
    let fake = Fake::new([
        Reply::IoctlErr(libc::ENOTTY),
        Reply::WriteOk(pod::bytes(&k).to_vec()),
    ]);
    let c = create_cq(Ctx::new(&fake, &st), &a, &mut [], &mut resp).unwrap();
    assert_eq!(c, CqCreated { handle: 3, cqe: 31 });
    let w = &fake.writes()[0];
    assert_eq!(
        (w.len(), u32_at(w, 0)),
        (size_of::<ibv_create_cq>(), IB_USER_VERBS_CMD_CREATE_CQ)
    );
}

#[test]
fn objects_without_a_context_give_einval() {
    // Zeroed objects: `context` NULL. rdma-core crashes on each (ibv_resize_cq and
    // ibv_destroy_comp_channel dereference the context); ours answers EINVAL, errno set.
    // SAFETY: zeroed plain data; each call refuses before it touches anything else.
    unsafe {
        let mut ch = ibv_comp_channel {
            context: null_mut(),
            fd: -1,
            refcnt: 0,
        };
        assert_eq!(
            with_errno(|| events::ibv_destroy_comp_channel(&mut ch)),
            (libc::EINVAL, libc::EINVAL)
        );
        let mut c = new_cq();
        assert_eq!(
            with_errno(|| cq::ibv_resize_cq(&mut *c, 1)),
            (libc::EINVAL, libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| cq::ibv_destroy_cq(&mut *c)),
            (libc::EINVAL, libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| cq::ibv_cmd_destroy_cq(&mut *c)),
            (libc::EINVAL, libc::EINVAL)
        );
        let mut srq: ibv_srq = core::mem::zeroed();
        let mut a: ibv_srq_attr = core::mem::zeroed();
        assert_eq!(
            with_errno(|| ibverbs::capi::srq::ibv_query_srq(&mut srq, &mut a)),
            (libc::EINVAL, libc::EINVAL)
        );
    }
}

#[test]
fn provider_buffers_shorter_than_the_core_give_einval() {
    use ibverbs::abi::kern_abi::ibv_create_srq;
    use ibverbs::abi::uapi::ib_uverbs_create_srq_resp;
    // SAFETY: zeroed plain data; the buffers are refused before anything is read or sent.
    unsafe {
        let mut ctx: ibv_context = core::mem::zeroed();
        let mut pd: ibv_pd = core::mem::zeroed();
        pd.context = &mut ctx;
        let mut srq: ibv_srq = core::mem::zeroed();
        let mut a: ibv_srq_init_attr = core::mem::zeroed();
        let mut cmd = [0u8; 64];
        let mut resp = [0u8; 64];
        let (core_cmd, core_resp) = (
            size_of::<ibv_create_srq>(),
            size_of::<ib_uverbs_create_srq_resp>(),
        );
        let mut create = |cmd_size, resp_size| {
            ibverbs::capi::srq::ibv_cmd_create_srq(
                &mut pd,
                &mut srq,
                &mut a,
                cmd.as_mut_ptr().cast(),
                cmd_size,
                resp.as_mut_ptr().cast(),
                resp_size,
            )
        };
        assert_eq!(
            with_errno(|| create(core_cmd - 1, core_resp)),
            (libc::EINVAL, libc::EINVAL)
        );
        assert_eq!(
            with_errno(|| create(core_cmd, core_resp - 1)),
            (libc::EINVAL, libc::EINVAL)
        );
        assert!(srq.context.is_null(), "refused before the SRQ is touched");
    }
}
