//! Layout checks of `abi::uapi` against `layouts-v65.0-pabi65.tsv` and of `abi::kern_abi`
//! against `layouts-v44.0-pabi34.tsv`: sizeof of every type, and offset and size of every member
//! the TSV lists (anonymous members by their `anon_N` field, flattened members by their path
//! through it, bitfields by their storage field). Each scope list is explicit; a scope type
//! without a Rust counterpart, or a TSV member without a Rust path here, fails the test.

use core::mem::{MaybeUninit, offset_of, size_of};
use std::collections::HashMap;

#[path = "common/shared.rs"]
mod shared;

use ibverbs::abi::{kern_abi, uapi};

struct Field {
    c: &'static str,
    off: usize,
    size: usize,
}

struct Ty {
    c: &'static str,
    size: usize,
    fields: Vec<Field>,
}

fn pointee_size<F>(_: *const F) -> usize {
    size_of::<F>()
}

macro_rules! ty {
    ($t:ty, $c:literal { $($cm:literal => $($p:ident).+;)* }) => {
        Ty {
            c: $c,
            size: size_of::<$t>(),
            fields: vec![$(Field {
                c: $cm,
                off: offset_of!($t, $($p).+),
                size: {
                    let u = MaybeUninit::<$t>::uninit();
                    // SAFETY: only the address of the member is taken, nothing is read.
                    pointee_size(unsafe { &raw const (*u.as_ptr()).$($p).+ })
                },
            }),*],
        }
    };
}

/// type -> (sizeof, [(member key, offset, size)]); `<anon>` members are keyed `<anon>#N` in order.
type Layouts = HashMap<String, (usize, Vec<(String, usize, usize)>)>;

/// The layouts of ../shared/abi's `file`, or None when the shared folder is missing.
fn load(file: &str) -> Option<Layouts> {
    let path = shared::file(&format!("abi/{file}"))?;
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let mut map: Layouts = HashMap::new();
    let mut anon: HashMap<String, usize> = HashMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let col: Vec<&str> = line.split('\t').collect();
        let (t, m, off, size) = (
            col[0],
            col[1],
            col[2].parse().unwrap(),
            col[3].parse().unwrap(),
        );
        let e = map.entry(t.to_string()).or_default();
        if m.is_empty() {
            e.0 = size;
        } else if m == "<anon>" {
            let n = anon.entry(t.to_string()).or_default();
            *n += 1;
            e.1.push((format!("<anon>#{n}"), off, size));
        } else {
            e.1.push((m.to_string(), off, size));
        }
    }
    Some(map)
}

fn check(file: &str, scope: &[&str], tys: &[Ty], errs: &mut Vec<String>) {
    let Some(tsv) = load(file) else { return };
    let by_name: HashMap<&str, &Ty> = tys.iter().map(|t| (t.c, t)).collect();
    for name in scope {
        let c = format!("struct {name}");
        if !tsv.contains_key(&c) {
            errs.push(format!("{file}: scope type `{c}` is not in the TSV"));
        }
        if !by_name.contains_key(c.as_str()) {
            errs.push(format!("{file}: `{c}` has no Rust counterpart"));
        }
    }
    for ty in tys {
        let Some((size, rows)) = tsv.get(ty.c) else {
            errs.push(format!("{file}: `{}` is not in the TSV", ty.c));
            continue;
        };
        if ty.size != *size {
            errs.push(format!(
                "{file}: sizeof({}) = {}, Rust has {}",
                ty.c, size, ty.size
            ));
        }
        let fields: HashMap<&str, &Field> = ty.fields.iter().map(|f| (f.c, f)).collect();
        for (m, off, sz) in rows {
            match fields.get(m.as_str()) {
                None => errs.push(format!(
                    "{file}: {}.{m} has no Rust path in this test",
                    ty.c
                )),
                Some(f) if f.off != *off || f.size != *sz => errs.push(format!(
                    "{file}: {}.{m} at {off} size {sz}, Rust has {} size {}",
                    ty.c, f.off, f.size
                )),
                Some(_) => {}
            }
        }
        for f in &ty.fields {
            if !rows.iter().any(|r| r.0 == f.c) {
                errs.push(format!("{file}: {}.{} is not in the TSV", ty.c, f.c));
            }
        }
    }
}

fn report(errs: Vec<String>) {
    if !errs.is_empty() {
        panic!("{} layout mismatches:\n{}", errs.len(), errs.join("\n"));
    }
}

const UAPI_SCOPE: &[&str] = &[
    "ib_uverbs_async_event_desc",
    "ib_uverbs_comp_event_desc",
    "ib_uverbs_cq_moderation_caps",
    "ib_uverbs_cmd_hdr",
    "ib_uverbs_ex_cmd_hdr",
    "ib_uverbs_get_context",
    "ib_uverbs_get_context_resp",
    "ib_uverbs_query_device",
    "ib_uverbs_query_device_resp",
    "ib_uverbs_ex_query_device",
    "ib_uverbs_odp_caps",
    "ib_uverbs_rss_caps",
    "ib_uverbs_tm_caps",
    "ib_uverbs_ex_query_device_resp",
    "ib_uverbs_query_port",
    "ib_uverbs_query_port_resp",
    "ib_uverbs_alloc_pd",
    "ib_uverbs_alloc_pd_resp",
    "ib_uverbs_dealloc_pd",
    "ib_uverbs_open_xrcd",
    "ib_uverbs_open_xrcd_resp",
    "ib_uverbs_close_xrcd",
    "ib_uverbs_reg_mr",
    "ib_uverbs_reg_mr_resp",
    "ib_uverbs_rereg_mr",
    "ib_uverbs_rereg_mr_resp",
    "ib_uverbs_dereg_mr",
    "ib_uverbs_alloc_mw",
    "ib_uverbs_alloc_mw_resp",
    "ib_uverbs_dealloc_mw",
    "ib_uverbs_create_comp_channel",
    "ib_uverbs_create_comp_channel_resp",
    "ib_uverbs_create_cq",
    "ib_uverbs_ex_create_cq",
    "ib_uverbs_create_cq_resp",
    "ib_uverbs_ex_create_cq_resp",
    "ib_uverbs_resize_cq",
    "ib_uverbs_resize_cq_resp",
    "ib_uverbs_poll_cq",
    "ib_uverbs_wc",
    "ib_uverbs_poll_cq_resp",
    "ib_uverbs_req_notify_cq",
    "ib_uverbs_destroy_cq",
    "ib_uverbs_destroy_cq_resp",
    "ib_uverbs_global_route",
    "ib_uverbs_ah_attr",
    "ib_uverbs_qp_attr",
    "ib_uverbs_create_qp",
    "ib_uverbs_ex_create_qp",
    "ib_uverbs_open_qp",
    "ib_uverbs_create_qp_resp",
    "ib_uverbs_ex_create_qp_resp",
    "ib_uverbs_qp_dest",
    "ib_uverbs_query_qp",
    "ib_uverbs_query_qp_resp",
    "ib_uverbs_modify_qp",
    "ib_uverbs_ex_modify_qp",
    "ib_uverbs_ex_modify_qp_resp",
    "ib_uverbs_destroy_qp",
    "ib_uverbs_destroy_qp_resp",
    "ib_uverbs_sge",
    "ib_uverbs_send_wr",
    "ib_uverbs_post_send",
    "ib_uverbs_post_send_resp",
    "ib_uverbs_recv_wr",
    "ib_uverbs_post_recv",
    "ib_uverbs_post_recv_resp",
    "ib_uverbs_post_srq_recv",
    "ib_uverbs_post_srq_recv_resp",
    "ib_uverbs_create_ah",
    "ib_uverbs_create_ah_resp",
    "ib_uverbs_destroy_ah",
    "ib_uverbs_attach_mcast",
    "ib_uverbs_detach_mcast",
    "ib_uverbs_flow_spec_hdr",
    "ib_uverbs_flow_eth_filter",
    "ib_uverbs_flow_spec_eth",
    "ib_uverbs_flow_ipv4_filter",
    "ib_uverbs_flow_spec_ipv4",
    "ib_uverbs_flow_tcp_udp_filter",
    "ib_uverbs_flow_spec_tcp_udp",
    "ib_uverbs_flow_ipv6_filter",
    "ib_uverbs_flow_spec_ipv6",
    "ib_uverbs_flow_spec_action_tag",
    "ib_uverbs_flow_spec_action_drop",
    "ib_uverbs_flow_spec_action_handle",
    "ib_uverbs_flow_spec_action_count",
    "ib_uverbs_flow_tunnel_filter",
    "ib_uverbs_flow_spec_tunnel",
    "ib_uverbs_flow_spec_esp_filter",
    "ib_uverbs_flow_spec_esp",
    "ib_uverbs_flow_gre_filter",
    "ib_uverbs_flow_spec_gre",
    "ib_uverbs_flow_mpls_filter",
    "ib_uverbs_flow_spec_mpls",
    "ib_uverbs_flow_attr",
    "ib_uverbs_create_flow",
    "ib_uverbs_create_flow_resp",
    "ib_uverbs_destroy_flow",
    "ib_uverbs_create_srq",
    "ib_uverbs_create_xsrq",
    "ib_uverbs_create_srq_resp",
    "ib_uverbs_modify_srq",
    "ib_uverbs_query_srq",
    "ib_uverbs_query_srq_resp",
    "ib_uverbs_destroy_srq",
    "ib_uverbs_destroy_srq_resp",
    "ib_uverbs_ex_create_wq",
    "ib_uverbs_ex_create_wq_resp",
    "ib_uverbs_ex_destroy_wq",
    "ib_uverbs_ex_destroy_wq_resp",
    "ib_uverbs_ex_modify_wq",
    "ib_uverbs_ex_create_rwq_ind_table",
    "ib_uverbs_ex_create_rwq_ind_table_resp",
    "ib_uverbs_ex_destroy_rwq_ind_table",
    "ib_uverbs_cq_moderation",
    "ib_uverbs_ex_modify_cq",
    "ib_uverbs_clock_info",
    "ib_uverbs_flow_action_esp_keymat_aes_gcm",
    "ib_uverbs_flow_action_esp_replay_bmp",
    "ib_uverbs_flow_action_esp_encap",
    "ib_uverbs_flow_action_esp",
    "ib_uverbs_query_port_resp_ex",
    "ib_uverbs_qp_cap",
    "ib_uverbs_gid_entry",
    "ib_uverbs_buffer_desc",
    "ib_uverbs_attr",
    "ib_uverbs_ioctl_hdr",
];

fn uapi_types() -> Vec<Ty> {
    vec![
        ty!(uapi::ib_uverbs_async_event_desc, "struct ib_uverbs_async_event_desc" {
            "element" => element;
            "event_type" => event_type;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_comp_event_desc, "struct ib_uverbs_comp_event_desc" {
            "cq_handle" => cq_handle;
        }),
        ty!(uapi::ib_uverbs_cq_moderation_caps, "struct ib_uverbs_cq_moderation_caps" {
            "max_cq_moderation_count" => max_cq_moderation_count;
            "max_cq_moderation_period" => max_cq_moderation_period;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_cmd_hdr, "struct ib_uverbs_cmd_hdr" {
            "command" => command;
            "in_words" => in_words;
            "out_words" => out_words;
        }),
        ty!(uapi::ib_uverbs_ex_cmd_hdr, "struct ib_uverbs_ex_cmd_hdr" {
            "response" => response;
            "provider_in_words" => provider_in_words;
            "provider_out_words" => provider_out_words;
            "cmd_hdr_reserved" => cmd_hdr_reserved;
        }),
        ty!(uapi::ib_uverbs_get_context, "struct ib_uverbs_get_context" {
            "response" => response;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_get_context_resp, "struct ib_uverbs_get_context_resp" {
            "async_fd" => async_fd;
            "num_comp_vectors" => num_comp_vectors;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_query_device, "struct ib_uverbs_query_device" {
            "response" => response;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_query_device_resp, "struct ib_uverbs_query_device_resp" {
            "fw_ver" => fw_ver;
            "node_guid" => node_guid;
            "sys_image_guid" => sys_image_guid;
            "max_mr_size" => max_mr_size;
            "page_size_cap" => page_size_cap;
            "vendor_id" => vendor_id;
            "vendor_part_id" => vendor_part_id;
            "hw_ver" => hw_ver;
            "max_qp" => max_qp;
            "max_qp_wr" => max_qp_wr;
            "device_cap_flags" => device_cap_flags;
            "max_sge" => max_sge;
            "max_sge_rd" => max_sge_rd;
            "max_cq" => max_cq;
            "max_cqe" => max_cqe;
            "max_mr" => max_mr;
            "max_pd" => max_pd;
            "max_qp_rd_atom" => max_qp_rd_atom;
            "max_ee_rd_atom" => max_ee_rd_atom;
            "max_res_rd_atom" => max_res_rd_atom;
            "max_qp_init_rd_atom" => max_qp_init_rd_atom;
            "max_ee_init_rd_atom" => max_ee_init_rd_atom;
            "atomic_cap" => atomic_cap;
            "max_ee" => max_ee;
            "max_rdd" => max_rdd;
            "max_mw" => max_mw;
            "max_raw_ipv6_qp" => max_raw_ipv6_qp;
            "max_raw_ethy_qp" => max_raw_ethy_qp;
            "max_mcast_grp" => max_mcast_grp;
            "max_mcast_qp_attach" => max_mcast_qp_attach;
            "max_total_mcast_qp_attach" => max_total_mcast_qp_attach;
            "max_ah" => max_ah;
            "max_fmr" => max_fmr;
            "max_map_per_fmr" => max_map_per_fmr;
            "max_srq" => max_srq;
            "max_srq_wr" => max_srq_wr;
            "max_srq_sge" => max_srq_sge;
            "max_pkeys" => max_pkeys;
            "local_ca_ack_delay" => local_ca_ack_delay;
            "phys_port_cnt" => phys_port_cnt;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_ex_query_device, "struct ib_uverbs_ex_query_device" {
            "comp_mask" => comp_mask;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_odp_caps, "struct ib_uverbs_odp_caps" {
            "general_caps" => general_caps;
            "per_transport_caps" => per_transport_caps;
            "per_transport_caps.rc_odp_caps" => per_transport_caps.rc_odp_caps;
            "per_transport_caps.uc_odp_caps" => per_transport_caps.uc_odp_caps;
            "per_transport_caps.ud_odp_caps" => per_transport_caps.ud_odp_caps;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_rss_caps, "struct ib_uverbs_rss_caps" {
            "supported_qpts" => supported_qpts;
            "max_rwq_indirection_tables" => max_rwq_indirection_tables;
            "max_rwq_indirection_table_size" => max_rwq_indirection_table_size;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_tm_caps, "struct ib_uverbs_tm_caps" {
            "max_rndv_hdr_size" => max_rndv_hdr_size;
            "max_num_tags" => max_num_tags;
            "flags" => flags;
            "max_ops" => max_ops;
            "max_sge" => max_sge;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_ex_query_device_resp, "struct ib_uverbs_ex_query_device_resp" {
            "base" => base;
            "comp_mask" => comp_mask;
            "response_length" => response_length;
            "odp_caps" => odp_caps;
            "timestamp_mask" => timestamp_mask;
            "hca_core_clock" => hca_core_clock;
            "device_cap_flags_ex" => device_cap_flags_ex;
            "rss_caps" => rss_caps;
            "max_wq_type_rq" => max_wq_type_rq;
            "raw_packet_caps" => raw_packet_caps;
            "tm_caps" => tm_caps;
            "cq_moderation_caps" => cq_moderation_caps;
            "max_dm_size" => max_dm_size;
            "xrc_odp_caps" => xrc_odp_caps;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_query_port, "struct ib_uverbs_query_port" {
            "response" => response;
            "port_num" => port_num;
            "reserved" => reserved;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_query_port_resp, "struct ib_uverbs_query_port_resp" {
            "port_cap_flags" => port_cap_flags;
            "max_msg_sz" => max_msg_sz;
            "bad_pkey_cntr" => bad_pkey_cntr;
            "qkey_viol_cntr" => qkey_viol_cntr;
            "gid_tbl_len" => gid_tbl_len;
            "pkey_tbl_len" => pkey_tbl_len;
            "lid" => lid;
            "sm_lid" => sm_lid;
            "state" => state;
            "max_mtu" => max_mtu;
            "active_mtu" => active_mtu;
            "lmc" => lmc;
            "max_vl_num" => max_vl_num;
            "sm_sl" => sm_sl;
            "subnet_timeout" => subnet_timeout;
            "init_type_reply" => init_type_reply;
            "active_width" => active_width;
            "active_speed" => active_speed;
            "phys_state" => phys_state;
            "link_layer" => link_layer;
            "flags" => flags;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_alloc_pd, "struct ib_uverbs_alloc_pd" {
            "response" => response;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_alloc_pd_resp, "struct ib_uverbs_alloc_pd_resp" {
            "pd_handle" => pd_handle;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_dealloc_pd, "struct ib_uverbs_dealloc_pd" {
            "pd_handle" => pd_handle;
        }),
        ty!(uapi::ib_uverbs_open_xrcd, "struct ib_uverbs_open_xrcd" {
            "response" => response;
            "fd" => fd;
            "oflags" => oflags;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_open_xrcd_resp, "struct ib_uverbs_open_xrcd_resp" {
            "xrcd_handle" => xrcd_handle;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_close_xrcd, "struct ib_uverbs_close_xrcd" {
            "xrcd_handle" => xrcd_handle;
        }),
        ty!(uapi::ib_uverbs_reg_mr, "struct ib_uverbs_reg_mr" {
            "response" => response;
            "start" => start;
            "length" => length;
            "hca_va" => hca_va;
            "pd_handle" => pd_handle;
            "access_flags" => access_flags;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_reg_mr_resp, "struct ib_uverbs_reg_mr_resp" {
            "mr_handle" => mr_handle;
            "lkey" => lkey;
            "rkey" => rkey;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_rereg_mr, "struct ib_uverbs_rereg_mr" {
            "response" => response;
            "mr_handle" => mr_handle;
            "flags" => flags;
            "start" => start;
            "length" => length;
            "hca_va" => hca_va;
            "pd_handle" => pd_handle;
            "access_flags" => access_flags;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_rereg_mr_resp, "struct ib_uverbs_rereg_mr_resp" {
            "lkey" => lkey;
            "rkey" => rkey;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_dereg_mr, "struct ib_uverbs_dereg_mr" {
            "mr_handle" => mr_handle;
        }),
        ty!(uapi::ib_uverbs_alloc_mw, "struct ib_uverbs_alloc_mw" {
            "response" => response;
            "pd_handle" => pd_handle;
            "mw_type" => mw_type;
            "reserved" => reserved;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_alloc_mw_resp, "struct ib_uverbs_alloc_mw_resp" {
            "mw_handle" => mw_handle;
            "rkey" => rkey;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_dealloc_mw, "struct ib_uverbs_dealloc_mw" {
            "mw_handle" => mw_handle;
        }),
        ty!(uapi::ib_uverbs_create_comp_channel, "struct ib_uverbs_create_comp_channel" {
            "response" => response;
        }),
        ty!(uapi::ib_uverbs_create_comp_channel_resp, "struct ib_uverbs_create_comp_channel_resp" {
            "fd" => fd;
        }),
        ty!(uapi::ib_uverbs_create_cq, "struct ib_uverbs_create_cq" {
            "response" => response;
            "user_handle" => user_handle;
            "cqe" => cqe;
            "comp_vector" => comp_vector;
            "comp_channel" => comp_channel;
            "reserved" => reserved;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_ex_create_cq, "struct ib_uverbs_ex_create_cq" {
            "user_handle" => user_handle;
            "cqe" => cqe;
            "comp_vector" => comp_vector;
            "comp_channel" => comp_channel;
            "comp_mask" => comp_mask;
            "flags" => flags;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_create_cq_resp, "struct ib_uverbs_create_cq_resp" {
            "cq_handle" => cq_handle;
            "cqe" => cqe;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_ex_create_cq_resp, "struct ib_uverbs_ex_create_cq_resp" {
            "base" => base;
            "comp_mask" => comp_mask;
            "response_length" => response_length;
        }),
        ty!(uapi::ib_uverbs_resize_cq, "struct ib_uverbs_resize_cq" {
            "response" => response;
            "cq_handle" => cq_handle;
            "cqe" => cqe;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_resize_cq_resp, "struct ib_uverbs_resize_cq_resp" {
            "cqe" => cqe;
            "reserved" => reserved;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_poll_cq, "struct ib_uverbs_poll_cq" {
            "response" => response;
            "cq_handle" => cq_handle;
            "ne" => ne;
        }),
        ty!(uapi::ib_uverbs_wc, "struct ib_uverbs_wc" {
            "wr_id" => wr_id;
            "status" => status;
            "opcode" => opcode;
            "vendor_err" => vendor_err;
            "byte_len" => byte_len;
            "ex" => ex;
            "ex.imm_data" => ex.imm_data;
            "ex.invalidate_rkey" => ex.invalidate_rkey;
            "qp_num" => qp_num;
            "src_qp" => src_qp;
            "wc_flags" => wc_flags;
            "pkey_index" => pkey_index;
            "slid" => slid;
            "sl" => sl;
            "dlid_path_bits" => dlid_path_bits;
            "port_num" => port_num;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_poll_cq_resp, "struct ib_uverbs_poll_cq_resp" {
            "count" => count;
            "reserved" => reserved;
            "wc" => wc;
        }),
        ty!(uapi::ib_uverbs_req_notify_cq, "struct ib_uverbs_req_notify_cq" {
            "cq_handle" => cq_handle;
            "solicited_only" => solicited_only;
        }),
        ty!(uapi::ib_uverbs_destroy_cq, "struct ib_uverbs_destroy_cq" {
            "response" => response;
            "cq_handle" => cq_handle;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_destroy_cq_resp, "struct ib_uverbs_destroy_cq_resp" {
            "comp_events_reported" => comp_events_reported;
            "async_events_reported" => async_events_reported;
        }),
        ty!(uapi::ib_uverbs_global_route, "struct ib_uverbs_global_route" {
            "dgid" => dgid;
            "flow_label" => flow_label;
            "sgid_index" => sgid_index;
            "hop_limit" => hop_limit;
            "traffic_class" => traffic_class;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_ah_attr, "struct ib_uverbs_ah_attr" {
            "grh" => grh;
            "dlid" => dlid;
            "sl" => sl;
            "src_path_bits" => src_path_bits;
            "static_rate" => static_rate;
            "is_global" => is_global;
            "port_num" => port_num;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_qp_attr, "struct ib_uverbs_qp_attr" {
            "qp_attr_mask" => qp_attr_mask;
            "qp_state" => qp_state;
            "cur_qp_state" => cur_qp_state;
            "path_mtu" => path_mtu;
            "path_mig_state" => path_mig_state;
            "qkey" => qkey;
            "rq_psn" => rq_psn;
            "sq_psn" => sq_psn;
            "dest_qp_num" => dest_qp_num;
            "qp_access_flags" => qp_access_flags;
            "ah_attr" => ah_attr;
            "alt_ah_attr" => alt_ah_attr;
            "max_send_wr" => max_send_wr;
            "max_recv_wr" => max_recv_wr;
            "max_send_sge" => max_send_sge;
            "max_recv_sge" => max_recv_sge;
            "max_inline_data" => max_inline_data;
            "pkey_index" => pkey_index;
            "alt_pkey_index" => alt_pkey_index;
            "en_sqd_async_notify" => en_sqd_async_notify;
            "sq_draining" => sq_draining;
            "max_rd_atomic" => max_rd_atomic;
            "max_dest_rd_atomic" => max_dest_rd_atomic;
            "min_rnr_timer" => min_rnr_timer;
            "port_num" => port_num;
            "timeout" => timeout;
            "retry_cnt" => retry_cnt;
            "rnr_retry" => rnr_retry;
            "alt_port_num" => alt_port_num;
            "alt_timeout" => alt_timeout;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_create_qp, "struct ib_uverbs_create_qp" {
            "response" => response;
            "user_handle" => user_handle;
            "pd_handle" => pd_handle;
            "send_cq_handle" => send_cq_handle;
            "recv_cq_handle" => recv_cq_handle;
            "srq_handle" => srq_handle;
            "max_send_wr" => max_send_wr;
            "max_recv_wr" => max_recv_wr;
            "max_send_sge" => max_send_sge;
            "max_recv_sge" => max_recv_sge;
            "max_inline_data" => max_inline_data;
            "sq_sig_all" => sq_sig_all;
            "qp_type" => qp_type;
            "is_srq" => is_srq;
            "reserved" => reserved;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_ex_create_qp, "struct ib_uverbs_ex_create_qp" {
            "user_handle" => user_handle;
            "pd_handle" => pd_handle;
            "send_cq_handle" => send_cq_handle;
            "recv_cq_handle" => recv_cq_handle;
            "srq_handle" => srq_handle;
            "max_send_wr" => max_send_wr;
            "max_recv_wr" => max_recv_wr;
            "max_send_sge" => max_send_sge;
            "max_recv_sge" => max_recv_sge;
            "max_inline_data" => max_inline_data;
            "sq_sig_all" => sq_sig_all;
            "qp_type" => qp_type;
            "is_srq" => is_srq;
            "reserved" => reserved;
            "comp_mask" => comp_mask;
            "create_flags" => create_flags;
            "rwq_ind_tbl_handle" => rwq_ind_tbl_handle;
            "source_qpn" => source_qpn;
        }),
        ty!(uapi::ib_uverbs_open_qp, "struct ib_uverbs_open_qp" {
            "response" => response;
            "user_handle" => user_handle;
            "pd_handle" => pd_handle;
            "qpn" => qpn;
            "qp_type" => qp_type;
            "reserved" => reserved;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_create_qp_resp, "struct ib_uverbs_create_qp_resp" {
            "qp_handle" => qp_handle;
            "qpn" => qpn;
            "max_send_wr" => max_send_wr;
            "max_recv_wr" => max_recv_wr;
            "max_send_sge" => max_send_sge;
            "max_recv_sge" => max_recv_sge;
            "max_inline_data" => max_inline_data;
            "reserved" => reserved;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_ex_create_qp_resp, "struct ib_uverbs_ex_create_qp_resp" {
            "base" => base;
            "comp_mask" => comp_mask;
            "response_length" => response_length;
        }),
        ty!(uapi::ib_uverbs_qp_dest, "struct ib_uverbs_qp_dest" {
            "dgid" => dgid;
            "flow_label" => flow_label;
            "dlid" => dlid;
            "reserved" => reserved;
            "sgid_index" => sgid_index;
            "hop_limit" => hop_limit;
            "traffic_class" => traffic_class;
            "sl" => sl;
            "src_path_bits" => src_path_bits;
            "static_rate" => static_rate;
            "is_global" => is_global;
            "port_num" => port_num;
        }),
        ty!(uapi::ib_uverbs_query_qp, "struct ib_uverbs_query_qp" {
            "response" => response;
            "qp_handle" => qp_handle;
            "attr_mask" => attr_mask;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_query_qp_resp, "struct ib_uverbs_query_qp_resp" {
            "dest" => dest;
            "alt_dest" => alt_dest;
            "max_send_wr" => max_send_wr;
            "max_recv_wr" => max_recv_wr;
            "max_send_sge" => max_send_sge;
            "max_recv_sge" => max_recv_sge;
            "max_inline_data" => max_inline_data;
            "qkey" => qkey;
            "rq_psn" => rq_psn;
            "sq_psn" => sq_psn;
            "dest_qp_num" => dest_qp_num;
            "qp_access_flags" => qp_access_flags;
            "pkey_index" => pkey_index;
            "alt_pkey_index" => alt_pkey_index;
            "qp_state" => qp_state;
            "cur_qp_state" => cur_qp_state;
            "path_mtu" => path_mtu;
            "path_mig_state" => path_mig_state;
            "sq_draining" => sq_draining;
            "max_rd_atomic" => max_rd_atomic;
            "max_dest_rd_atomic" => max_dest_rd_atomic;
            "min_rnr_timer" => min_rnr_timer;
            "port_num" => port_num;
            "timeout" => timeout;
            "retry_cnt" => retry_cnt;
            "rnr_retry" => rnr_retry;
            "alt_port_num" => alt_port_num;
            "alt_timeout" => alt_timeout;
            "sq_sig_all" => sq_sig_all;
            "reserved" => reserved;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_modify_qp, "struct ib_uverbs_modify_qp" {
            "dest" => dest;
            "alt_dest" => alt_dest;
            "qp_handle" => qp_handle;
            "attr_mask" => attr_mask;
            "qkey" => qkey;
            "rq_psn" => rq_psn;
            "sq_psn" => sq_psn;
            "dest_qp_num" => dest_qp_num;
            "qp_access_flags" => qp_access_flags;
            "pkey_index" => pkey_index;
            "alt_pkey_index" => alt_pkey_index;
            "qp_state" => qp_state;
            "cur_qp_state" => cur_qp_state;
            "path_mtu" => path_mtu;
            "path_mig_state" => path_mig_state;
            "en_sqd_async_notify" => en_sqd_async_notify;
            "max_rd_atomic" => max_rd_atomic;
            "max_dest_rd_atomic" => max_dest_rd_atomic;
            "min_rnr_timer" => min_rnr_timer;
            "port_num" => port_num;
            "timeout" => timeout;
            "retry_cnt" => retry_cnt;
            "rnr_retry" => rnr_retry;
            "alt_port_num" => alt_port_num;
            "alt_timeout" => alt_timeout;
            "reserved" => reserved;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_ex_modify_qp, "struct ib_uverbs_ex_modify_qp" {
            "base" => base;
            "rate_limit" => rate_limit;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_ex_modify_qp_resp, "struct ib_uverbs_ex_modify_qp_resp" {
            "comp_mask" => comp_mask;
            "response_length" => response_length;
        }),
        ty!(uapi::ib_uverbs_destroy_qp, "struct ib_uverbs_destroy_qp" {
            "response" => response;
            "qp_handle" => qp_handle;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_destroy_qp_resp, "struct ib_uverbs_destroy_qp_resp" {
            "events_reported" => events_reported;
        }),
        ty!(uapi::ib_uverbs_sge, "struct ib_uverbs_sge" {
            "addr" => addr;
            "length" => length;
            "lkey" => lkey;
        }),
        ty!(uapi::ib_uverbs_send_wr, "struct ib_uverbs_send_wr" {
            "wr_id" => wr_id;
            "num_sge" => num_sge;
            "opcode" => opcode;
            "send_flags" => send_flags;
            "ex" => ex;
            "ex.imm_data" => ex.imm_data;
            "ex.invalidate_rkey" => ex.invalidate_rkey;
            "wr" => wr;
            "wr.rdma" => wr.rdma;
            "wr.rdma.remote_addr" => wr.rdma.remote_addr;
            "wr.rdma.rkey" => wr.rdma.rkey;
            "wr.rdma.reserved" => wr.rdma.reserved;
            "wr.atomic" => wr.atomic;
            "wr.atomic.remote_addr" => wr.atomic.remote_addr;
            "wr.atomic.compare_add" => wr.atomic.compare_add;
            "wr.atomic.swap" => wr.atomic.swap;
            "wr.atomic.rkey" => wr.atomic.rkey;
            "wr.atomic.reserved" => wr.atomic.reserved;
            "wr.ud" => wr.ud;
            "wr.ud.ah" => wr.ud.ah;
            "wr.ud.remote_qpn" => wr.ud.remote_qpn;
            "wr.ud.remote_qkey" => wr.ud.remote_qkey;
            "wr.ud.reserved" => wr.ud.reserved;
        }),
        ty!(uapi::ib_uverbs_post_send, "struct ib_uverbs_post_send" {
            "response" => response;
            "qp_handle" => qp_handle;
            "wr_count" => wr_count;
            "sge_count" => sge_count;
            "wqe_size" => wqe_size;
            "send_wr" => send_wr;
        }),
        ty!(uapi::ib_uverbs_post_send_resp, "struct ib_uverbs_post_send_resp" {
            "bad_wr" => bad_wr;
        }),
        ty!(uapi::ib_uverbs_recv_wr, "struct ib_uverbs_recv_wr" {
            "wr_id" => wr_id;
            "num_sge" => num_sge;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_post_recv, "struct ib_uverbs_post_recv" {
            "response" => response;
            "qp_handle" => qp_handle;
            "wr_count" => wr_count;
            "sge_count" => sge_count;
            "wqe_size" => wqe_size;
            "recv_wr" => recv_wr;
        }),
        ty!(uapi::ib_uverbs_post_recv_resp, "struct ib_uverbs_post_recv_resp" {
            "bad_wr" => bad_wr;
        }),
        ty!(uapi::ib_uverbs_post_srq_recv, "struct ib_uverbs_post_srq_recv" {
            "response" => response;
            "srq_handle" => srq_handle;
            "wr_count" => wr_count;
            "sge_count" => sge_count;
            "wqe_size" => wqe_size;
            "recv" => recv;
        }),
        ty!(uapi::ib_uverbs_post_srq_recv_resp, "struct ib_uverbs_post_srq_recv_resp" {
            "bad_wr" => bad_wr;
        }),
        ty!(uapi::ib_uverbs_create_ah, "struct ib_uverbs_create_ah" {
            "response" => response;
            "user_handle" => user_handle;
            "pd_handle" => pd_handle;
            "reserved" => reserved;
            "attr" => attr;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_create_ah_resp, "struct ib_uverbs_create_ah_resp" {
            "ah_handle" => ah_handle;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_destroy_ah, "struct ib_uverbs_destroy_ah" {
            "ah_handle" => ah_handle;
        }),
        ty!(uapi::ib_uverbs_attach_mcast, "struct ib_uverbs_attach_mcast" {
            "gid" => gid;
            "qp_handle" => qp_handle;
            "mlid" => mlid;
            "reserved" => reserved;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_detach_mcast, "struct ib_uverbs_detach_mcast" {
            "gid" => gid;
            "qp_handle" => qp_handle;
            "mlid" => mlid;
            "reserved" => reserved;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_flow_spec_hdr, "struct ib_uverbs_flow_spec_hdr" {
            "type" => r#type;
            "size" => size;
            "reserved" => reserved;
            "flow_spec_data" => flow_spec_data;
        }),
        ty!(uapi::ib_uverbs_flow_eth_filter, "struct ib_uverbs_flow_eth_filter" {
            "dst_mac" => dst_mac;
            "src_mac" => src_mac;
            "ether_type" => ether_type;
            "vlan_tag" => vlan_tag;
        }),
        ty!(uapi::ib_uverbs_flow_spec_eth, "struct ib_uverbs_flow_spec_eth" {
            "<anon>#1" => anon_1;
            "hdr" => anon_1.hdr;
            "<anon>#2" => anon_1.anon_1;
            "type" => anon_1.anon_1.r#type;
            "size" => anon_1.anon_1.size;
            "reserved" => anon_1.anon_1.reserved;
            "val" => val;
            "mask" => mask;
        }),
        ty!(uapi::ib_uverbs_flow_ipv4_filter, "struct ib_uverbs_flow_ipv4_filter" {
            "src_ip" => src_ip;
            "dst_ip" => dst_ip;
            "proto" => proto;
            "tos" => tos;
            "ttl" => ttl;
            "flags" => flags;
        }),
        ty!(uapi::ib_uverbs_flow_spec_ipv4, "struct ib_uverbs_flow_spec_ipv4" {
            "<anon>#1" => anon_1;
            "hdr" => anon_1.hdr;
            "<anon>#2" => anon_1.anon_1;
            "type" => anon_1.anon_1.r#type;
            "size" => anon_1.anon_1.size;
            "reserved" => anon_1.anon_1.reserved;
            "val" => val;
            "mask" => mask;
        }),
        ty!(uapi::ib_uverbs_flow_tcp_udp_filter, "struct ib_uverbs_flow_tcp_udp_filter" {
            "dst_port" => dst_port;
            "src_port" => src_port;
        }),
        ty!(uapi::ib_uverbs_flow_spec_tcp_udp, "struct ib_uverbs_flow_spec_tcp_udp" {
            "<anon>#1" => anon_1;
            "hdr" => anon_1.hdr;
            "<anon>#2" => anon_1.anon_1;
            "type" => anon_1.anon_1.r#type;
            "size" => anon_1.anon_1.size;
            "reserved" => anon_1.anon_1.reserved;
            "val" => val;
            "mask" => mask;
        }),
        ty!(uapi::ib_uverbs_flow_ipv6_filter, "struct ib_uverbs_flow_ipv6_filter" {
            "src_ip" => src_ip;
            "dst_ip" => dst_ip;
            "flow_label" => flow_label;
            "next_hdr" => next_hdr;
            "traffic_class" => traffic_class;
            "hop_limit" => hop_limit;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_flow_spec_ipv6, "struct ib_uverbs_flow_spec_ipv6" {
            "<anon>#1" => anon_1;
            "hdr" => anon_1.hdr;
            "<anon>#2" => anon_1.anon_1;
            "type" => anon_1.anon_1.r#type;
            "size" => anon_1.anon_1.size;
            "reserved" => anon_1.anon_1.reserved;
            "val" => val;
            "mask" => mask;
        }),
        ty!(uapi::ib_uverbs_flow_spec_action_tag, "struct ib_uverbs_flow_spec_action_tag" {
            "<anon>#1" => anon_1;
            "hdr" => anon_1.hdr;
            "<anon>#2" => anon_1.anon_1;
            "type" => anon_1.anon_1.r#type;
            "size" => anon_1.anon_1.size;
            "reserved" => anon_1.anon_1.reserved;
            "tag_id" => tag_id;
            "reserved1" => reserved1;
        }),
        ty!(uapi::ib_uverbs_flow_spec_action_drop, "struct ib_uverbs_flow_spec_action_drop" {
            "<anon>#1" => anon_1;
            "hdr" => anon_1.hdr;
            "<anon>#2" => anon_1.anon_1;
            "type" => anon_1.anon_1.r#type;
            "size" => anon_1.anon_1.size;
            "reserved" => anon_1.anon_1.reserved;
        }),
        ty!(uapi::ib_uverbs_flow_spec_action_handle, "struct ib_uverbs_flow_spec_action_handle" {
            "<anon>#1" => anon_1;
            "hdr" => anon_1.hdr;
            "<anon>#2" => anon_1.anon_1;
            "type" => anon_1.anon_1.r#type;
            "size" => anon_1.anon_1.size;
            "reserved" => anon_1.anon_1.reserved;
            "handle" => handle;
            "reserved1" => reserved1;
        }),
        ty!(uapi::ib_uverbs_flow_spec_action_count, "struct ib_uverbs_flow_spec_action_count" {
            "<anon>#1" => anon_1;
            "hdr" => anon_1.hdr;
            "<anon>#2" => anon_1.anon_1;
            "type" => anon_1.anon_1.r#type;
            "size" => anon_1.anon_1.size;
            "reserved" => anon_1.anon_1.reserved;
            "handle" => handle;
            "reserved1" => reserved1;
        }),
        ty!(uapi::ib_uverbs_flow_tunnel_filter, "struct ib_uverbs_flow_tunnel_filter" {
            "tunnel_id" => tunnel_id;
        }),
        ty!(uapi::ib_uverbs_flow_spec_tunnel, "struct ib_uverbs_flow_spec_tunnel" {
            "<anon>#1" => anon_1;
            "hdr" => anon_1.hdr;
            "<anon>#2" => anon_1.anon_1;
            "type" => anon_1.anon_1.r#type;
            "size" => anon_1.anon_1.size;
            "reserved" => anon_1.anon_1.reserved;
            "val" => val;
            "mask" => mask;
        }),
        ty!(uapi::ib_uverbs_flow_spec_esp_filter, "struct ib_uverbs_flow_spec_esp_filter" {
            "spi" => spi;
            "seq" => seq;
        }),
        ty!(uapi::ib_uverbs_flow_spec_esp, "struct ib_uverbs_flow_spec_esp" {
            "<anon>#1" => anon_1;
            "hdr" => anon_1.hdr;
            "<anon>#2" => anon_1.anon_1;
            "type" => anon_1.anon_1.r#type;
            "size" => anon_1.anon_1.size;
            "reserved" => anon_1.anon_1.reserved;
            "val" => val;
            "mask" => mask;
        }),
        ty!(uapi::ib_uverbs_flow_gre_filter, "struct ib_uverbs_flow_gre_filter" {
            "c_ks_res0_ver" => c_ks_res0_ver;
            "protocol" => protocol;
            "key" => key;
        }),
        ty!(uapi::ib_uverbs_flow_spec_gre, "struct ib_uverbs_flow_spec_gre" {
            "<anon>#1" => anon_1;
            "hdr" => anon_1.hdr;
            "<anon>#2" => anon_1.anon_1;
            "type" => anon_1.anon_1.r#type;
            "size" => anon_1.anon_1.size;
            "reserved" => anon_1.anon_1.reserved;
            "val" => val;
            "mask" => mask;
        }),
        ty!(uapi::ib_uverbs_flow_mpls_filter, "struct ib_uverbs_flow_mpls_filter" {
            "label" => label;
        }),
        ty!(uapi::ib_uverbs_flow_spec_mpls, "struct ib_uverbs_flow_spec_mpls" {
            "<anon>#1" => anon_1;
            "hdr" => anon_1.hdr;
            "<anon>#2" => anon_1.anon_1;
            "type" => anon_1.anon_1.r#type;
            "size" => anon_1.anon_1.size;
            "reserved" => anon_1.anon_1.reserved;
            "val" => val;
            "mask" => mask;
        }),
        ty!(uapi::ib_uverbs_flow_attr, "struct ib_uverbs_flow_attr" {
            "type" => r#type;
            "size" => size;
            "priority" => priority;
            "num_of_specs" => num_of_specs;
            "reserved" => reserved;
            "port" => port;
            "flags" => flags;
            "flow_specs" => flow_specs;
        }),
        ty!(uapi::ib_uverbs_create_flow, "struct ib_uverbs_create_flow" {
            "comp_mask" => comp_mask;
            "qp_handle" => qp_handle;
            "flow_attr" => flow_attr;
        }),
        ty!(uapi::ib_uverbs_create_flow_resp, "struct ib_uverbs_create_flow_resp" {
            "comp_mask" => comp_mask;
            "flow_handle" => flow_handle;
        }),
        ty!(uapi::ib_uverbs_destroy_flow, "struct ib_uverbs_destroy_flow" {
            "comp_mask" => comp_mask;
            "flow_handle" => flow_handle;
        }),
        ty!(uapi::ib_uverbs_create_srq, "struct ib_uverbs_create_srq" {
            "response" => response;
            "user_handle" => user_handle;
            "pd_handle" => pd_handle;
            "max_wr" => max_wr;
            "max_sge" => max_sge;
            "srq_limit" => srq_limit;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_create_xsrq, "struct ib_uverbs_create_xsrq" {
            "response" => response;
            "user_handle" => user_handle;
            "srq_type" => srq_type;
            "pd_handle" => pd_handle;
            "max_wr" => max_wr;
            "max_sge" => max_sge;
            "srq_limit" => srq_limit;
            "max_num_tags" => max_num_tags;
            "xrcd_handle" => xrcd_handle;
            "cq_handle" => cq_handle;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_create_srq_resp, "struct ib_uverbs_create_srq_resp" {
            "srq_handle" => srq_handle;
            "max_wr" => max_wr;
            "max_sge" => max_sge;
            "srqn" => srqn;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_modify_srq, "struct ib_uverbs_modify_srq" {
            "srq_handle" => srq_handle;
            "attr_mask" => attr_mask;
            "max_wr" => max_wr;
            "srq_limit" => srq_limit;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_query_srq, "struct ib_uverbs_query_srq" {
            "response" => response;
            "srq_handle" => srq_handle;
            "reserved" => reserved;
            "driver_data" => driver_data;
        }),
        ty!(uapi::ib_uverbs_query_srq_resp, "struct ib_uverbs_query_srq_resp" {
            "max_wr" => max_wr;
            "max_sge" => max_sge;
            "srq_limit" => srq_limit;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_destroy_srq, "struct ib_uverbs_destroy_srq" {
            "response" => response;
            "srq_handle" => srq_handle;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_destroy_srq_resp, "struct ib_uverbs_destroy_srq_resp" {
            "events_reported" => events_reported;
        }),
        ty!(uapi::ib_uverbs_ex_create_wq, "struct ib_uverbs_ex_create_wq" {
            "comp_mask" => comp_mask;
            "wq_type" => wq_type;
            "user_handle" => user_handle;
            "pd_handle" => pd_handle;
            "cq_handle" => cq_handle;
            "max_wr" => max_wr;
            "max_sge" => max_sge;
            "create_flags" => create_flags;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_ex_create_wq_resp, "struct ib_uverbs_ex_create_wq_resp" {
            "comp_mask" => comp_mask;
            "response_length" => response_length;
            "wq_handle" => wq_handle;
            "max_wr" => max_wr;
            "max_sge" => max_sge;
            "wqn" => wqn;
        }),
        ty!(uapi::ib_uverbs_ex_destroy_wq, "struct ib_uverbs_ex_destroy_wq" {
            "comp_mask" => comp_mask;
            "wq_handle" => wq_handle;
        }),
        ty!(uapi::ib_uverbs_ex_destroy_wq_resp, "struct ib_uverbs_ex_destroy_wq_resp" {
            "comp_mask" => comp_mask;
            "response_length" => response_length;
            "events_reported" => events_reported;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_ex_modify_wq, "struct ib_uverbs_ex_modify_wq" {
            "attr_mask" => attr_mask;
            "wq_handle" => wq_handle;
            "wq_state" => wq_state;
            "curr_wq_state" => curr_wq_state;
            "flags" => flags;
            "flags_mask" => flags_mask;
        }),
        ty!(uapi::ib_uverbs_ex_create_rwq_ind_table, "struct ib_uverbs_ex_create_rwq_ind_table" {
            "comp_mask" => comp_mask;
            "log_ind_tbl_size" => log_ind_tbl_size;
            "wq_handles" => wq_handles;
        }),
        ty!(uapi::ib_uverbs_ex_create_rwq_ind_table_resp, "struct ib_uverbs_ex_create_rwq_ind_table_resp" {
            "comp_mask" => comp_mask;
            "response_length" => response_length;
            "ind_tbl_handle" => ind_tbl_handle;
            "ind_tbl_num" => ind_tbl_num;
        }),
        ty!(uapi::ib_uverbs_ex_destroy_rwq_ind_table, "struct ib_uverbs_ex_destroy_rwq_ind_table" {
            "comp_mask" => comp_mask;
            "ind_tbl_handle" => ind_tbl_handle;
        }),
        ty!(uapi::ib_uverbs_cq_moderation, "struct ib_uverbs_cq_moderation" {
            "cq_count" => cq_count;
            "cq_period" => cq_period;
        }),
        ty!(uapi::ib_uverbs_ex_modify_cq, "struct ib_uverbs_ex_modify_cq" {
            "cq_handle" => cq_handle;
            "attr_mask" => attr_mask;
            "attr" => attr;
            "reserved" => reserved;
        }),
        ty!(uapi::ib_uverbs_clock_info, "struct ib_uverbs_clock_info" {
            "sign" => sign;
            "resv" => resv;
            "nsec" => nsec;
            "cycles" => cycles;
            "frac" => frac;
            "mult" => mult;
            "shift" => shift;
            "mask" => mask;
            "overflow_period" => overflow_period;
        }),
        ty!(uapi::ib_uverbs_flow_action_esp_keymat_aes_gcm, "struct ib_uverbs_flow_action_esp_keymat_aes_gcm" {
            "iv" => iv;
            "iv_algo" => iv_algo;
            "salt" => salt;
            "icv_len" => icv_len;
            "key_len" => key_len;
            "aes_key" => aes_key;
        }),
        ty!(uapi::ib_uverbs_flow_action_esp_replay_bmp, "struct ib_uverbs_flow_action_esp_replay_bmp" {
            "size" => size;
        }),
        ty!(uapi::ib_uverbs_flow_action_esp_encap, "struct ib_uverbs_flow_action_esp_encap" {
            "<anon>#1" => anon_1;
            "val_ptr" => anon_1.val_ptr;
            "val_ptr_data_u64" => anon_1.val_ptr_data_u64;
            "<anon>#2" => anon_2;
            "next_ptr" => anon_2.next_ptr;
            "next_ptr_data_u64" => anon_2.next_ptr_data_u64;
            "len" => len;
            "type" => r#type;
        }),
        ty!(uapi::ib_uverbs_flow_action_esp, "struct ib_uverbs_flow_action_esp" {
            "spi" => spi;
            "seq" => seq;
            "tfc_pad" => tfc_pad;
            "flags" => flags;
            "hard_limit_pkts" => hard_limit_pkts;
        }),
        ty!(uapi::ib_uverbs_query_port_resp_ex, "struct ib_uverbs_query_port_resp_ex" {
            "legacy_resp" => legacy_resp;
            "port_cap_flags2" => port_cap_flags2;
            "reserved" => reserved;
            "active_speed_ex" => active_speed_ex;
        }),
        ty!(uapi::ib_uverbs_qp_cap, "struct ib_uverbs_qp_cap" {
            "max_send_wr" => max_send_wr;
            "max_recv_wr" => max_recv_wr;
            "max_send_sge" => max_send_sge;
            "max_recv_sge" => max_recv_sge;
            "max_inline_data" => max_inline_data;
        }),
        ty!(uapi::ib_uverbs_gid_entry, "struct ib_uverbs_gid_entry" {
            "gid" => gid;
            "gid_index" => gid_index;
            "port_num" => port_num;
            "gid_type" => gid_type;
            "netdev_ifindex" => netdev_ifindex;
        }),
        ty!(uapi::ib_uverbs_buffer_desc, "struct ib_uverbs_buffer_desc" {
            "type" => r#type;
            "fd" => fd;
            "flags" => flags;
            "optional_flags" => optional_flags;
            "addr" => addr;
            "length" => length;
        }),
        ty!(uapi::ib_uverbs_attr, "struct ib_uverbs_attr" {
            "attr_id" => attr_id;
            "len" => len;
            "flags" => flags;
            "attr_data" => attr_data;
            "attr_data.enum_data" => attr_data.enum_data;
            "attr_data.enum_data.elem_id" => attr_data.enum_data.elem_id;
            "attr_data.enum_data.reserved" => attr_data.enum_data.reserved;
            "attr_data.reserved" => attr_data.reserved;
            "<anon>#1" => anon_1;
            "data" => anon_1.data;
            "data_s64" => anon_1.data_s64;
        }),
        ty!(uapi::ib_uverbs_ioctl_hdr, "struct ib_uverbs_ioctl_hdr" {
            "length" => length;
            "object_id" => object_id;
            "method_id" => method_id;
            "num_attrs" => num_attrs;
            "reserved1" => reserved1;
            "driver_id" => driver_id;
            "reserved2" => reserved2;
            "attrs" => attrs;
        }),
    ]
}

const KERN_SCOPE: &[&str] = &[
    "ex_hdr",
    "ibv_kern_ipv4_filter",
    "ibv_kern_spec_ipv4",
    "ibv_kern_spec",
    "ib_uverbs_modify_srq_v3",
    "ibv_create_qp_resp_v3",
    "ibv_create_qp_resp_v4",
    "ibv_create_srq_resp_v5",
    "ibv_get_context",
    "ibv_query_device",
    "ibv_query_device_ex",
    "ibv_query_port",
    "ibv_alloc_pd",
    "ibv_dealloc_pd",
    "ibv_open_xrcd",
    "ibv_close_xrcd",
    "ibv_reg_mr",
    "ibv_rereg_mr",
    "ibv_dereg_mr",
    "ibv_alloc_mw",
    "ibv_dealloc_mw",
    "ibv_create_ah",
    "ibv_destroy_ah",
    "ibv_create_comp_channel",
    "ibv_create_cq",
    "ibv_create_cq_ex",
    "ibv_resize_cq",
    "ibv_destroy_cq",
    "ibv_poll_cq",
    "ibv_req_notify_cq",
    "ibv_modify_cq",
    "ibv_create_flow",
    "ibv_destroy_flow",
    "ibv_create_qp",
    "ibv_create_qp_ex",
    "ibv_create_qp_v4",
    "ibv_create_qp_v3",
    "ibv_open_qp",
    "ibv_query_qp",
    "ibv_modify_qp",
    "ibv_modify_qp_ex",
    "ibv_destroy_qp",
    "ibv_post_send",
    "ibv_post_recv",
    "ibv_attach_mcast",
    "ibv_detach_mcast",
    "ibv_create_srq",
    "ibv_create_srq_v5",
    "ibv_create_xsrq",
    "ibv_modify_srq",
    "ibv_modify_srq_v3",
    "ibv_query_srq",
    "ibv_destroy_srq",
    "ibv_post_srq_recv",
    "ibv_create_wq",
    "ibv_modify_wq",
    "ibv_destroy_wq",
    "ibv_create_rwq_ind_table",
    "ibv_destroy_rwq_ind_table",
    "ibv_command_buffer",
];

fn kern_types() -> Vec<Ty> {
    vec![
        ty!(kern_abi::ex_hdr, "struct ex_hdr" {
            "hdr" => hdr;
            "ex_hdr" => ex_hdr;
        }),
        ty!(kern_abi::ibv_kern_ipv4_filter, "struct ibv_kern_ipv4_filter" {
            "src_ip" => src_ip;
            "dst_ip" => dst_ip;
        }),
        ty!(kern_abi::ibv_kern_spec_ipv4, "struct ibv_kern_spec_ipv4" {
            "type" => r#type;
            "size" => size;
            "reserved" => reserved;
            "val" => val;
            "mask" => mask;
        }),
        ty!(kern_abi::ibv_kern_spec, "struct ibv_kern_spec" {
            "<anon>#1" => anon_1;
            "hdr" => anon_1.hdr;
            "eth" => anon_1.eth;
            "ipv4" => anon_1.ipv4;
            "ipv4_ext" => anon_1.ipv4_ext;
            "esp" => anon_1.esp;
            "tcp_udp" => anon_1.tcp_udp;
            "ipv6" => anon_1.ipv6;
            "gre" => anon_1.gre;
            "tunnel" => anon_1.tunnel;
            "mpls" => anon_1.mpls;
            "flow_tag" => anon_1.flow_tag;
            "drop" => anon_1.drop;
            "handle" => anon_1.handle;
            "flow_count" => anon_1.flow_count;
        }),
        ty!(kern_abi::ib_uverbs_modify_srq_v3, "struct ib_uverbs_modify_srq_v3" {
            "srq_handle" => srq_handle;
            "attr_mask" => attr_mask;
            "max_wr" => max_wr;
            "max_sge" => max_sge;
            "srq_limit" => srq_limit;
            "reserved" => reserved;
        }),
        ty!(kern_abi::ibv_create_qp_resp_v3, "struct ibv_create_qp_resp_v3" {
            "qp_handle" => qp_handle;
            "qpn" => qpn;
        }),
        ty!(kern_abi::ibv_create_qp_resp_v4, "struct ibv_create_qp_resp_v4" {
            "qp_handle" => qp_handle;
            "qpn" => qpn;
            "max_send_wr" => max_send_wr;
            "max_recv_wr" => max_recv_wr;
            "max_send_sge" => max_send_sge;
            "max_recv_sge" => max_recv_sge;
            "max_inline_data" => max_inline_data;
        }),
        ty!(kern_abi::ibv_create_srq_resp_v5, "struct ibv_create_srq_resp_v5" {
            "srq_handle" => srq_handle;
        }),
        ty!(kern_abi::ibv_get_context, "struct ibv_get_context" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_query_device, "struct ibv_query_device" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_query_device_ex, "struct ibv_query_device_ex" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "comp_mask" => anon_1.anon_1.comp_mask;
            "reserved" => anon_1.anon_1.reserved;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_query_port, "struct ibv_query_port" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "port_num" => anon_1.anon_1.port_num;
            "reserved" => anon_1.anon_1.reserved;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_alloc_pd, "struct ibv_alloc_pd" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_dealloc_pd, "struct ibv_dealloc_pd" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_open_xrcd, "struct ibv_open_xrcd" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "fd" => anon_1.anon_1.fd;
            "oflags" => anon_1.anon_1.oflags;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_close_xrcd, "struct ibv_close_xrcd" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "xrcd_handle" => anon_1.anon_1.xrcd_handle;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_reg_mr, "struct ibv_reg_mr" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "start" => anon_1.anon_1.start;
            "length" => anon_1.anon_1.length;
            "hca_va" => anon_1.anon_1.hca_va;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "access_flags" => anon_1.anon_1.access_flags;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_rereg_mr, "struct ibv_rereg_mr" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "mr_handle" => anon_1.anon_1.mr_handle;
            "flags" => anon_1.anon_1.flags;
            "start" => anon_1.anon_1.start;
            "length" => anon_1.anon_1.length;
            "hca_va" => anon_1.anon_1.hca_va;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "access_flags" => anon_1.anon_1.access_flags;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_dereg_mr, "struct ibv_dereg_mr" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "mr_handle" => anon_1.anon_1.mr_handle;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_alloc_mw, "struct ibv_alloc_mw" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "mw_type" => anon_1.anon_1.mw_type;
            "reserved" => anon_1.anon_1.reserved;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_dealloc_mw, "struct ibv_dealloc_mw" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "mw_handle" => anon_1.anon_1.mw_handle;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_ah, "struct ibv_create_ah" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "user_handle" => anon_1.anon_1.user_handle;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "reserved" => anon_1.anon_1.reserved;
            "attr" => anon_1.anon_1.attr;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_destroy_ah, "struct ibv_destroy_ah" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "ah_handle" => anon_1.anon_1.ah_handle;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_comp_channel, "struct ibv_create_comp_channel" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_cq, "struct ibv_create_cq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "user_handle" => anon_1.anon_1.user_handle;
            "cqe" => anon_1.anon_1.cqe;
            "comp_vector" => anon_1.anon_1.comp_vector;
            "comp_channel" => anon_1.anon_1.comp_channel;
            "reserved" => anon_1.anon_1.reserved;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_cq_ex, "struct ibv_create_cq_ex" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "user_handle" => anon_1.anon_1.user_handle;
            "cqe" => anon_1.anon_1.cqe;
            "comp_vector" => anon_1.anon_1.comp_vector;
            "comp_channel" => anon_1.anon_1.comp_channel;
            "comp_mask" => anon_1.anon_1.comp_mask;
            "flags" => anon_1.anon_1.flags;
            "reserved" => anon_1.anon_1.reserved;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_resize_cq, "struct ibv_resize_cq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "cq_handle" => anon_1.anon_1.cq_handle;
            "cqe" => anon_1.anon_1.cqe;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_destroy_cq, "struct ibv_destroy_cq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "cq_handle" => anon_1.anon_1.cq_handle;
            "reserved" => anon_1.anon_1.reserved;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_poll_cq, "struct ibv_poll_cq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "cq_handle" => anon_1.anon_1.cq_handle;
            "ne" => anon_1.anon_1.ne;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_req_notify_cq, "struct ibv_req_notify_cq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "cq_handle" => anon_1.anon_1.cq_handle;
            "solicited_only" => anon_1.anon_1.solicited_only;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_modify_cq, "struct ibv_modify_cq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "cq_handle" => anon_1.anon_1.cq_handle;
            "attr_mask" => anon_1.anon_1.attr_mask;
            "attr" => anon_1.anon_1.attr;
            "reserved" => anon_1.anon_1.reserved;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_flow, "struct ibv_create_flow" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "comp_mask" => anon_1.anon_1.comp_mask;
            "qp_handle" => anon_1.anon_1.qp_handle;
            "flow_attr" => anon_1.anon_1.flow_attr;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_destroy_flow, "struct ibv_destroy_flow" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "comp_mask" => anon_1.anon_1.comp_mask;
            "flow_handle" => anon_1.anon_1.flow_handle;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_qp, "struct ibv_create_qp" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "user_handle" => anon_1.anon_1.user_handle;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "send_cq_handle" => anon_1.anon_1.send_cq_handle;
            "recv_cq_handle" => anon_1.anon_1.recv_cq_handle;
            "srq_handle" => anon_1.anon_1.srq_handle;
            "max_send_wr" => anon_1.anon_1.max_send_wr;
            "max_recv_wr" => anon_1.anon_1.max_recv_wr;
            "max_send_sge" => anon_1.anon_1.max_send_sge;
            "max_recv_sge" => anon_1.anon_1.max_recv_sge;
            "max_inline_data" => anon_1.anon_1.max_inline_data;
            "sq_sig_all" => anon_1.anon_1.sq_sig_all;
            "qp_type" => anon_1.anon_1.qp_type;
            "is_srq" => anon_1.anon_1.is_srq;
            "reserved" => anon_1.anon_1.reserved;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_qp_ex, "struct ibv_create_qp_ex" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "user_handle" => anon_1.anon_1.user_handle;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "send_cq_handle" => anon_1.anon_1.send_cq_handle;
            "recv_cq_handle" => anon_1.anon_1.recv_cq_handle;
            "srq_handle" => anon_1.anon_1.srq_handle;
            "max_send_wr" => anon_1.anon_1.max_send_wr;
            "max_recv_wr" => anon_1.anon_1.max_recv_wr;
            "max_send_sge" => anon_1.anon_1.max_send_sge;
            "max_recv_sge" => anon_1.anon_1.max_recv_sge;
            "max_inline_data" => anon_1.anon_1.max_inline_data;
            "sq_sig_all" => anon_1.anon_1.sq_sig_all;
            "qp_type" => anon_1.anon_1.qp_type;
            "is_srq" => anon_1.anon_1.is_srq;
            "reserved" => anon_1.anon_1.reserved;
            "comp_mask" => anon_1.anon_1.comp_mask;
            "create_flags" => anon_1.anon_1.create_flags;
            "rwq_ind_tbl_handle" => anon_1.anon_1.rwq_ind_tbl_handle;
            "source_qpn" => anon_1.anon_1.source_qpn;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_qp_v4, "struct ibv_create_qp_v4" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "user_handle" => anon_1.anon_1.user_handle;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "send_cq_handle" => anon_1.anon_1.send_cq_handle;
            "recv_cq_handle" => anon_1.anon_1.recv_cq_handle;
            "srq_handle" => anon_1.anon_1.srq_handle;
            "max_send_wr" => anon_1.anon_1.max_send_wr;
            "max_recv_wr" => anon_1.anon_1.max_recv_wr;
            "max_send_sge" => anon_1.anon_1.max_send_sge;
            "max_recv_sge" => anon_1.anon_1.max_recv_sge;
            "max_inline_data" => anon_1.anon_1.max_inline_data;
            "sq_sig_all" => anon_1.anon_1.sq_sig_all;
            "qp_type" => anon_1.anon_1.qp_type;
            "is_srq" => anon_1.anon_1.is_srq;
            "reserved" => anon_1.anon_1.reserved;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_qp_v3, "struct ibv_create_qp_v3" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "user_handle" => anon_1.anon_1.user_handle;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "send_cq_handle" => anon_1.anon_1.send_cq_handle;
            "recv_cq_handle" => anon_1.anon_1.recv_cq_handle;
            "srq_handle" => anon_1.anon_1.srq_handle;
            "max_send_wr" => anon_1.anon_1.max_send_wr;
            "max_recv_wr" => anon_1.anon_1.max_recv_wr;
            "max_send_sge" => anon_1.anon_1.max_send_sge;
            "max_recv_sge" => anon_1.anon_1.max_recv_sge;
            "max_inline_data" => anon_1.anon_1.max_inline_data;
            "sq_sig_all" => anon_1.anon_1.sq_sig_all;
            "qp_type" => anon_1.anon_1.qp_type;
            "is_srq" => anon_1.anon_1.is_srq;
            "reserved" => anon_1.anon_1.reserved;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_open_qp, "struct ibv_open_qp" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "user_handle" => anon_1.anon_1.user_handle;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "qpn" => anon_1.anon_1.qpn;
            "qp_type" => anon_1.anon_1.qp_type;
            "reserved" => anon_1.anon_1.reserved;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_query_qp, "struct ibv_query_qp" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "qp_handle" => anon_1.anon_1.qp_handle;
            "attr_mask" => anon_1.anon_1.attr_mask;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_modify_qp, "struct ibv_modify_qp" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "dest" => anon_1.anon_1.dest;
            "alt_dest" => anon_1.anon_1.alt_dest;
            "qp_handle" => anon_1.anon_1.qp_handle;
            "attr_mask" => anon_1.anon_1.attr_mask;
            "qkey" => anon_1.anon_1.qkey;
            "rq_psn" => anon_1.anon_1.rq_psn;
            "sq_psn" => anon_1.anon_1.sq_psn;
            "dest_qp_num" => anon_1.anon_1.dest_qp_num;
            "qp_access_flags" => anon_1.anon_1.qp_access_flags;
            "pkey_index" => anon_1.anon_1.pkey_index;
            "alt_pkey_index" => anon_1.anon_1.alt_pkey_index;
            "qp_state" => anon_1.anon_1.qp_state;
            "cur_qp_state" => anon_1.anon_1.cur_qp_state;
            "path_mtu" => anon_1.anon_1.path_mtu;
            "path_mig_state" => anon_1.anon_1.path_mig_state;
            "en_sqd_async_notify" => anon_1.anon_1.en_sqd_async_notify;
            "max_rd_atomic" => anon_1.anon_1.max_rd_atomic;
            "max_dest_rd_atomic" => anon_1.anon_1.max_dest_rd_atomic;
            "min_rnr_timer" => anon_1.anon_1.min_rnr_timer;
            "port_num" => anon_1.anon_1.port_num;
            "timeout" => anon_1.anon_1.timeout;
            "retry_cnt" => anon_1.anon_1.retry_cnt;
            "rnr_retry" => anon_1.anon_1.rnr_retry;
            "alt_port_num" => anon_1.anon_1.alt_port_num;
            "alt_timeout" => anon_1.anon_1.alt_timeout;
            "reserved" => anon_1.anon_1.reserved;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_modify_qp_ex, "struct ibv_modify_qp_ex" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "base" => anon_1.anon_1.base;
            "rate_limit" => anon_1.anon_1.rate_limit;
            "reserved" => anon_1.anon_1.reserved;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_destroy_qp, "struct ibv_destroy_qp" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "qp_handle" => anon_1.anon_1.qp_handle;
            "reserved" => anon_1.anon_1.reserved;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_post_send, "struct ibv_post_send" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "qp_handle" => anon_1.anon_1.qp_handle;
            "wr_count" => anon_1.anon_1.wr_count;
            "sge_count" => anon_1.anon_1.sge_count;
            "wqe_size" => anon_1.anon_1.wqe_size;
            "send_wr" => anon_1.anon_1.send_wr;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_post_recv, "struct ibv_post_recv" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "qp_handle" => anon_1.anon_1.qp_handle;
            "wr_count" => anon_1.anon_1.wr_count;
            "sge_count" => anon_1.anon_1.sge_count;
            "wqe_size" => anon_1.anon_1.wqe_size;
            "recv_wr" => anon_1.anon_1.recv_wr;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_attach_mcast, "struct ibv_attach_mcast" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "gid" => anon_1.anon_1.gid;
            "qp_handle" => anon_1.anon_1.qp_handle;
            "mlid" => anon_1.anon_1.mlid;
            "reserved" => anon_1.anon_1.reserved;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_detach_mcast, "struct ibv_detach_mcast" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "gid" => anon_1.anon_1.gid;
            "qp_handle" => anon_1.anon_1.qp_handle;
            "mlid" => anon_1.anon_1.mlid;
            "reserved" => anon_1.anon_1.reserved;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_srq, "struct ibv_create_srq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "user_handle" => anon_1.anon_1.user_handle;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "max_wr" => anon_1.anon_1.max_wr;
            "max_sge" => anon_1.anon_1.max_sge;
            "srq_limit" => anon_1.anon_1.srq_limit;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_srq_v5, "struct ibv_create_srq_v5" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "user_handle" => anon_1.anon_1.user_handle;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "max_wr" => anon_1.anon_1.max_wr;
            "max_sge" => anon_1.anon_1.max_sge;
            "srq_limit" => anon_1.anon_1.srq_limit;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_xsrq, "struct ibv_create_xsrq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "user_handle" => anon_1.anon_1.user_handle;
            "srq_type" => anon_1.anon_1.srq_type;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "max_wr" => anon_1.anon_1.max_wr;
            "max_sge" => anon_1.anon_1.max_sge;
            "srq_limit" => anon_1.anon_1.srq_limit;
            "max_num_tags" => anon_1.anon_1.max_num_tags;
            "xrcd_handle" => anon_1.anon_1.xrcd_handle;
            "cq_handle" => anon_1.anon_1.cq_handle;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_modify_srq, "struct ibv_modify_srq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "srq_handle" => anon_1.anon_1.srq_handle;
            "attr_mask" => anon_1.anon_1.attr_mask;
            "max_wr" => anon_1.anon_1.max_wr;
            "srq_limit" => anon_1.anon_1.srq_limit;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_modify_srq_v3, "struct ibv_modify_srq_v3" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_query_srq, "struct ibv_query_srq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "srq_handle" => anon_1.anon_1.srq_handle;
            "reserved" => anon_1.anon_1.reserved;
            "driver_data" => anon_1.anon_1.driver_data;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_destroy_srq, "struct ibv_destroy_srq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "srq_handle" => anon_1.anon_1.srq_handle;
            "reserved" => anon_1.anon_1.reserved;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_post_srq_recv, "struct ibv_post_srq_recv" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "response" => anon_1.anon_1.response;
            "srq_handle" => anon_1.anon_1.srq_handle;
            "wr_count" => anon_1.anon_1.wr_count;
            "sge_count" => anon_1.anon_1.sge_count;
            "wqe_size" => anon_1.anon_1.wqe_size;
            "recv" => anon_1.anon_1.recv;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_wq, "struct ibv_create_wq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "comp_mask" => anon_1.anon_1.comp_mask;
            "wq_type" => anon_1.anon_1.wq_type;
            "user_handle" => anon_1.anon_1.user_handle;
            "pd_handle" => anon_1.anon_1.pd_handle;
            "cq_handle" => anon_1.anon_1.cq_handle;
            "max_wr" => anon_1.anon_1.max_wr;
            "max_sge" => anon_1.anon_1.max_sge;
            "create_flags" => anon_1.anon_1.create_flags;
            "reserved" => anon_1.anon_1.reserved;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_modify_wq, "struct ibv_modify_wq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "attr_mask" => anon_1.anon_1.attr_mask;
            "wq_handle" => anon_1.anon_1.wq_handle;
            "wq_state" => anon_1.anon_1.wq_state;
            "curr_wq_state" => anon_1.anon_1.curr_wq_state;
            "flags" => anon_1.anon_1.flags;
            "flags_mask" => anon_1.anon_1.flags_mask;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_destroy_wq, "struct ibv_destroy_wq" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "comp_mask" => anon_1.anon_1.comp_mask;
            "wq_handle" => anon_1.anon_1.wq_handle;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_create_rwq_ind_table, "struct ibv_create_rwq_ind_table" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "comp_mask" => anon_1.anon_1.comp_mask;
            "log_ind_tbl_size" => anon_1.anon_1.log_ind_tbl_size;
            "wq_handles" => anon_1.anon_1.wq_handles;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_destroy_rwq_ind_table, "struct ibv_destroy_rwq_ind_table" {
            "hdr" => hdr;
            "<anon>#1" => anon_1;
            "<anon>#2" => anon_1.anon_1;
            "comp_mask" => anon_1.anon_1.comp_mask;
            "ind_tbl_handle" => anon_1.anon_1.ind_tbl_handle;
            "core_payload" => anon_1.core_payload;
        }),
        ty!(kern_abi::ibv_command_buffer, "struct ibv_command_buffer" {
            "next" => next;
            "next_attr" => next_attr;
            "last_attr" => last_attr;
            "uhw_in_idx" => uhw_in_idx;
            "uhw_out_idx" => uhw_out_idx;
            "uhw_in_headroom_dwords" => uhw_in_headroom_dwords;
            "uhw_out_headroom_dwords" => uhw_out_headroom_dwords;
            "buffer_error" => bitfield_1;
            "fallback_require_ex" => bitfield_1;
            "fallback_ioctl_only" => bitfield_1;
            "hdr" => hdr;
        }),
    ]
}

#[test]
fn uapi_layouts_match_v65() {
    let file = "layouts-v65.0-pabi65.tsv";
    let mut errs = Vec::new();
    check(file, UAPI_SCOPE, &uapi_types(), &mut errs);
    // Every kernel uverbs struct in the TSV must be in one of the two scopes.
    let Some(tsv) = load(file) else { return };
    let mut tsv_types: Vec<String> = tsv.into_keys().collect();
    tsv_types.sort();
    for t in tsv_types {
        if let Some(n) = t.strip_prefix("struct ib_uverbs_") {
            let n = format!("ib_uverbs_{n}");
            if !UAPI_SCOPE.contains(&n.as_str()) && !KERN_SCOPE.contains(&n.as_str()) {
                errs.push(format!("{file}: `{t}` is in no scope list"));
            }
        }
    }
    report(errs);
}

#[test]
fn kern_abi_layouts_match_v44() {
    let mut errs = Vec::new();
    check(
        "layouts-v44.0-pabi34.tsv",
        KERN_SCOPE,
        &kern_types(),
        &mut errs,
    );
    report(errs);
}

#[test]
fn kern_abi_layouts_unchanged_in_v65() {
    // kern-abi.h and the command buffer did not change up to v65.
    let mut errs = Vec::new();
    check(
        "layouts-v65.0-pabi65.tsv",
        KERN_SCOPE,
        &kern_types(),
        &mut errs,
    );
    report(errs);
}

#[test]
fn rdma_verbs_ioctl_value() {
    // _IOWR(0x1b, 1, struct ib_uverbs_ioctl_hdr): dir 3 << 30 | size << 16 | type << 8 | nr.
    let size = size_of::<uapi::ib_uverbs_ioctl_hdr>() as u32;
    assert_eq!(size, 24);
    assert_eq!(
        uapi::RDMA_VERBS_IOCTL,
        (3 << 30) | (size << 16) | (0x1b << 8) | 1
    );
    assert_eq!(uapi::RDMA_VERBS_IOCTL, 0xc018_1b01);
}

#[test]
fn command_numbers_and_ids() {
    assert_eq!(uapi::IB_USER_VERBS_CMD_OPEN_QP, 40);
    assert_eq!(uapi::IB_USER_VERBS_EX_CMD_CREATE_FLOW, 50);
    assert_eq!(uapi::IB_USER_VERBS_EX_CMD_MODIFY_CQ, 57);
    assert_eq!(uapi::IB_USER_VERBS_CMD_FLAG_EXTENDED, 0x8000_0000);
    assert_eq!(uapi::UVERBS_ATTR_UHW_IN, 0x1000);
    assert_eq!(uapi::UVERBS_ATTR_UHW_OUT, 0x1001);
    assert_eq!(uapi::UVERBS_ID_DRIVER_NS_WITH_UHW, 0x1002);
    assert_eq!(uapi::UVERBS_OBJECT_COMP_CNTR, 19);
    assert_eq!(uapi::UVERBS_METHOD_CQ_CREATE, 0);
    assert_eq!(uapi::UVERBS_ATTR_CREATE_CQ_BUF_UMEM, 12);
    assert_eq!(
        uapi::RDMA_DRIVER_IRDMA,
        uapi::rdma_driver_id::RDMA_DRIVER_I40IW as u32
    );
    assert_eq!(
        uapi::ib_uverbs_access_flags::IB_UVERBS_ACCESS_OPTIONAL_RANGE as u32,
        0x3ff0_0000
    );
    assert_eq!(uapi::IB_UVERBS_DEVICE_RAW_SCATTER_FCS, 1 << 34);
    assert_eq!(
        kern_abi::IB_USER_VERBS_CMD_CREATE_QP_V3,
        uapi::IB_USER_VERBS_CMD_CREATE_QP
    );
}

#[test]
fn command_buffer_bits() {
    // SAFETY: all-zero is a valid value of this plain-data struct.
    let mut b: kern_abi::ibv_command_buffer = unsafe { core::mem::zeroed() };
    b.set_fallback_require_ex(true);
    assert_eq!(
        b.bitfield_1,
        kern_abi::ibv_command_buffer::FALLBACK_REQUIRE_EX
    );
    b.set_fallback_ioctl_only(true);
    b.set_buffer_error(true);
    b.set_fallback_require_ex(false);
    assert!(b.buffer_error() && !b.fallback_require_ex() && b.fallback_ioctl_only());
}

/// The bits of `ibv_command_buffer`'s bitfield as the target's C compiler lays them out: rdma-core
/// v56.1's own declaration of the struct (`libibverbs/cmd_ioctl.h`, read from the tarball in
/// ../shared/rdma-core) compiled with `$IBVERBS_RS_CC` (default `cc`; the cross targets set the
/// target's gcc) into a program that sets each one-bit field alone and prints the byte it lands in
/// and its value; run on the target (under qemu-user for a cross build). Ours must agree: the same
/// byte as `bitfield_1` and the same mask (s390x, big-endian: 0x80, 0x40, 0x20).
#[test]
fn command_buffer_bits_as_the_c_compiler_lays_them_out() {
    let Some(tarball) = shared::file("rdma-core/rdma-core-56.1.tar.gz") else {
        return;
    };
    let out = std::process::Command::new("tar")
        .arg("-xzOf")
        .arg(&tarball)
        .arg("rdma-core-56.1/libibverbs/cmd_ioctl.h")
        .output()
        .expect("tar runs");
    assert!(
        out.status.success(),
        "cannot read cmd_ioctl.h from {}",
        tarball.display()
    );
    let header = String::from_utf8_lossy(&out.stdout);
    let start = header
        .find("struct ibv_command_buffer {")
        .expect("cmd_ioctl.h declares struct ibv_command_buffer");
    let end = start + header[start..].find("};").expect("the struct ends") + 2;
    let decl = &header[start..end];
    let fields: Vec<&str> = decl
        .lines()
        .filter_map(|l| {
            let l = l.trim().strip_suffix(';')?;
            let (name, width) = l.rsplit_once(':')?;
            (width.trim() == "1").then(|| name.split_whitespace().last().unwrap_or(""))
        })
        .collect();
    assert_eq!(
        fields,
        ["buffer_error", "fallback_require_ex", "fallback_ioctl_only"]
    );
    let mut prog = String::from(
        "#include <stdio.h>\n#include <string.h>\n#include <stdint.h>\n#include <rdma/rdma_user_ioctl_cmds.h>\n",
    );
    prog.push_str(decl);
    prog.push_str("\nint main(void) {\n  struct ibv_command_buffer b;\n  unsigned char *p = (unsigned char *)&b;\n");
    for f in &fields {
        prog.push_str(&format!(
            "  memset(&b, 0, sizeof b); b.{f} = 1;\n  for (size_t i = 0; i < sizeof b; i++) if (p[i]) printf(\"{f} %zu %u\\n\", i, p[i]);\n"
        ));
    }
    prog.push_str("  return 0;\n}\n");
    let dir = std::env::temp_dir().join(format!("ibverbs-rs-cmdbuf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let (src, exe) = (dir.join("bits.c"), dir.join("bits"));
    std::fs::write(&src, prog).expect("write bits.c");
    let cc = std::env::var("IBVERBS_RS_CC").unwrap_or_else(|_| "cc".into());
    let built = std::process::Command::new(&cc)
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .status()
        .expect("the C compiler runs");
    assert!(built.success(), "{cc} could not build {}", src.display());
    let run = std::process::Command::new(&exe)
        .output()
        .expect("bits runs");
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&run.stdout);
    let at = offset_of!(kern_abi::ibv_command_buffer, bitfield_1);
    let ours = [
        kern_abi::ibv_command_buffer::BUFFER_ERROR,
        kern_abi::ibv_command_buffer::FALLBACK_REQUIRE_EX,
        kern_abi::ibv_command_buffer::FALLBACK_IOCTL_ONLY,
    ];
    let want: String = fields
        .iter()
        .zip(ours)
        .map(|(f, m)| format!("{f} {at} {m}\n"))
        .collect();
    assert_eq!(text, want, "gcc's bitfield (left) against ours (right)");
}

/// The command layer builds ioctl buffers from its own flat mirrors (`sys::uverbs::Attr`, the
/// unions as raw integers, and `IoctlHdr`); they must lie exactly over the uapi types checked
/// above: the same size and every member at the same offset with the same size.
#[test]
fn sys_uverbs_mirrors_match_uapi() {
    use ibverbs::sys::uverbs::{Attr, IoctlHdr};
    let mirror = ty!(Attr, "Attr" {
        "attr_id" => attr_id;
        "len" => len;
        "flags" => flags;
        "attr_data" => attr_data;
        "data" => data;
    });
    let attr = ty!(uapi::ib_uverbs_attr, "struct ib_uverbs_attr" {
        "attr_id" => attr_id;
        "len" => len;
        "flags" => flags;
        "attr_data" => attr_data;
        "data" => anon_1;
    });
    let hdr_mirror = ty!(IoctlHdr, "IoctlHdr" {
        "length" => length;
        "object_id" => object_id;
        "method_id" => method_id;
        "num_attrs" => num_attrs;
        "reserved1" => reserved1;
        "driver_id" => driver_id;
        "reserved2" => reserved2;
    });
    let hdr = ty!(uapi::ib_uverbs_ioctl_hdr, "struct ib_uverbs_ioctl_hdr" {
        "length" => length;
        "object_id" => object_id;
        "method_id" => method_id;
        "num_attrs" => num_attrs;
        "reserved1" => reserved1;
        "driver_id" => driver_id;
        "reserved2" => reserved2;
    });
    let mut errs = Vec::new();
    for (m, u) in [(&mirror, &attr), (&hdr_mirror, &hdr)] {
        if m.size != u.size {
            errs.push(format!(
                "{}: size {} against {}'s {}",
                m.c, m.size, u.c, u.size
            ));
        }
        assert_eq!(m.fields.len(), u.fields.len());
        for (a, b) in m.fields.iter().zip(&u.fields) {
            if (a.off, a.size) != (b.off, b.size) {
                errs.push(format!(
                    "{}.{}: offset {} size {} against {}.{}: offset {} size {}",
                    m.c, a.c, a.off, a.size, u.c, b.c, b.off, b.size
                ));
            }
        }
    }
    // The attributes follow the header directly.
    if offset_of!(uapi::ib_uverbs_ioctl_hdr, attrs) != size_of::<IoctlHdr>() {
        errs.push("ib_uverbs_ioctl_hdr.attrs does not start where IoctlHdr ends".into());
    }
    assert!(errs.is_empty(), "{}", errs.join("\n"));
}
