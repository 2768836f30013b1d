//! The type-to-string and rate helpers.
//!
//! rdma-core: libibverbs/enum_strs.c (the `*_str` functions) and libibverbs/verbs.c (rates), as of v65.
//! Behaviour (facts from the specification): a value outside an enum's range gives "unknown"; a
//! value inside the range that names no string (the 12..13 gap of `ibv_wr_opcode`) gives NULL; the
//! rate helpers give -1 or `IBV_RATE_MAX` (0) for anything they do not know.
#![forbid(unsafe_code)]

use core::ffi::{CStr, c_int};

const UNKNOWN: &CStr = c"unknown";

/// A string table as the C exports hand it out: each entry one thin reference to the first byte
/// of the NUL-terminated string (its bytes follow it in the same static), None for a hole. A
/// lookup is one bounds check and one load, as a C array of `const char *` is; a table of
/// `&CStr` (pointer and length) costs an extra instruction or two per call.
pub struct Thin<const N: usize>([Option<&'static u8>; N]);

impl<const N: usize> Thin<N> {
    const fn of(t: &[Option<&'static CStr>; N]) -> Thin<N> {
        let mut out = [None; N];
        let mut i = 0;
        while i < N {
            if let Some(s) = t[i] {
                out[i] = s.to_bytes_with_nul().first();
            }
            i += 1;
        }
        Thin(out)
    }

    /// The entry for `idx` (see `lookup`): out of range is "unknown", a hole is None.
    #[inline]
    pub fn get(&self, idx: u32) -> Option<&'static u8> {
        match self.0.get(idx as usize) {
            Some(s) => *s,
            None => UNKNOWN.to_bytes_with_nul().first(),
        }
    }
}

/// `enum ibv_node_type` is signed (it has IBV_NODE_UNKNOWN = -1); valid strings are 1..=7.
const NODE_TYPE: [Option<&CStr>; 7] = [
    Some(c"InfiniBand channel adapter"),
    Some(c"InfiniBand switch"),
    Some(c"InfiniBand router"),
    Some(c"iWARP NIC"),
    Some(c"usNIC"),
    Some(c"usNIC UDP"),
    Some(c"unspecified"),
];

/// The table above as the C export hands it out.
pub static NODE_TYPE_C: Thin<7> = Thin::of(&NODE_TYPE);

/// The index of `v` in its table.
#[inline]
pub fn node_type_idx(v: c_int) -> u32 {
    (v as u32).wrapping_sub(1)
}

/// `enum ibv_port_state` is unsigned (all enumerators are >= 0): a negative int is a huge value.
const PORT_STATE: [Option<&CStr>; 6] = [
    Some(c"no state change (NOP)"),
    Some(c"down"),
    Some(c"init"),
    Some(c"armed"),
    Some(c"active"),
    Some(c"active defer"),
];

/// The table above as the C export hands it out.
pub static PORT_STATE_C: Thin<6> = Thin::of(&PORT_STATE);

/// The index of `v` in its table.
#[inline]
pub fn port_state_idx(v: u32) -> u32 {
    v
}

/// `enum ibv_event_type` (unsigned). v65 knows IBV_EVENT_DEVICE_SPEED_CHANGE (20); v44 did not.
const EVENT_TYPE: [Option<&CStr>; 21] = [
    Some(c"CQ error"),
    Some(c"local work queue catastrophic error"),
    Some(c"invalid request local work queue error"),
    Some(c"local access violation work queue error"),
    Some(c"communication established"),
    Some(c"send queue drained"),
    Some(c"path migrated"),
    Some(c"path migration request error"),
    Some(c"local catastrophic error"),
    Some(c"port active"),
    Some(c"port error"),
    Some(c"LID change"),
    Some(c"P_Key change"),
    Some(c"SM change"),
    Some(c"SRQ catastrophic error"),
    Some(c"SRQ limit reached"),
    Some(c"last WQE reached"),
    Some(c"client reregistration"),
    Some(c"GID table change"),
    Some(c"WQ fatal"),
    Some(c"Device link speed change"),
];

/// The table above as the C export hands it out.
pub static EVENT_TYPE_C: Thin<21> = Thin::of(&EVENT_TYPE);

/// The index of `v` in its table.
#[inline]
pub fn event_type_idx(v: u32) -> u32 {
    v
}

/// `enum ibv_wc_status` (unsigned), 0..=23.
const WC_STATUS: [Option<&CStr>; 24] = [
    Some(c"success"),
    Some(c"local length error"),
    Some(c"local QP operation error"),
    Some(c"local EE context operation error"),
    Some(c"local protection error"),
    Some(c"Work Request Flushed Error"),
    Some(c"memory management operation error"),
    Some(c"bad response error"),
    Some(c"local access error"),
    Some(c"remote invalid request error"),
    Some(c"remote access error"),
    Some(c"remote operation error"),
    Some(c"transport retry counter exceeded"),
    Some(c"RNR retry counter exceeded"),
    Some(c"local RDD violation error"),
    Some(c"remote invalid RD request"),
    Some(c"aborted error"),
    Some(c"invalid EE context number"),
    Some(c"invalid EE context state"),
    Some(c"fatal error"),
    Some(c"response timeout error"),
    Some(c"general error"),
    Some(c"TM error"),
    Some(c"TM software rendezvous"),
];

/// The table above as the C export hands it out.
pub static WC_STATUS_C: Thin<24> = Thin::of(&WC_STATUS);

/// The index of `v` in its table.
#[inline]
pub fn wc_status_idx(v: u32) -> u32 {
    v
}

/// `enum ibv_wr_opcode` (unsigned), 0..=15 with 12 and 13 unnamed (NULL, as rdma-core returns).
const WR_OPCODE: [Option<&CStr>; 16] = [
    Some(c"rdma-write"),
    Some(c"rdma-write-with-imm"),
    Some(c"send"),
    Some(c"send-with-imm"),
    Some(c"rdma-read"),
    Some(c"atomic-cmp-and-swp"),
    Some(c"atomic-fetch-and-add"),
    Some(c"local-inv"),
    Some(c"bind-mw"),
    Some(c"send-with-inv"),
    Some(c"tso"),
    Some(c"driver1"),
    None,
    None,
    Some(c"flush"),
    Some(c"atomic-write"),
];

/// The table above as the C export hands it out.
pub static WR_OPCODE_C: Thin<16> = Thin::of(&WR_OPCODE);

/// The index of `v` in its table.
#[inline]
pub fn wr_opcode_idx(v: u32) -> u32 {
    v
}

/// One row per known `enum ibv_rate`: (rate, multiple of 2.5 Gb/s if it has one, Mb/s).
/// IBV_RATE_14/56/112/168/25/100/200/300 are FDR/EDR-style rates with no 2.5 Gb/s multiple.
const RATES: [(u32, Option<c_int>, c_int); 23] = [
    (2, Some(1), 2500),
    (5, Some(2), 5000),
    (3, Some(4), 10000),
    (6, Some(8), 20000),
    (4, Some(12), 30000),
    (7, Some(16), 40000),
    (8, Some(24), 60000),
    (9, Some(32), 80000),
    (10, Some(48), 120000),
    (11, None, 14062),
    (12, None, 56250),
    (13, None, 112500),
    (14, None, 168750),
    (15, None, 25781),
    (16, None, 103125),
    (17, None, 206250),
    (18, None, 309375),
    (19, Some(11), 28125),
    (20, Some(20), 53125),
    (21, Some(160), 425000),
    (22, Some(240), 637500),
    (23, Some(320), 850000),
    (24, Some(480), 1275000),
];

/// `IBV_RATE_MAX`: what the reverse helpers return for a value they do not know.
pub const IBV_RATE_MAX: u32 = 0;

/// `RATES` indexed by rate: the multiple (-1 where a rate has none) and the Mb/s (-1 below the
/// lowest rate): what the two forward helpers return, in one load.
const BY_RATE: ([c_int; 25], [c_int; 25]) = {
    let (mut mult, mut mbps) = ([-1; 25], [-1; 25]);
    let mut i = 0;
    while i < RATES.len() {
        let (rate, m, mb) = RATES[i];
        if let Some(m) = m {
            mult[rate as usize] = m;
        }
        mbps[rate as usize] = mb;
        i += 1;
    }
    (mult, mbps)
};

/// Entry `rate` of a forward table, -1 past its end. The miss is a cold function so that the
/// compiler loads -1 on that branch only, not on every call before the bounds check.
#[inline]
fn by_rate(table: &[c_int; 25], rate: u32) -> c_int {
    match table.get(rate as usize) {
        Some(v) => *v,
        None => no_rate(),
    }
}

#[cold]
#[inline(never)]
fn no_rate() -> c_int {
    -1
}

pub fn rate_to_mult(rate: u32) -> c_int {
    by_rate(&BY_RATE.0, rate)
}

pub fn mult_to_rate(mult: c_int) -> u32 {
    RATES
        .iter()
        .find(|r| r.1 == Some(mult))
        .map_or(IBV_RATE_MAX, |r| r.0)
}

pub fn rate_to_mbps(rate: u32) -> c_int {
    by_rate(&BY_RATE.1, rate)
}

pub fn mbps_to_rate(mbps: c_int) -> u32 {
    RATES
        .iter()
        .find(|r| r.2 == mbps)
        .map_or(IBV_RATE_MAX, |r| r.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entry `idx` of a text table, as the C exports' thin tables answer it: out of range is
    /// "unknown", a hole is None.
    fn lookup(table: &[Option<&'static CStr>], idx: u32) -> Option<&'static CStr> {
        match table.get(idx as usize) {
            Some(s) => *s,
            None => Some(UNKNOWN),
        }
    }

    fn node_type(v: c_int) -> Option<&'static CStr> {
        lookup(&NODE_TYPE, node_type_idx(v))
    }

    fn event_type(v: u32) -> Option<&'static CStr> {
        lookup(&EVENT_TYPE, event_type_idx(v))
    }

    fn wr_opcode(v: u32) -> Option<&'static CStr> {
        lookup(&WR_OPCODE, wr_opcode_idx(v))
    }

    #[test]
    fn ranges_and_holes() {
        assert_eq!(node_type(0), Some(UNKNOWN));
        assert_eq!(node_type(-1), Some(UNKNOWN));
        assert_eq!(node_type(4), Some(c"iWARP NIC"));
        assert_eq!(wr_opcode(12), None);
        assert_eq!(wr_opcode(15), Some(c"atomic-write"));
        assert_eq!(wr_opcode(u32::MAX), Some(UNKNOWN));
        assert_eq!(event_type(20), Some(c"Device link speed change"));
    }

    /// The C exports' thin tables hold the same entries as the text tables (each made from
    /// the other by `Thin::of`): a hole where a hole is, the string's first byte elsewhere.
    #[test]
    fn thin_tables_match() {
        fn same<const N: usize>(t: &[Option<&'static CStr>; N], c: &Thin<N>) {
            for (i, s) in t.iter().enumerate() {
                let want = s.map(|s| s.to_bytes_with_nul()[0]);
                assert_eq!(c.get(i as u32).copied(), want, "entry {i}");
            }
            assert_eq!(c.get(N as u32).copied(), Some(b'u'));
            assert_eq!(c.get(u32::MAX).copied(), Some(b'u'));
        }
        same(&NODE_TYPE, &NODE_TYPE_C);
        same(&PORT_STATE, &PORT_STATE_C);
        same(&EVENT_TYPE, &EVENT_TYPE_C);
        same(&WC_STATUS, &WC_STATUS_C);
        same(&WR_OPCODE, &WR_OPCODE_C);
    }

    #[test]
    fn rates_round_trip() {
        for &(rate, mult, mbps) in &RATES {
            assert_eq!(rate_to_mbps(rate), mbps);
            assert_eq!(mbps_to_rate(mbps), rate);
            if let Some(m) = mult {
                assert_eq!(rate_to_mult(rate), m);
                assert_eq!(mult_to_rate(m), rate);
            }
        }
        assert_eq!(rate_to_mult(IBV_RATE_MAX), -1);
        assert_eq!(rate_to_mbps(IBV_RATE_MAX), -1);
        assert_eq!(rate_to_mbps(1), -1);
        assert_eq!(rate_to_mult(25), -1);
        assert_eq!(rate_to_mbps(u32::MAX), -1);
        assert_eq!(node_type(i32::MIN), Some(UNKNOWN));
        assert_eq!(node_type(7), Some(c"unspecified"));
        assert_eq!(node_type(8), Some(UNKNOWN));
        assert_eq!(mult_to_rate(3), IBV_RATE_MAX);
    }
}
