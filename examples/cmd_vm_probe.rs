//! Drive a real uverbs device with the command layer, twice: once forced onto write() and once
//! the way a new context chooses (ioctl if the kernel has it), and print what the kernel said in
//! `ibv_devinfo -v`'s words, so the two runs and ibv_devinfo can be compared. Run it in the
//! soft-RoCE VM: `tools/rdma-vm -- bash -c 'target/release/examples/cmd_vm_probe; ibv_devinfo -v'`.

use ibverbs::abi::ctype::CEnum;
use std::fs::OpenOptions;
use std::os::fd::AsRawFd;

use ibverbs::abi::uapi::*;
use ibverbs::abi::verbs::{
    ibv_ah_attr, ibv_device_attr_ex, ibv_gid, ibv_global_route, ibv_port_attr, ibv_qp_attr,
    ibv_qp_cap,
};
use ibverbs::cmd::device::*;
use ibverbs::cmd::{CmdFd, CmdState, Ctx};
use ibverbs::sys::pod;

const RXE: u32 = rdma_driver_id::RDMA_DRIVER_RXE as u32;

fn guid(be: u64) -> String {
    let v = u64::from_be(be);
    format!(
        "{:04x}:{:04x}:{:04x}:{:04x}",
        v >> 48,
        (v >> 32) & 0xffff,
        (v >> 16) & 0xffff,
        v & 0xffff
    )
}

fn rd<T: Copy>(b: &[u8], off: usize) -> T {
    assert!(off + size_of::<T>() <= b.len());
    // SAFETY: in bounds (checked); T is a plain integer, read unaligned.
    unsafe { (b.as_ptr().add(off) as *const T).read_unaligned() }
}

macro_rules! a {
    ($b:expr, $t:ty, $($f:ident).+) => {
        rd::<$t>(&$b, core::mem::offset_of!(ibv_device_attr_ex, $($f).+))
    };
}

fn port_attr() -> ibv_port_attr {
    ibv_port_attr {
        state: CEnum::new(0),
        max_mtu: CEnum::new(0),
        active_mtu: CEnum::new(0),
        gid_tbl_len: 0,
        port_cap_flags: 0,
        max_msg_sz: 0,
        bad_pkey_cntr: 0,
        qkey_viol_cntr: 0,
        pkey_tbl_len: 0,
        lid: 0,
        sm_lid: 0,
        lmc: 0,
        max_vl_num: 0,
        sm_sl: 0,
        subnet_timeout: 0,
        init_type_reply: 0,
        active_width: 0,
        active_speed: 0,
        phys_state: 0,
        link_layer: 0,
        flags: 0,
        port_cap_flags2: 0,
        active_speed_ex: 0,
    }
}

/// One context's worth of queries; returns the printed lines for comparison.
fn run(label: &str, force_write: bool) -> Vec<String> {
    let f = OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/infiniband/uverbs0")
        .expect("open uverbs0");
    let fd = CmdFd(f.as_raw_fd());
    let st = if force_write {
        let st = CmdState::new(RXE, false);
        st.set_all_unsupported();
        st
    } else {
        CmdState::init(&fd, RXE)
    };
    let ctx = Ctx::new(&fd, &st);
    let mut out = Vec::new();
    println!(
        "== {label}: use_ioctl_write={} ioctl-probe-ok={}",
        st.use_ioctl_write(),
        !force_write
    );

    // rxe's alloc_context: struct ibv_get_context and ib_uverbs_get_context_resp, no driver data.
    let mut req = [0u8; size_of::<ibverbs::abi::kern_abi::ibv_get_context>()];
    let mut resp = [0u8; size_of::<ib_uverbs_get_context_resp>()];
    let gc = get_context(ctx, &mut req, &mut resp, None).expect("get_context");
    let async_fd = match gc.async_fd {
        Some(fd) => fd,
        None => alloc_async_fd(ctx).expect("alloc_async_fd"),
    };
    println!(
        "get_context: num_comp_vectors={} async_fd={} (from {}) core_support={:?}",
        gc.num_comp_vectors,
        async_fd,
        if gc.async_fd.is_some() {
            "GET_CONTEXT write"
        } else {
            "ASYNC_EVENT_ALLOC ioctl"
        },
        gc.core_support
    );
    if !force_write {
        match query_context(ctx, &mut ()) {
            Ok(qc) => println!(
                "query_context: num_comp_vectors={} core_support={:#x}",
                qc.num_comp_vectors, qc.core_support
            ),
            Err(e) => println!("query_context: {e:?}"),
        }
    }

    out.extend(device_lines(ctx));

    out.extend(port_lines(ctx));
    print_gids(ctx);
    for l in &out {
        println!("{l}");
    }
    objects(ctx, async_fd);
    out
}

/// One line of `ibv_devinfo -v` from a field of the attribute bytes: its format => its type, field.
macro_rules! attr_line {
    ($out:ident, $attr:ident; $label:literal => $t:ty, $($f:ident).+) => {
        $out.push(format!($label, a!($attr, $t, $($f).+)))
    };
}

/// `ibv_devinfo -v`'s device lines from a full `ibv_device_attr_ex` query (`n`: the kernel's
/// response length).
fn device_lines(ctx: Ctx<'_>) -> Vec<String> {
    // rxe's query_device: ib_uverbs_ex_query_device_resp, caller's full ibv_device_attr_ex.
    let mut attr = vec![0u8; size_of::<ibv_device_attr_ex>()];
    let mut dresp = vec![0u8; size_of::<ib_uverbs_ex_query_device_resp>()];
    let n = query_device_any(ctx, 0, &mut attr, Some(&mut dresp), || 1).expect("query_device_any");
    let mut out = Vec::new();
    let r: ib_uverbs_ex_query_device_resp = pod::read(&dresp);
    let fw = r.base.fw_ver;
    out.push(format!(
        "fw_ver:\t\t\t\t{}.{}.{}",
        (fw >> 32) & 0xffff,
        (fw >> 16) & 0xffff,
        fw & 0xffff
    ));
    out.push(format!(
        "node_guid:\t\t\t{}",
        guid(a!(attr, u64, orig_attr.node_guid))
    ));
    out.push(format!(
        "sys_image_guid:\t\t\t{}",
        guid(a!(attr, u64, orig_attr.sys_image_guid))
    ));
    attr_line!(out, attr; "vendor_id:\t\t\t0x{:04x}" => u32, orig_attr.vendor_id);
    attr_line!(out, attr; "vendor_part_id:\t\t\t{}" => u32, orig_attr.vendor_part_id);
    attr_line!(out, attr; "hw_ver:\t\t\t\t0x{:X}" => u32, orig_attr.hw_ver);
    attr_line!(out, attr; "phys_port_cnt:\t\t\t{}" => u8, orig_attr.phys_port_cnt);
    attr_line!(out, attr; "max_mr_size:\t\t\t0x{:x}" => u64, orig_attr.max_mr_size);
    attr_line!(out, attr; "page_size_cap:\t\t\t0x{:x}" => u64, orig_attr.page_size_cap);
    attr_line!(out, attr; "max_qp:\t\t\t\t{}" => i32, orig_attr.max_qp);
    attr_line!(out, attr; "max_qp_wr:\t\t\t{}" => i32, orig_attr.max_qp_wr);
    attr_line!(out, attr; "device_cap_flags:\t\t0x{:08x}" => u32, orig_attr.device_cap_flags);
    attr_line!(out, attr; "max_sge:\t\t\t{}" => i32, orig_attr.max_sge);
    attr_line!(out, attr; "max_sge_rd:\t\t\t{}" => i32, orig_attr.max_sge_rd);
    attr_line!(out, attr; "max_cq:\t\t\t\t{}" => i32, orig_attr.max_cq);
    attr_line!(out, attr; "max_cqe:\t\t\t{}" => i32, orig_attr.max_cqe);
    attr_line!(out, attr; "max_mr:\t\t\t\t{}" => i32, orig_attr.max_mr);
    attr_line!(out, attr; "max_pd:\t\t\t\t{}" => i32, orig_attr.max_pd);
    attr_line!(out, attr; "max_qp_rd_atom:\t\t\t{}" => i32, orig_attr.max_qp_rd_atom);
    attr_line!(out, attr; "max_res_rd_atom:\t\t{}" => i32, orig_attr.max_res_rd_atom);
    attr_line!(out, attr; "max_qp_init_rd_atom:\t\t{}" => i32, orig_attr.max_qp_init_rd_atom);
    attr_line!(out, attr; "atomic_cap:\t\t\t{}" => u32, orig_attr.atomic_cap);
    attr_line!(out, attr; "max_mw:\t\t\t\t{}" => i32, orig_attr.max_mw);
    attr_line!(out, attr; "max_mcast_grp:\t\t\t{}" => i32, orig_attr.max_mcast_grp);
    attr_line!(out, attr; "max_mcast_qp_attach:\t\t{}" => i32, orig_attr.max_mcast_qp_attach);
    attr_line!(out, attr; "max_total_mcast_qp_attach:\t{}" => i32, orig_attr.max_total_mcast_qp_attach);
    attr_line!(out, attr; "max_ah:\t\t\t\t{}" => i32, orig_attr.max_ah);
    attr_line!(out, attr; "max_srq:\t\t\t{}" => i32, orig_attr.max_srq);
    attr_line!(out, attr; "max_srq_wr:\t\t\t{}" => i32, orig_attr.max_srq_wr);
    attr_line!(out, attr; "max_srq_sge:\t\t\t{}" => i32, orig_attr.max_srq_sge);
    attr_line!(out, attr; "max_pkeys:\t\t\t{}" => u16, orig_attr.max_pkeys);
    attr_line!(out, attr; "local_ca_ack_delay:\t\t{}" => u8, orig_attr.local_ca_ack_delay);
    out.push(format!("response_length:\t\t{n}"));
    attr_line!(out, attr; "device_cap_flags_ex:\t\t0x{:X}" => u64, device_cap_flags_ex);
    attr_line!(out, attr; "completion_timestamp_mask:\t0x{:x}" => u64, completion_timestamp_mask);
    attr_line!(out, attr; "hca_core_clock:\t\t\t{}" => u64, hca_core_clock);
    attr_line!(out, attr; "odp general_caps:\t\t0x{:x}" => u64, odp_caps.general_caps);
    attr_line!(out, attr; "max_dm_size:\t\t\t{}" => u64, max_dm_size);
    attr_line!(out, attr; "phys_port_cnt_ex:\t\t{}" => u32, phys_port_cnt_ex);
    out
}

/// `ibv_devinfo -v`'s lines of port 1; the ioctl-only fields printed apart.
fn port_lines(ctx: Ctx<'_>) -> Vec<String> {
    // rxe's query_port: a bare struct ibv_query_port.
    let mut p = port_attr();
    let mut preq = [0u8; size_of::<ibverbs::abi::kern_abi::ibv_query_port>()];
    query_port(ctx, 1, &mut p, &mut preq).expect("query_port");
    let mut out = Vec::new();
    out.push(format!("port 1 state:\t\t\t{}", p.state));
    out.push(format!("max_mtu:\t\t\t{}", p.max_mtu));
    out.push(format!("active_mtu:\t\t\t{}", p.active_mtu));
    out.push(format!("sm_lid:\t\t\t\t{}", p.sm_lid));
    out.push(format!("port_lid:\t\t\t{}", p.lid));
    out.push(format!("port_lmc:\t\t\t0x{:02x}", p.lmc));
    out.push(format!("link_layer:\t\t\t{}", p.link_layer));
    out.push(format!("max_msg_sz:\t\t\t0x{:x}", p.max_msg_sz));
    out.push(format!("port_cap_flags:\t\t\t0x{:08x}", p.port_cap_flags));
    out.push(format!("max_vl_num:\t\t\t{}", p.max_vl_num));
    out.push(format!("bad_pkey_cntr:\t\t\t0x{:x}", p.bad_pkey_cntr));
    out.push(format!("qkey_viol_cntr:\t\t\t0x{:x}", p.qkey_viol_cntr));
    out.push(format!("sm_sl:\t\t\t\t{}", p.sm_sl));
    out.push(format!("pkey_tbl_len:\t\t\t{}", p.pkey_tbl_len));
    out.push(format!("gid_tbl_len:\t\t\t{}", p.gid_tbl_len));
    out.push(format!("subnet_timeout:\t\t\t{}", p.subnet_timeout));
    out.push(format!("init_type_reply:\t\t{}", p.init_type_reply));
    out.push(format!("active_width:\t\t\t{}", p.active_width));
    out.push(format!("active_speed:\t\t\t{}", p.active_speed));
    out.push(format!("phys_state:\t\t\t{}", p.phys_state));
    out.push(format!("flags:\t\t\t\t{}", p.flags));
    println!(
        "(ioctl-only port fields) port_cap_flags2=0x{:x} active_speed_ex={}",
        p.port_cap_flags2, p.active_speed_ex
    );
    out
}

/// GID 0 and the GID table, when the kernel answers them by ioctl.
fn print_gids(ctx: Ctx<'_>) {
    let mut entry = [0u8; 32];
    match query_gid_entry(ctx, 1, 0, 0, &mut entry) {
        Ok(GidVia::Kernel) => {
            let e: ibverbs::abi::verbs::ibv_gid_entry = pod::read(&entry);
            let g: Vec<String> = entry[..16]
                .chunks(2)
                .map(|c| format!("{:02x}{:02x}", c[0], c[1]))
                .collect();
            println!(
                "GID[0] (ioctl): {} index={} port={} type={} ifindex={}",
                g.join(":"),
                e.gid_index,
                e.port_num,
                e.gid_type,
                e.ndev_ifindex
            );
        }
        other => println!("GID[0]: {other:?}"),
    }
    let mut table = vec![0u8; 32 * 16];
    match query_gid_table(ctx, 0, 32, Some(&mut table)) {
        Ok((GidVia::Kernel, n)) => {
            println!("GID table (ioctl): {n} entries");
            for e in table.chunks(32).take(n as usize) {
                let g: Vec<String> = e[..16]
                    .chunks(2)
                    .map(|c| format!("{:02x}{:02x}", c[0], c[1]))
                    .collect();
                println!(
                    "  GID[{:3}]: {}, type {}",
                    u32::from_ne_bytes(e[16..20].try_into().unwrap()),
                    g.join(":"),
                    u32::from_ne_bytes(e[24..28].try_into().unwrap())
                );
            }
        }
        other => println!("GID table: {other:?}"),
    }
}

fn sysfs_gid0() -> [u8; 16] {
    let s =
        std::fs::read_to_string("/sys/class/infiniband/rxe0/ports/1/gids/0").unwrap_or_default();
    let mut g = [0u8; 16];
    for (i, h) in s.trim().split(':').enumerate().take(8) {
        let v = u16::from_str_radix(h, 16).unwrap_or(0);
        g[2 * i..2 * i + 2].copy_from_slice(&v.to_be_bytes());
    }
    g
}

fn zero_ah() -> ibv_ah_attr {
    ibv_ah_attr {
        grh: ibv_global_route {
            dgid: ibv_gid { raw: [0; 16] },
            flow_label: 0,
            sgid_index: 0,
            hop_limit: 0,
            traffic_class: 0,
        },
        dlid: 0,
        sl: 0,
        src_path_bits: 0,
        static_rate: 0,
        is_global: 0,
        port_num: 0,
    }
}

fn zero_qp_attr() -> ibv_qp_attr {
    ibv_qp_attr {
        qp_state: CEnum::new(0),
        cur_qp_state: CEnum::new(0),
        path_mtu: CEnum::new(0),
        path_mig_state: CEnum::new(0),
        qkey: 0,
        rq_psn: 0,
        sq_psn: 0,
        dest_qp_num: 0,
        qp_access_flags: 0,
        cap: ibv_qp_cap {
            max_send_wr: 0,
            max_recv_wr: 0,
            max_send_sge: 0,
            max_recv_sge: 0,
            max_inline_data: 0,
        },
        ah_attr: zero_ah(),
        alt_ah_attr: zero_ah(),
        pkey_index: 0,
        alt_pkey_index: 0,
        en_sqd_async_notify: 0,
        sq_draining: 0,
        max_rd_atomic: 0,
        max_dest_rd_atomic: 0,
        min_rnr_timer: 0,
        port_num: 0,
        timeout: 0,
        retry_cnt: 0,
        rnr_retry: 0,
        alt_port_num: 0,
        alt_timeout: 0,
        rate_limit: 0,
    }
}

fn show(what: &str, r: &dyn std::fmt::Debug) {
    println!("  {what}: {r:?}");
}

/// [`objects`]' CQs (basic and extended) and, on the basic one, an RC QP taken to INIT and
/// queried, and a UD QP attached to a multicast group.
fn cqs_and_qps(ctx: Ctx<'_>, pd_h: u32, async_fd: i32) {
    use ibverbs::abi::kern_abi::*;
    use ibverbs::cmd::{cq, qp};
    let a = cq::CqInit {
        cqe: 16,
        channel_fd: None,
        comp_vector: 0,
        user_handle: 0x1111,
        async_fd,
        imported: false,
        buffer: None,
    };
    let mut req = [0u8; size_of::<ibv_create_cq>()];
    let mut resp = [0u8; size_of::<ib_uverbs_create_cq_resp>() + 16];
    let c = cq::create_cq(ctx, &a, &mut req, &mut resp);
    show("create_cq (cqe 16)", &c);
    let mut req = [0u8; size_of::<ibv_create_cq_ex>()];
    let mut resp = [0u8; size_of::<ib_uverbs_ex_create_cq_resp>() + 16];
    let c2 = cq::create_cq_ex(ctx, &a, 0, 0, 0, 0, &mut req, &mut resp, None);
    show("create_cq_ex (cqe 16)", &c2);
    show(
        "req_notify_cq",
        &c.map(|c| cq::req_notify_cq(ctx, c.handle, false)),
    );
    show(
        "poll_cq(4)",
        &c.map(|c| cq::poll_cq(ctx, c.handle, 4).map(|v| v.len())),
    );

    if let Ok(c) = c {
        let q = qp::QpInit {
            qp_type: 2,
            comp_mask: 1,
            pd_handle: Some(pd_h),
            send_cq_handle: Some(c.handle),
            recv_cq_handle: Some(c.handle),
            cap: qp::QpCap {
                max_send_wr: 16,
                max_recv_wr: 16,
                max_send_sge: 1,
                max_recv_sge: 1,
                max_inline_data: 0,
            },
            user_handle: 0x2222,
            async_fd,
            ..Default::default()
        };
        let mut req = [0u8; size_of::<ibv_create_qp>()];
        let mut resp = [0u8; size_of::<ib_uverbs_create_qp_resp>() + 32];
        let created = qp::create_qp(ctx, &q, &mut req, &mut resp);
        show("create_qp RC", &created);
        let mut req = [0u8; size_of::<ibv_create_qp_ex>()];
        let mut resp = [0u8; size_of::<ib_uverbs_ex_create_qp_resp>() + 32];
        let ud = qp::QpInit { qp_type: 4, ..q };
        let created2 = qp::create_qp_ex2(ctx, &ud, &mut req, &mut resp);
        show("create_qp_ex2 UD", &created2);
        if let Ok(qq) = created {
            rc_qp_to_init(ctx, qq.handle);
        }
        if let Ok(qq) = created2 {
            ud_qp_mcast(ctx, qq.handle);
        }
        show("destroy_cq", &cq::destroy_cq(ctx, c.handle, false));
    }
    if let Ok(c) = c2 {
        show("destroy_cq (ex)", &cq::destroy_cq(ctx, c.handle, false));
    }
}

/// [`cqs_and_qps`]' RC QP: to INIT, queried, destroyed.
fn rc_qp_to_init(ctx: Ctx<'_>, handle: u32) {
    use ibverbs::abi::kern_abi::*;
    use ibverbs::cmd::{qp, qp_attr};
    let mut attr = zero_qp_attr();
    attr.qp_state = CEnum::new(1);
    attr.pkey_index = 0;
    attr.port_num = 1;
    attr.qp_access_flags = 7;
    let mut req = [0u8; size_of::<ibv_modify_qp>()];
    show(
        "modify_qp -> INIT",
        &qp_attr::modify_qp(ctx, handle, &attr, 1 | 16 | 32 | 8, &mut req),
    );
    let mut got = zero_qp_attr();
    let mut req = [0u8; size_of::<ibv_query_qp>()];
    let rep = qp_attr::query_qp(ctx, handle, 1, &mut req, &mut got);
    println!(
        "  query_qp: {rep:?} state={} port={} access={:#x} pkey_index={}",
        got.qp_state, got.port_num, got.qp_access_flags, got.pkey_index
    );
    show("destroy_qp", &qp::destroy_qp(ctx, handle, false));
}

/// [`cqs_and_qps`]' UD QP: attached to a multicast group and detached, destroyed.
fn ud_qp_mcast(ctx: Ctx<'_>, handle: u32) {
    use ibverbs::cmd::{mcast, qp};
    let mgid = ibv_gid {
        raw: [0xff, 0x0e, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
    };
    show(
        "attach_mcast (UD)",
        &mcast::attach_mcast(ctx, handle, &mgid, 0),
    );
    show(
        "detach_mcast (UD)",
        &mcast::detach_mcast(ctx, handle, &mgid, 0, false),
    );
    show("destroy_qp (UD)", &qp::destroy_qp(ctx, handle, false));
}

/// [`objects`]' SRQ: created, queried, destroyed.
fn srq_objects(ctx: Ctx<'_>, pd_h: u32, async_fd: i32) {
    use ibverbs::abi::kern_abi::*;
    use ibverbs::cmd::srq;
    let s = srq::SrqInit {
        pd_handle: pd_h,
        max_wr: 16,
        max_sge: 1,
        user_handle: 0x3333,
        async_fd,
        ..Default::default()
    };
    let mut req = [0u8; size_of::<ibv_create_srq>()];
    let mut resp = [0u8; size_of::<ib_uverbs_create_srq_resp>() + 24];
    let sr = srq::create_srq(ctx, &s, &mut req, &mut resp);
    show("create_srq", &sr);
    if let Ok(sr) = sr {
        let mut req = [0u8; size_of::<ibv_query_srq>()];
        show("query_srq", &srq::query_srq(ctx, sr.handle, &mut req));
        show("destroy_srq", &srq::destroy_srq(ctx, sr.handle, false));
    }
}

/// Create, use and destroy one of each object with rxe's request/response sizes.
fn objects(ctx: Ctx<'_>, async_fd: i32) {
    use ibverbs::abi::kern_abi::*;
    use ibverbs::cmd::{ah, mr, pd};
    println!("objects (rxe udata sizes):");

    let (mut req, mut resp) = (
        [0u8; size_of::<ibv_alloc_pd>()],
        [0u8; size_of::<ib_uverbs_alloc_pd_resp>()],
    );
    let pd_h = pd::alloc_pd(ctx, &mut req, &mut resp);
    show("alloc_pd", &pd_h);
    let Ok(pd_h) = pd_h else { return };

    let buf = vec![0u8; 8192];
    let (mut req, mut resp) = (
        [0u8; size_of::<ibv_reg_mr>()],
        [0u8; size_of::<ib_uverbs_reg_mr_resp>()],
    );
    let addr = buf.as_ptr() as u64;
    let mr = mr::reg_mr(ctx, pd_h, addr, buf.len(), addr, 7, &mut req, &mut resp);
    show("reg_mr (local write, remote write/read)", &mr);

    cqs_and_qps(ctx, pd_h, async_fd);
    srq_objects(ctx, pd_h, async_fd);

    let mut gid = ibv_gid { raw: [0; 16] };
    gid.raw = sysfs_gid0();
    let mut ah = zero_ah();
    ah.is_global = 1;
    ah.port_num = 1;
    ah.grh.hop_limit = 1;
    ah.grh.dgid = gid;
    let mut resp = [0u8; size_of::<ib_uverbs_create_ah_resp>() + 8];
    let a = ah::create_ah(ctx, pd_h, 0x4444, &ah, &mut resp);
    show("create_ah (GRH to own GID 0)", &a);
    if let Ok(a) = a {
        show("destroy_ah", &ah::destroy_ah(ctx, a, false));
    }
    if let Ok(k) = mr {
        show("dereg_mr", &mr::dereg_mr(ctx, k.handle, false));
    }
    show("dealloc_pd", &pd::dealloc_pd(ctx, pd_h, false));
}

fn main() {
    let w = run("write() (ioctls marked unsupported)", true);
    let i = run("as a new context chooses", false);
    let diff: Vec<_> = w.iter().zip(&i).filter(|(a, b)| a != b).collect();
    if diff.is_empty() {
        println!("== write and ioctl paths agree on all {} lines", w.len());
    } else {
        for (a, b) in diff {
            println!("DIFF write: {a}\n     ioctl: {b}");
        }
    }
}
