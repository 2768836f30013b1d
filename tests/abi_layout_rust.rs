//! Layout check of `ibverbs::abi::{verbs, driver}` against the C layouts recorded in
//! `shared/abi/layouts-*.tsv`: `size_of` of every type and `offset_of!` of every member
//! (members of anonymous structs/unions included), plus coverage: each type of the header
//! scope lists below must have a Rust counterpart, and each TSV member row must be checked.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::mem::{offset_of, size_of};

#[path = "common/shared.rs"]
mod shared;

/// One type's layout as recorded in a TSV file.
#[derive(Default)]
struct CLayout {
    size: Option<usize>,
    /// member path (dotted inside anonymous types) -> (offset, C type)
    members: BTreeMap<String, (usize, String)>,
}

/// The bytes of `pthread_mutex_t` where ../shared/abi's layouts were measured (x86_64; ppc64el,
/// s390x and riscv64 agree). verbs.h's objects hold one, so every member after it moves on a
/// target whose mutex differs (aarch64: 48).
const FACTS_MUTEX: usize = 40;

/// The layouts of ../shared/abi's `file`, or None when the shared folder is missing or its
/// layouts are not this target's (it says which, once per file).
fn load(file: &str) -> Option<BTreeMap<String, CLayout>> {
    let mutex = size_of::<libc::pthread_mutex_t>();
    if mutex != FACTS_MUTEX {
        eprintln!(
            "skipped: {file} holds x86_64's layouts (pthread_mutex_t {FACTS_MUTEX} bytes, here {mutex}); \
             abi-tests' layouts group checks this target against its own rdma-core headers"
        );
        return None;
    }
    let path = shared::file(&format!("abi/{file}"))?;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let path = path.display();
    let mut out: BTreeMap<String, CLayout> = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 5, "{path}: bad row {line:?}");
        // "struct foo" / "union foo" -> "foo"
        let tag = cols[0].rsplit(' ').next().unwrap().to_string();
        let off: usize = cols[2].parse().unwrap();
        let size: usize = cols[3].parse().unwrap();
        let e = out.entry(tag).or_default();
        if cols[1].is_empty() {
            e.size = Some(size);
        } else if cols[1] != "<anon>" {
            e.members
                .insert(cols[1].to_string(), (off, cols[4].to_string()));
        }
    }
    Some(out)
}

/// The layout file of the newest provider ABI in ../shared/abi (`layouts-v<release>-pabi<N>.tsv`
/// with N = `pabi::NEWEST`, the newest release if there are several), or None (said once) when the
/// shared folder is missing.
fn newest_layout_file() -> Option<String> {
    let dir = shared::file("abi")?;
    let newest = ibverbs::abi::driver::pabi::NEWEST;
    let suffix = format!("-pabi{newest}.tsv");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("layouts-v") && n.ends_with(&suffix))
        .collect();
    files.sort_by_key(|n| {
        let release = &n["layouts-v".len()..n.len() - suffix.len()];
        release
            .split('.')
            .map(|p| p.parse::<u32>().unwrap_or(0))
            .collect::<Vec<_>>()
    });
    let file = files.pop();
    assert!(
        file.is_some(),
        "no layout file of provider ABI {newest} (the newest) in {}",
        dir.display()
    );
    file
}

/// What the Rust side says about one type.
struct RLayout {
    rust: &'static str,
    c: &'static str,
    size: usize,
    members: Vec<(&'static str, usize)>,
}

/// Rust field path -> C member path: drop `anon_N` hops and raw-identifier prefixes; an anonymous
/// member at the end of a named one's path is the TSV's `name.` (the unnamed union inside).
fn c_path(rust: &str) -> String {
    let is_anon = |s: &str| s.starts_with("anon_") && s[5..].chars().all(|c| c.is_ascii_digit());
    let segs: Vec<&str> = rust.split('.').map(str::trim).collect();
    let path = segs
        .iter()
        .filter(|s| !is_anon(s))
        .map(|s| s.trim_start_matches("r#"))
        .collect::<Vec<_>>()
        .join(".");
    if segs.len() > 1 && segs.last().is_some_and(|s| is_anon(s)) {
        format!("{path}.")
    } else {
        path
    }
}

macro_rules! c_name {
    ($ty:ident) => {
        stringify!($ty)
    };
    ($ty:ident, $c:literal) => {
        $c
    };
}

/// `Type { field, anon_1.field, named_anon.field, ... }`, or `Type = "c_tag" { ... }` when the
/// Rust name differs from the C tag.
macro_rules! layouts {
    ($($ty:ident $(= $c:literal)? { $($($f:ident).+),* $(,)? })*) => {
        vec![$(RLayout {
            rust: stringify!($ty),
            c: c_name!($ty $(, $c)?),
            size: size_of::<$ty>(),
            members: vec![$((stringify!($($f).+), offset_of!($ty, $($f).+))),*],
        }),*]
    };
}

/// C types that are opaque on the Rust side (libc types); their dotted rows are not checked.
const OPAQUE: &[&str] = &["pthread_mutex_t", "pthread_cond_t", "struct timespec"];

fn check(tsv: &str, scope: &[&str], rust: Vec<RLayout>) {
    let Some(c) = load(tsv) else { return };
    let mut errs = String::new();
    let by_c: BTreeMap<&str, &RLayout> = rust.iter().map(|r| (r.c, r)).collect();
    let missing: Vec<&str> = scope
        .iter()
        .copied()
        .filter(|n| !by_c.contains_key(n))
        .collect();
    if !missing.is_empty() {
        writeln!(
            errs,
            "no Rust counterpart for {} types: {missing:?}",
            missing.len()
        )
        .unwrap();
    }
    let mut members = 0;
    for r in &rust {
        if !scope.contains(&r.c) {
            writeln!(errs, "{}: not in the scope list", r.rust).unwrap();
        }
        let Some(cl) = c.get(r.c) else {
            writeln!(errs, "{}: C type {} not in {tsv}", r.rust, r.c).unwrap();
            continue;
        };
        if cl.size != Some(r.size) {
            writeln!(errs, "{}: size {} != C {:?}", r.rust, r.size, cl.size).unwrap();
        }
        let mut seen = BTreeSet::new();
        for &(path, off) in &r.members {
            let cp = c_path(path);
            match cl.members.get(&cp) {
                None => writeln!(errs, "{}.{path}: no C member {cp}", r.rust).unwrap(),
                Some(&(coff, _)) if coff != off => {
                    writeln!(errs, "{}.{path}: offset {off} != C {coff}", r.rust).unwrap()
                }
                _ => {}
            }
            seen.insert(cp);
        }
        members += r.members.len();
        let opaque: Vec<String> = cl
            .members
            .iter()
            .filter(|(_, (_, t))| OPAQUE.contains(&t.as_str()))
            .map(|(m, _)| format!("{m}."))
            .collect();
        for m in cl.members.keys() {
            if !seen.contains(m) && !opaque.iter().any(|o| m.starts_with(o.as_str())) {
                writeln!(errs, "{}: C member {m} not checked", r.rust).unwrap();
            }
        }
    }
    println!(
        "{tsv}: {} types, {members} members checked; scope {}",
        rust.len(),
        scope.len()
    );
    assert!(errs.is_empty(), "layout mismatches against {tsv}:\n{errs}");
}

/// Every struct and union defined in rdma-core v65's `libibverbs/verbs.h`.
#[rustfmt::skip]
const VERBS_H_V65: &[&str] = &[
    "ibv_gid", "ibv_gid_entry", "ibv_alloc_dm_attr", "ibv_dm", "ibv_device_attr",
    "ibv_query_device_ex_input", "ibv_odp_caps", "ibv_tso_caps", "ibv_rss_caps",
    "ibv_packet_pacing_caps", "ibv_tm_caps", "ibv_cq_moderation_caps", "ibv_pci_atomic_caps",
    "ibv_device_attr_ex", "ibv_port_attr", "ibv_async_event", "ibv_wc", "ibv_mw_bind_info",
    "ibv_dmah", "ibv_pd", "ibv_td_init_attr", "ibv_td", "ibv_xrcd_init_attr", "ibv_xrcd",
    "ibv_mr", "ibv_mr_init_attr", "ibv_mw", "ibv_global_route", "ibv_grh", "ibv_ah_attr",
    "ibv_srq_attr", "ibv_srq_init_attr", "ibv_tm_cap", "ibv_srq_init_attr_ex", "ibv_wq_init_attr",
    "ibv_wq_attr", "ibv_rwq_ind_table", "ibv_rwq_ind_table_init_attr", "ibv_qp_cap",
    "ibv_qp_init_attr", "ibv_rx_hash_conf", "ibv_qp_init_attr_ex", "ibv_qp_open_attr",
    "ibv_qp_attr", "ibv_qp_rate_limit_attr", "ibv_data_buf", "ibv_sge", "ibv_fd_arr",
    "ibv_send_wr", "ibv_recv_wr", "ibv_ops_wr", "ibv_mw_bind", "ibv_srq", "ibv_wq", "ibv_qp",
    "ibv_qp_ex", "ibv_ece", "ibv_comp_channel", "ibv_cq", "ibv_poll_cq_attr", "ibv_wc_tm_info",
    "ibv_cq_ex", "ibv_moderate_cq", "ibv_modify_cq_attr", "ibv_ah", "ibv_flow_eth_filter",
    "ibv_flow_spec_eth", "ibv_flow_ipv4_filter", "ibv_flow_spec_ipv4", "ibv_flow_ipv4_ext_filter",
    "ibv_flow_spec_ipv4_ext", "ibv_flow_ipv6_filter", "ibv_flow_spec_ipv6", "ibv_flow_esp_filter",
    "ibv_flow_spec_esp", "ibv_flow_tcp_udp_filter", "ibv_flow_spec_tcp_udp",
    "ibv_flow_gre_filter", "ibv_flow_spec_gre", "ibv_flow_mpls_filter", "ibv_flow_spec_mpls",
    "ibv_flow_tunnel_filter", "ibv_flow_spec_tunnel", "ibv_flow_spec_action_tag",
    "ibv_flow_spec_action_drop", "ibv_flow_spec_action_handle", "ibv_flow_spec_counter_action",
    "ibv_flow_spec", "ibv_flow_attr", "ibv_flow", "ibv_flow_action", "ibv_flow_action_esp_attr",
    "_ibv_device_ops", "ibv_device", "ibv_context_ops", "ibv_context", "ibv_cq_init_attr_ex",
    "ibv_comp_cntr_caps", "ibv_comp_cntr", "ibv_comp_cntr_init_attr",
    "ibv_qp_attach_comp_cntr_attr", "ibv_parent_domain_init_attr", "ibv_dmah_init_attr",
    "ibv_counters_init_attr", "ibv_counters", "ibv_counter_attach_attr", "ibv_values_ex",
    "verbs_context",
];

/// Every struct and union defined in rdma-core v44's `libibverbs/driver.h`, plus the two v44
/// verbs.h types whose provider ABI 34 layout differs from v65 (`verbs_context`, `ibv_qp_ex`),
/// which `driver` carries as PABI 34 views.
#[rustfmt::skip]
const DRIVER_H_V44: &[&str] = &[
    "ibv_qp_ex", "verbs_context", "verbs_xrcd", "verbs_srq", "verbs_mr", "verbs_qp", "verbs_cq",
    "verbs_flow_action", "verbs_dm", "verbs_match_ent", "verbs_sysfs_dev", "verbs_device_ops",
    "verbs_device", "verbs_counters",
];

#[test]
fn verbs_h_v65_layouts() {
    use ibverbs::abi::verbs::*;
    let rust = layouts! {
        ibv_gid { raw, global, global.subnet_prefix, global.interface_id }
        ibv_gid_entry { gid, gid_index, port_num, gid_type, ndev_ifindex }
        ibv_alloc_dm_attr { length, log_align_req, comp_mask }
        ibv_dm { context, memcpy_to_dm, memcpy_from_dm, comp_mask, handle }
        ibv_device_attr { fw_ver, node_guid, sys_image_guid, max_mr_size, page_size_cap,
            vendor_id, vendor_part_id, hw_ver, max_qp, max_qp_wr, device_cap_flags, max_sge,
            max_sge_rd, max_cq, max_cqe, max_mr, max_pd, max_qp_rd_atom, max_ee_rd_atom,
            max_res_rd_atom, max_qp_init_rd_atom, max_ee_init_rd_atom, atomic_cap, max_ee,
            max_rdd, max_mw, max_raw_ipv6_qp, max_raw_ethy_qp, max_mcast_grp,
            max_mcast_qp_attach, max_total_mcast_qp_attach, max_ah, max_fmr, max_map_per_fmr,
            max_srq, max_srq_wr, max_srq_sge, max_pkeys, local_ca_ack_delay, phys_port_cnt }
        ibv_query_device_ex_input { comp_mask }
        ibv_odp_caps { general_caps, per_transport_caps, per_transport_caps.rc_odp_caps,
            per_transport_caps.uc_odp_caps, per_transport_caps.ud_odp_caps }
        ibv_tso_caps { max_tso, supported_qpts }
        ibv_rss_caps { supported_qpts, max_rwq_indirection_tables,
            max_rwq_indirection_table_size, rx_hash_fields_mask, rx_hash_function }
        ibv_packet_pacing_caps { qp_rate_limit_min, qp_rate_limit_max, supported_qpts }
        ibv_tm_caps { max_rndv_hdr_size, max_num_tags, flags, max_ops, max_sge }
        ibv_cq_moderation_caps { max_cq_count, max_cq_period }
        ibv_pci_atomic_caps { fetch_add, swap, compare_swap }
        ibv_device_attr_ex { orig_attr, comp_mask, odp_caps, completion_timestamp_mask,
            hca_core_clock, device_cap_flags_ex, tso_caps, rss_caps, max_wq_type_rq,
            packet_pacing_caps, raw_packet_caps, tm_caps, cq_mod_caps, max_dm_size,
            pci_atomic_caps, xrc_odp_caps, phys_port_cnt_ex }
        ibv_port_attr { state, max_mtu, active_mtu, gid_tbl_len, port_cap_flags, max_msg_sz,
            bad_pkey_cntr, qkey_viol_cntr, pkey_tbl_len, lid, sm_lid, lmc, max_vl_num, sm_sl,
            subnet_timeout, init_type_reply, active_width, active_speed, phys_state, link_layer,
            flags, port_cap_flags2, active_speed_ex }
        ibv_async_event { element, element.cq, element.qp, element.srq, element.wq,
            element.port_num, event_type }
        ibv_wc { wr_id, status, opcode, vendor_err, byte_len, anon_1.imm_data,
            anon_1.invalidated_rkey, qp_num, src_qp, wc_flags, pkey_index, slid, sl,
            dlid_path_bits }
        ibv_mw_bind_info { mr, addr, length, mw_access_flags }
        ibv_dmah { context }
        ibv_pd { context, handle }
        ibv_td_init_attr { comp_mask }
        ibv_td { context }
        ibv_xrcd_init_attr { comp_mask, fd, oflags }
        ibv_xrcd { context }
        ibv_mr { context, pd, addr, length, handle, lkey, rkey }
        ibv_mr_init_attr { length, access, comp_mask, iova, addr, fd, fd_offset, dmah, buf }
        ibv_mw { context, pd, rkey, handle, r#type }
        ibv_global_route { dgid, flow_label, sgid_index, hop_limit, traffic_class }
        ibv_grh { version_tclass_flow, paylen, next_hdr, hop_limit, sgid, dgid }
        ibv_ah_attr { grh, dlid, sl, src_path_bits, static_rate, is_global, port_num }
        ibv_srq_attr { max_wr, max_sge, srq_limit }
        ibv_srq_init_attr { srq_context, attr }
        ibv_tm_cap { max_num_tags, max_ops }
        ibv_srq_init_attr_ex { srq_context, attr, comp_mask, srq_type, pd, xrcd, cq, tm_cap }
        ibv_wq_init_attr { wq_context, wq_type, max_wr, max_sge, pd, cq, comp_mask, create_flags }
        ibv_wq_attr { attr_mask, wq_state, curr_wq_state, flags, flags_mask }
        ibv_rwq_ind_table { context, ind_tbl_handle, ind_tbl_num, comp_mask }
        ibv_rwq_ind_table_init_attr { log_ind_tbl_size, ind_tbl, comp_mask }
        ibv_qp_cap { max_send_wr, max_recv_wr, max_send_sge, max_recv_sge, max_inline_data }
        ibv_qp_init_attr { qp_context, send_cq, recv_cq, srq, cap, qp_type, sq_sig_all }
        ibv_rx_hash_conf { rx_hash_function, rx_hash_key_len, rx_hash_key, rx_hash_fields_mask }
        ibv_qp_init_attr_ex { qp_context, send_cq, recv_cq, srq, cap, qp_type, sq_sig_all,
            comp_mask, pd, xrcd, create_flags, max_tso_header, rwq_ind_tbl, rx_hash_conf,
            source_qpn, send_ops_flags }
        ibv_qp_open_attr { comp_mask, qp_num, xrcd, qp_context, qp_type }
        ibv_qp_attr { qp_state, cur_qp_state, path_mtu, path_mig_state, qkey, rq_psn, sq_psn,
            dest_qp_num, qp_access_flags, cap, ah_attr, alt_ah_attr, pkey_index, alt_pkey_index,
            en_sqd_async_notify, sq_draining, max_rd_atomic, max_dest_rd_atomic, min_rnr_timer,
            port_num, timeout, retry_cnt, rnr_retry, alt_port_num, alt_timeout, rate_limit }
        ibv_qp_rate_limit_attr { rate_limit, max_burst_sz, typical_pkt_sz, comp_mask }
        ibv_data_buf { addr, length }
        ibv_sge { addr, length, lkey }
        ibv_fd_arr { arr, count }
        ibv_send_wr { wr_id, next, sg_list, num_sge, opcode, send_flags, anon_1.imm_data,
            anon_1.invalidate_rkey, wr, wr.rdma, wr.rdma.remote_addr, wr.rdma.rkey, wr.atomic,
            wr.atomic.remote_addr, wr.atomic.compare_add, wr.atomic.swap, wr.atomic.rkey, wr.ud,
            wr.ud.ah, wr.ud.remote_qpn, wr.ud.remote_qkey, qp_type, qp_type.xrc,
            qp_type.xrc.remote_srqn, anon_2.bind_mw, anon_2.bind_mw.mw, anon_2.bind_mw.rkey,
            anon_2.bind_mw.bind_info, anon_2.tso, anon_2.tso.hdr, anon_2.tso.hdr_sz,
            anon_2.tso.mss }
        ibv_recv_wr { wr_id, next, sg_list, num_sge }
        ibv_ops_wr { wr_id, next, opcode, flags, tm, tm.unexpected_cnt, tm.handle, tm.add,
            tm.add.recv_wr_id, tm.add.sg_list, tm.add.num_sge, tm.add.tag, tm.add.mask }
        ibv_mw_bind { wr_id, send_flags, bind_info }
        ibv_srq { context, srq_context, pd, handle, mutex, cond, events_completed }
        ibv_wq { context, wq_context, pd, cq, wq_num, handle, state, wq_type, post_recv, mutex,
            cond, events_completed, comp_mask }
        ibv_qp { context, qp_context, pd, send_cq, recv_cq, srq, handle, qp_num, state, qp_type,
            mutex, cond, events_completed }
        ibv_qp_ex { qp_base, comp_mask, wr_id, wr_flags, wr_atomic_cmp_swp, wr_atomic_fetch_add,
            wr_bind_mw, wr_local_inv, wr_rdma_read, wr_rdma_write, wr_rdma_write_imm, wr_send,
            wr_send_imm, wr_send_inv, wr_send_tso, wr_set_ud_addr, wr_set_xrc_srqn,
            wr_set_inline_data, wr_set_inline_data_list, wr_set_sge, wr_set_sge_list, wr_start,
            wr_complete, wr_abort, wr_atomic_write, wr_flush }
        ibv_ece { vendor_id, options, comp_mask }
        ibv_comp_channel { context, fd, refcnt }
        ibv_cq { context, channel, cq_context, handle, cqe, mutex, cond, comp_events_completed,
            async_events_completed }
        ibv_poll_cq_attr { comp_mask }
        ibv_wc_tm_info { tag, r#priv }
        ibv_cq_ex { context, channel, cq_context, handle, cqe, mutex, cond,
            comp_events_completed, async_events_completed, comp_mask, status, wr_id, start_poll,
            next_poll, end_poll, read_opcode, read_vendor_err, read_byte_len, read_imm_data,
            read_qp_num, read_src_qp, read_wc_flags, read_slid, read_sl, read_dlid_path_bits,
            read_completion_ts, read_cvlan, read_flow_tag, read_tm_info,
            read_completion_wallclock_ns }
        ibv_moderate_cq { cq_count, cq_period }
        ibv_modify_cq_attr { attr_mask, moderate }
        ibv_ah { context, pd, handle }
        ibv_flow_eth_filter { dst_mac, src_mac, ether_type, vlan_tag }
        ibv_flow_spec_eth { r#type, size, val, mask }
        ibv_flow_ipv4_filter { src_ip, dst_ip }
        ibv_flow_spec_ipv4 { r#type, size, val, mask }
        ibv_flow_ipv4_ext_filter { src_ip, dst_ip, proto, tos, ttl, flags }
        ibv_flow_spec_ipv4_ext { r#type, size, val, mask }
        ibv_flow_ipv6_filter { src_ip, dst_ip, flow_label, next_hdr, traffic_class, hop_limit }
        ibv_flow_spec_ipv6 { r#type, size, val, mask }
        ibv_flow_esp_filter { spi, seq }
        ibv_flow_spec_esp { r#type, size, val, mask }
        ibv_flow_tcp_udp_filter { dst_port, src_port }
        ibv_flow_spec_tcp_udp { r#type, size, val, mask }
        ibv_flow_gre_filter { c_ks_res0_ver, protocol, key }
        ibv_flow_spec_gre { r#type, size, val, mask }
        ibv_flow_mpls_filter { label }
        ibv_flow_spec_mpls { r#type, size, val, mask }
        ibv_flow_tunnel_filter { tunnel_id }
        ibv_flow_spec_tunnel { r#type, size, val, mask }
        ibv_flow_spec_action_tag { r#type, size, tag_id }
        ibv_flow_spec_action_drop { r#type, size }
        ibv_flow_spec_action_handle { r#type, size, action }
        ibv_flow_spec_counter_action { r#type, size, counters }
        ibv_flow_spec { anon_1.hdr, anon_1.hdr.r#type, anon_1.hdr.size, anon_1.eth, anon_1.ipv4,
            anon_1.tcp_udp, anon_1.ipv4_ext, anon_1.ipv6, anon_1.esp, anon_1.tunnel, anon_1.gre,
            anon_1.mpls, anon_1.flow_tag, anon_1.drop, anon_1.handle, anon_1.flow_count }
        ibv_flow_attr { comp_mask, r#type, size, priority, num_of_specs, port, flags }
        ibv_flow { comp_mask, context, handle }
        ibv_flow_action { context }
        ibv_flow_action_esp_attr { esp_attr, keymat_proto, keymat_len, keymat_ptr, replay_proto,
            replay_len, replay_ptr, esp_encap, comp_mask, esn }
        _ibv_device_ops { _dummy1, _dummy2 }
        ibv_device { _ops, node_type, transport_type, name, dev_name, dev_path, ibdev_path }
        ibv_context_ops { _compat_query_device, _compat_query_port, _compat_alloc_pd,
            _compat_dealloc_pd, _compat_reg_mr, _compat_rereg_mr, _compat_dereg_mr, alloc_mw,
            bind_mw, dealloc_mw, _compat_create_cq, poll_cq, req_notify_cq, _compat_cq_event,
            _compat_resize_cq, _compat_destroy_cq, _compat_create_srq, _compat_modify_srq,
            _compat_query_srq, _compat_destroy_srq, post_srq_recv, _compat_create_qp,
            _compat_query_qp, _compat_modify_qp, _compat_destroy_qp, post_send, post_recv,
            _compat_create_ah, _compat_destroy_ah, _compat_attach_mcast, _compat_detach_mcast,
            _compat_async_event }
        ibv_context { device, ops, cmd_fd, async_fd, num_comp_vectors, mutex, abi_compat }
        ibv_cq_init_attr_ex { cqe, cq_context, channel, comp_vector, wc_flags, comp_mask, flags,
            parent_domain }
        ibv_comp_cntr_caps { max_value, max_counters, supported_qp_attach_ops }
        ibv_comp_cntr { context, handle }
        ibv_comp_cntr_init_attr { comp_mask, r#type, flags }
        ibv_qp_attach_comp_cntr_attr { comp_mask, op_mask }
        ibv_parent_domain_init_attr { pd, td, comp_mask, alloc, free, pd_context }
        ibv_dmah_init_attr { comp_mask, cpu_id, ph, tph_mem_type }
        ibv_counters_init_attr { comp_mask }
        ibv_counters { context }
        ibv_counter_attach_attr { counter_desc, index, comp_mask }
        ibv_values_ex { comp_mask, raw_clock }
        verbs_context { free_buf, alloc_buf, dm_export_dmabuf_fd, reg_mr_ex, dealloc_dmah,
            alloc_dmah, query_port, advise_mr, alloc_null_mr, read_counters,
            attach_counters_point_flow, create_counters, destroy_counters, reg_dm_mr, alloc_dm,
            free_dm, modify_flow_action_esp, destroy_flow_action, create_flow_action_esp,
            modify_qp_rate_limit, alloc_parent_domain, dealloc_td, alloc_td, modify_cq,
            post_srq_ops, destroy_rwq_ind_table, create_rwq_ind_table, destroy_wq, modify_wq,
            create_wq, query_rt_values, create_cq_ex, r#priv, query_device_ex, ibv_destroy_flow,
            ABI_placeholder2, ibv_create_flow, ABI_placeholder1, open_qp, create_qp_ex,
            get_srq_num, create_srq_ex, open_xrcd, close_xrcd, _ABI_placeholder3, sz, context }
    };
    if let Some(file) = newest_layout_file() {
        check(&file, VERBS_H_V65, rust);
    }
}

#[test]
fn driver_h_v44_pabi34_layouts() {
    use ibverbs::abi::driver::*;
    let rust = layouts! {
        ibv_qp_ex_pabi34 = "ibv_qp_ex" { qp_base, comp_mask, wr_id, wr_flags, wr_atomic_cmp_swp,
            wr_atomic_fetch_add, wr_bind_mw, wr_local_inv, wr_rdma_read, wr_rdma_write,
            wr_rdma_write_imm, wr_send, wr_send_imm, wr_send_inv, wr_send_tso, wr_set_ud_addr,
            wr_set_xrc_srqn, wr_set_inline_data, wr_set_inline_data_list, wr_set_sge,
            wr_set_sge_list, wr_start, wr_complete, wr_abort, wr_atomic_write }
        verbs_context_pabi34 = "verbs_context" { query_port, advise_mr, alloc_null_mr, read_counters,
            attach_counters_point_flow, create_counters, destroy_counters, reg_dm_mr, alloc_dm,
            free_dm, modify_flow_action_esp, destroy_flow_action, create_flow_action_esp,
            modify_qp_rate_limit, alloc_parent_domain, dealloc_td, alloc_td, modify_cq,
            post_srq_ops, destroy_rwq_ind_table, create_rwq_ind_table, destroy_wq, modify_wq,
            create_wq, query_rt_values, create_cq_ex, r#priv, query_device_ex, ibv_destroy_flow,
            ABI_placeholder2, ibv_create_flow, ABI_placeholder1, open_qp, create_qp_ex,
            get_srq_num, create_srq_ex, open_xrcd, close_xrcd, _ABI_placeholder3, sz, context }
        verbs_xrcd { xrcd, comp_mask, handle }
        verbs_srq { srq, srq_type, xrcd, cq, srq_num }
        verbs_mr { ibv_mr, mr_type, access }
        verbs_qp { anon_1.qp, anon_1.qp_ex, comp_mask, xrcd }
        verbs_cq { anon_1.cq, anon_1.cq_ex }
        verbs_flow_action { action, handle, r#type }
        verbs_dm { dm, handle }
        verbs_match_ent { driver_data, u, u.modalias, u.driver_id, vendor, device, kind }
        verbs_sysfs_dev { entry, provider_data, r#match, flags, sysfs_name, sysfs_cdev,
            ibdev_name, ibdev_path, modalias, node_guid, driver_id, node_type, ibdev_idx,
            num_ports, abi_ver, time_created }
        verbs_device_ops { name, match_min_abi_version, match_max_abi_version, match_table,
            static_providers, match_device, alloc_context, import_context, alloc_device,
            uninit_device }
        verbs_device { device, ops, refcount, entry, sysfs, core_support }
        verbs_counters { counters, handle }
    };
    check("layouts-v44.0-pabi34.tsv", DRIVER_H_V44, rust);
}

/// The `driver.h` types of provider ABIs after 34, in the newest provider ABI's layout file:
/// `verbs_context_ops` in the newest layout (each ABI's own table is derived from it by
/// `pabi::OPS_ADDED`: src/verbs/ops/tests.rs checks those against every layout file) and the DMA
/// handle wrapper.
const DRIVER_H_NEWEST_ONLY: &[&str] = &[
    "verbs_dmah",
    "verbs_context_ops",
    "verbs_create_cq_prov_attr",
];

#[test]
fn driver_h_newest_pabi_layouts() {
    use ibverbs::abi::driver::*;
    let mut rust = layouts! {
        verbs_dmah { dmah, handle }
        verbs_create_cq_prov_attr { buffer, buffer.length, buffer.anon_1, buffer.anon_1.ptr,
            buffer.anon_1.dmabuf,
            buffer.anon_1.dmabuf.offset, buffer.anon_1.dmabuf.fd }
    };
    // verbs_context_ops: its members as src/abi/driver/ops.rs declares them (every one an
    // `Option` of a function pointer in a #[repr(C)] struct, so member i sits at i pointers; the
    // struct's size is checked against the C one), each with the `pabi: N` mark ops.rs gives the
    // members a later provider ABI added (for the header generator).
    let src = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/abi/driver/ops.rs"
    ))
    .unwrap();
    let body = src
        .split_once("pub struct verbs_context_ops {")
        .expect("ops.rs declares verbs_context_ops")
        .1;
    let mut members: Vec<(&'static str, usize)> = Vec::new();
    let mut marked = BTreeSet::new();
    let mut mark = None;
    for line in body.lines().map(str::trim).take_while(|l| *l != "}") {
        if let Some(n) = line.strip_prefix("/// pabi: ") {
            mark = n
                .split_whitespace()
                .next()
                .map(|n| n.parse::<u32>().unwrap());
        } else if let Some(field) = line.strip_prefix("pub ") {
            let name: &'static str = Box::leak(field.split(':').next().unwrap().trim().into());
            let off = members.len() * size_of::<usize>();
            if let Some(n) = mark.take() {
                marked.insert((n, off));
            }
            members.push((name, off));
        }
    }
    assert_eq!(
        members.len() * size_of::<usize>(),
        size_of::<verbs_context_ops>(),
        "a member of verbs_context_ops in ops.rs not read as one `pub name:` line"
    );
    rust.push(RLayout {
        rust: "verbs_context_ops",
        c: "verbs_context_ops",
        size: size_of::<verbs_context_ops>(),
        members,
    });
    // The ops each ABI added, as `pabi::OPS_ADDED` has them, are the members ops.rs marks.
    let added: BTreeSet<(u32, usize)> = ibverbs::abi::driver::pabi::OPS_ADDED
        .iter()
        .flat_map(|(n, offs)| offs.iter().map(move |o| (*n, *o)))
        .collect();
    assert_eq!(marked, added, "ops.rs's `pabi: N` marks vs pabi::OPS_ADDED");
    if let Some(file) = newest_layout_file() {
        check(&file, DRIVER_H_NEWEST_ONLY, rust);
    }
}
