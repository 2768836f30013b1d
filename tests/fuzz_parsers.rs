//! Deterministic mutation fuzzing of what the library parses from outside: configuration files,
//! sysfs values and trees, RDMA netlink and NETLINK_ROUTE replies. A fixed-seed generator mutates
//! real inputs (flipped bits, interesting bytes, insertions, deletions, splices) for a bounded
//! number of cases, so every run tries the same inputs in a few seconds.
//!
//! Where a reference exists the result is compared with it: glibc's own `strtoul`/`strtol`/
//! `sscanf` for sysfs numbers (what rdma-core calls), a direct transcription of rdma-core's line
//! rule for config files. Elsewhere the property is "returns, within bounds" (a panic here would
//! be an abort in the user's process).

use std::ffi::{CString, OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::Path;

use ibverbs::device::{self, netlink, nldev, rtnl, scan};
use ibverbs::errno::Errno;
use ibverbs::provider::config::{self, Line, LineScanner, MAX_WORD};

/// xorshift64*: small, fixed, good enough to pick mutations.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const INTERESTING: &[u8] = b"\0\n\t \r#:;-+0179afxX\xff\x80\x7f";

/// One to eight mutations of `seed` (and maybe a splice from `other`), at most `max` bytes.
fn mutate(r: &mut Rng, seed: &[u8], other: &[u8], max: usize) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + r.below(8) {
        let at = r.below(v.len() + 1);
        match r.below(7) {
            0 if !v.is_empty() => {
                let i = r.below(v.len());
                v[i] ^= 1 << r.below(8);
            }
            1 if !v.is_empty() => {
                let i = r.below(v.len());
                v[i] = INTERESTING[r.below(INTERESTING.len())];
            }
            2 => {
                let n = 1 + r.below(8);
                for _ in 0..n {
                    v.insert(at.min(v.len()), INTERESTING[r.below(INTERESTING.len())]);
                }
            }
            3 if !v.is_empty() => {
                let end = (at + 1 + r.below(16)).min(v.len());
                v.drain(at.min(end)..end);
            }
            4 if !other.is_empty() => {
                let from = r.below(other.len());
                let end = (from + 1 + r.below(32)).min(other.len());
                let tail = v.split_off(at.min(v.len()));
                v.extend_from_slice(&other[from..end]);
                v.extend_from_slice(&tail);
            }
            5 => v.truncate(at),
            _ => v.insert(at.min(v.len()), r.next() as u8),
        }
    }
    v.truncate(max);
    v
}

/// rdma-core's `read_config_file` rule for one line as `getline` returns it, transcribed
/// plainly (the library's own is a streaming state machine).
fn reference_line(line: &[u8]) -> Line {
    let text = &line[..line.iter().position(|&c| c == 0).unwrap_or(line.len())];
    let start = text
        .iter()
        .position(|&c| c != b' ' && c != b'\t')
        .unwrap_or(text.len());
    let config = &text[start..];
    match config.first() {
        Some(b'\n') => return Line::Blank,
        Some(b'#') => return Line::Comment,
        _ => {}
    }
    let sep = |c: &u8| matches!(c, b'\n' | b'\t' | b' ');
    let (field, rest) = match config.iter().position(sep) {
        Some(k) => (&config[..k], Some(&config[k + 1..])),
        None => (config, None),
    };
    let cap = |w: &[u8]| w[..w.len().min(MAX_WORD)].to_vec();
    match rest {
        Some(rest) if field == b"driver" => {
            let s = rest
                .iter()
                .position(|&c| c != b' ' && c != b'\t')
                .unwrap_or(rest.len());
            let name = &rest[s..];
            Line::Driver(cap(&name[..name.iter().position(sep).unwrap_or(name.len())]))
        }
        _ => Line::Bad(cap(field)),
    }
}

#[test]
fn config_files_parse_as_rdma_core_parses_them() {
    let seeds: &[&[u8]] = &[
        b"driver mlx5\n",
        b"# comment\n\ndriver rxe\ndriver  \t siw extra\n",
        b"  driver\tbnxt_re\r\n",
        b"bogus directive here\ndriver\n",
        b"driver /opt/lib/libfoo\n#driver x\n   \n",
        b"driver a\0b\n\0driver c\ndri\0ver d",
    ];
    let mut r = Rng(0x5eed_c0f1);
    for case in 0..3000 {
        let a = seeds[r.below(seeds.len())];
        let b = seeds[r.below(seeds.len())];
        let text = mutate(&mut r, a, b, 512);
        // The reference, line by line as getline splits them.
        let mut want_names = Vec::new();
        let mut want_bad = Vec::new();
        for (i, l) in text.split_inclusive(|&c| c == b'\n').enumerate() {
            match reference_line(l) {
                Line::Driver(n) => want_names.push((i + 1, OsString::from_vec(n))),
                Line::Bad(w) => want_bad.push(w),
                _ => {}
            }
        }
        let (names, diags) = config::parse_file(Path::new("/f"), &text);
        assert_eq!(
            names,
            want_names,
            "case {case}: {:?}",
            text.escape_ascii().to_string()
        );
        let bad: Vec<String> = want_bad
            .iter()
            .map(|w| {
                format!(
                    "Warning: ignoring bad config directive '{}' in file '/f'.",
                    String::from_utf8_lossy(w)
                )
            })
            .collect();
        let got: Vec<String> = diags.iter().map(|d| d.text.clone()).collect();
        assert_eq!(
            got,
            bad,
            "case {case}: {:?}",
            text.escape_ascii().to_string()
        );
        // Any chunking gives the same lines.
        let mut s = LineScanner::default();
        let mut lines = Vec::new();
        let mut at = 0;
        while at < text.len() {
            let n = 1 + r.below(17);
            let end = (at + n).min(text.len());
            s.feed(&text[at..end], &mut |n, l, _| lines.push((n, l)));
            at = end;
        }
        s.end(&mut |n, l, _| lines.push((n, l)));
        let chunked: Vec<_> = lines
            .into_iter()
            .filter_map(|(n, l)| {
                if let Line::Driver(d) = l {
                    Some((n, OsString::from_vec(d)))
                } else {
                    None
                }
            })
            .collect();
        assert_eq!(chunked, want_names, "case {case} chunked");
    }
}

/// The C string of `b` (up to its first NUL), NUL-terminated, for glibc.
fn c(b: &[u8]) -> CString {
    CString::new(scan::c_str(b)).unwrap()
}

#[test]
fn sysfs_numbers_scan_as_glibc_scans_them() {
    let seeds: &[&[u8]] = &[
        b"231:192\n",
        b"1: CA\n",
        b"0002:c903:0000:1234\n",
        b"6\n",
        b" -4",
        b"0x1f:07",
        b"4294967302",
    ];
    let mut r = Rng(0xabad_1dea);
    for case in 0..4000 {
        let a = seeds[r.below(seeds.len())];
        let b = seeds[r.below(seeds.len())];
        let v = mutate(&mut r, a, b, 40);
        let s = c(&v);
        let shown = v.escape_ascii().to_string();
        // SAFETY: s is NUL-terminated; the formats' conversions get pointers of the right types.
        unsafe {
            let ul = libc::strtoul(s.as_ptr(), core::ptr::null_mut(), 10);
            assert_eq!(
                scan::strtoul10(&v).0,
                ul as u64,
                "case {case} strtoul {shown}"
            );
            let l = libc::strtol(s.as_ptr(), core::ptr::null_mut(), 10);
            assert_eq!(
                scan::strtol10_int(&v).0,
                l as i32,
                "case {case} strtol {shown}"
            );
            let (mut ma, mut mi) = (0u32, 0u32);
            let n = libc::sscanf(s.as_ptr(), c"%u:%u".as_ptr(), &mut ma, &mut mi);
            assert_eq!(
                scan::scan_major_minor(&v),
                (n == 2).then_some((ma, mi)),
                "case {case} %u:%u {shown}"
            );
            let (mut p0, mut p1, mut p2, mut p3) = (0u16, 0u16, 0u16, 0u16);
            let n = libc::sscanf(
                s.as_ptr(),
                c"%hx:%hx:%hx:%hx".as_ptr(),
                &mut p0,
                &mut p1,
                &mut p2,
                &mut p3,
            );
            let guid = [p0, p1, p2, p3]
                .iter()
                .fold(0u64, |g, &x| (g << 16) | u64::from(x));
            assert_eq!(
                scan::parse_node_guid(&v),
                (n == 4).then_some(guid),
                "case {case} guid {shown}"
            );
        }
    }
}

#[test]
fn sysfs_walk_survives_random_trees() {
    let base = std::env::temp_dir().join(format!("ibverbs-fuzz-sysfs-{}", std::process::id()));
    let values: &[&[u8]] = &[
        b"rxe0\n",
        b"231:192\n",
        b"1\n",
        b"6\n",
        b"7021:abff:fe8a:f353\n",
        b"1: CA\n",
    ];
    let names: &[&[u8]] = &[b"uverbs0", b"uverbs1", b"rxe0", b"mlx5_0"];
    let mut r = Rng(0x0dd_7ee5);
    for case in 0..60 {
        let root = base.join(format!("{case}"));
        let sys = root.join("sys");
        let cdev = root.join("dev");
        let class = sys.join("class/infiniband_verbs");
        std::fs::create_dir_all(&class).unwrap();
        std::fs::create_dir_all(sys.join("class/infiniband")).unwrap();
        std::fs::create_dir_all(&cdev).unwrap();
        std::fs::write(class.join("abi_version"), mutate(&mut r, b"6\n", b"", 16)).unwrap();
        for _ in 0..r.below(5) {
            let pick = r.below(2);
            let uv = mutate(&mut r, names[pick], b"", 40);
            if uv.is_empty() || uv.contains(&b'/') || uv.contains(&0) || uv == b"." || uv == b".." {
                continue;
            }
            let d = class.join(OsStr::from_bytes(&uv));
            if std::fs::create_dir_all(&d).is_err() {
                continue;
            }
            let _ = std::fs::write(cdev.join(OsStr::from_bytes(&uv)), b"");
            let pick = 2 + r.below(2);
            let ib = mutate(&mut r, names[pick], b"", 70);
            let mut ibdev = ib.clone();
            ibdev.push(b'\n');
            let other = values[r.below(values.len())];
            let dev = mutate(&mut r, values[1], other, 40);
            let abi = mutate(&mut r, b"1\n", b"", 10);
            for (f, v) in [("ibdev", ibdev), ("dev", dev), ("abi_version", abi)] {
                let _ = std::fs::write(d.join(f), v);
            }
            let ib = scan::c_str(&ib);
            if !ib.is_empty() && !ib.contains(&b'/') && ib != b"." && ib != b".." {
                let ibd = sys.join("class/infiniband").join(OsStr::from_bytes(ib));
                if std::fs::create_dir_all(&ibd).is_ok() {
                    let _ = std::fs::write(
                        ibd.join("node_type"),
                        mutate(&mut r, values[2], values[5], 40),
                    );
                    let _ =
                        std::fs::write(ibd.join("node_guid"), mutate(&mut r, values[4], b"", 40));
                }
            }
        }
        let e = device::enumerate_with(&sys, &cdev, None);
        if let Ok(e) = e {
            for d in &e.devices {
                assert!(
                    d.sysfs_name.len() < 64 && d.ibdev_name.len() < 64,
                    "case {case}: {d:?}"
                );
                assert!(d.ibdev_path.as_os_str().len() < 256, "case {case}: {d:?}");
            }
        }
    }
    std::fs::remove_dir_all(&base).unwrap();
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Replies captured in the rdma-vm guest (tests/device_netlink.rs has them too).
const DUMP_RXE0: &str = "6c000000011402000100000080000000080001000000000009000200727865300000000008000300010000000c000400763c2201000000000c000600e534f5fefff9c9d80c000700e534f5fefff9c9d805000e0001000000050054000000000009004300726f636500000000";
const DUMP_DONE: &str = "1400000003000200010000008000000000000000";
const CHARDEV_RXE0: &str = "3c0000000f1400000200000080000000080049000e0000000c004800c0e70000000000000c00470002000000000000000c0046007576657262733000";
const CHARDEV_BAD_IDX: &str = "38000000020000000300000080000000eaffffff240000000f140100030000000000000008000100630000000b0045007576657262730000";

struct Replies(std::collections::VecDeque<Vec<u8>>);

impl nldev::NlTransport for Replies {
    fn send(&mut self, _: &[u8]) -> Result<(), Errno> {
        Ok(())
    }
    fn recv(&mut self) -> Result<Vec<u8>, Errno> {
        self.0.pop_front().ok_or(Errno::EAGAIN)
    }
}

#[test]
fn rdma_netlink_replies_never_panic() {
    let seeds: Vec<Vec<u8>> = [DUMP_RXE0, DUMP_DONE, CHARDEV_RXE0, CHARDEV_BAD_IDX]
        .iter()
        .map(|h| hex(h))
        .collect();
    let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake-sysfs/two-devices");
    let mut r = Rng(0x6e7_11e4);
    for case in 0..3000 {
        let a = &seeds[r.below(seeds.len())];
        let b = &seeds[r.below(seeds.len())];
        let d = mutate(&mut r, a, b, 256);
        if let Ok(msgs) = netlink::split_datagram(&d) {
            for m in msgs {
                let _ = netlink::error_code(m.payload);
                let _ = netlink::done_status(m.payload);
                if let Ok(Ok(info)) = netlink::decode_dev(m.payload) {
                    assert!(!info.name.as_bytes().contains(&0), "case {case}");
                }
                if let Ok(Ok(c)) = netlink::decode_chardev(m.payload) {
                    assert!(!c.name.as_bytes().contains(&0), "case {case}");
                }
                if let Ok(attrs) = netlink::Attrs::parse(m.payload) {
                    let _ = (attrs.u8(1), attrs.u32(1), attrs.u64(3), attrs.cstr(2));
                }
            }
        }
        // A whole enumeration fed mutated replies (a dump, then the chardev answers).
        if case % 10 == 0 {
            let replies = (0..1 + r.below(4))
                .map(|_| mutate(&mut r, a, b, 256))
                .collect();
            let mut t = Replies(replies);
            let _ =
                nldev::find_sysfs_devs_nl(&tree.join("sys"), &tree.join("dev/infiniband"), &mut t);
        }
    }
}

#[test]
fn route_netlink_replies_never_panic() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rtnl");
    let mut seeds = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let t = std::fs::read_to_string(e.unwrap().path()).unwrap();
        seeds.push(hex(t.trim()));
    }
    seeds.sort();
    let mut r = Rng(0x4071_e5ee);
    for case in 0..3000 {
        let a = &seeds[r.below(seeds.len())];
        let b = &seeds[r.below(seeds.len())];
        let d = mutate(&mut r, a, b, 1024);
        for dump in [false, true] {
            let mut c = rtnl::Collector::new(r.next() as u32 % 200, dump);
            if c.feed(&d).is_ok() {
                for (_, payload) in c.into_reply().msgs {
                    let _ = rtnl::decode_route(&payload);
                    let _ = rtnl::decode_link(&payload);
                    let _ = rtnl::decode_neigh(&payload);
                    let _ = rtnl::decode_addr(&payload);
                    assert!(
                        rtnl::attrs(&payload).len() <= payload.len() / 4 + 1,
                        "case {case}"
                    );
                }
            }
        }
    }
}
