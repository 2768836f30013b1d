//! `sys::fnmatch` (glibc's `fnmatch(p, s, 0)` through the library's copy of byte strings into C
//! strings) against glibc called directly on the same C strings: the patterns rdma-core's providers
//! ship, glibc's bracket quirks, random patterns, and hostile inputs (long, NUL inside, non-UTF-8).
//! This process never calls setlocale: the C locale, as in a program that does not.

use std::ffi::CString;

use ibverbs::sys::fnmatch::fnmatch;

fn glibc(p: &[u8], s: &[u8]) -> bool {
    let p = CString::new(p).unwrap();
    let s = CString::new(s).unwrap();
    // SAFETY: two valid NUL-terminated strings; fnmatch only reads them.
    unsafe { libc::fnmatch(p.as_ptr(), s.as_ptr(), 0) == 0 }
}

#[test]
fn rdma_core_patterns() {
    let pci = b"pci:v000015B3d00001017sv*";
    assert!(fnmatch(
        pci,
        b"pci:v000015B3d00001017sv000015B3sd00000020bc02sc00i00"
    ));
    assert!(!fnmatch(
        pci,
        b"pci:v000015B3d00001018sv000015B3sd00000020bc02sc00i00"
    ));
    assert!(!fnmatch(
        pci,
        b"pci:v000015b3d00001017sv000015B3sd00000020bc02sc00i00"
    ));
    let rxe = b"rdma_device:*Nrxe*";
    assert!(fnmatch(rxe, b"rdma_device:Nrxe0"));
    // A prefix match on the name in practice; any "N<prefix>" inside the name also counts.
    assert!(fnmatch(rxe, b"rdma_device:Nrxe_eth0"));
    assert!(!fnmatch(rxe, b"rdma_device:Nmyrxe_eth0"));
    assert!(fnmatch(rxe, b"rdma_device:NmyNrxe"));
    assert!(!fnmatch(rxe, b"rdma_device:Nsiw0"));
    let vmbus = b"vmbus:3daf2e8ca732094bab99bd1f1c86b501";
    assert!(fnmatch(vmbus, vmbus));
    assert!(!fnmatch(vmbus, b"vmbus:3daf2e8ca732094bab99bd1f1c86b5010"));
    assert!(fnmatch(b"*", b""));
    assert!(!fnmatch(b"?", b""));
}

#[test]
fn fixed_cases_agree_with_glibc() {
    let cases: &[(&str, &str)] = &[
        ("a*b", "aXXb"),
        ("a*b", "ab"),
        ("a*b", "abc"),
        ("*", "/x/.y"),
        ("?", "/"),
        (".*", ".a"),
        ("a\\*b", "a*b"),
        ("a\\*b", "aXb"),
        ("a\\", "a"),
        ("a\\", "a\\"),
        ("\\", ""),
        ("[abc]", "b"),
        ("[!abc]", "b"),
        ("[^abc]", "d"),
        ("[]a]", "]"),
        ("[!]a]", "]"),
        ("[a-c]", "b"),
        ("[c-a]", "b"),
        ("[a-]", "-"),
        ("[-a]", "-"),
        ("[--0]", "."),
        ("[a-c-e]", "-"),
        ("[a-c-e]", "e"),
        ("[a-c-e]", "d"),
        ("[\\]]", "]"),
        ("[a\\-z]", "-"),
        ("[a\\-z]", "b"),
        ("[a-\\z]", "q"),
        ("[[:alpha:]]", "q"),
        ("[[:alpha:]]", "1"),
        ("[[:digit:][:upper:]]", "Q"),
        ("[[:foo:]]", "a"),
        ("[[:foo:]", "a"),
        ("[[:alpha:]", "a"),
        ("[[:alpha:]", "[:alpha:]"),
        ("[[:Alpha:]]", "A"),
        ("[[:Alpha:]]", "["),
        ("[[:zeta:]]", "z"),
        ("[[:xdigit:]]", "f"),
        ("[[=a=]]", "a"),
        ("[[=a=]]", "b"),
        ("[[=a]", "="),
        ("[[.a.]]", "a"),
        ("[[.ab.]]", "a"),
        ("[[.a.]-c]", "b"),
        ("[[.a.]-]", "a"),
        ("[a-[.c.]]", "b"),
        ("[a-[.cd.]]", "b"),
        ("[ab", "a"),
        ("[ab", "[ab"),
        ("[", "["),
        ("[!", "[!"),
        ("[a-", "[a-"),
        ("[a-", "a"),
        ("[]", "]"),
        ("[]]", "]"),
        ("[!]", "a"),
        ("a[", "a["),
        ("*[", "x["),
        ("*[ab", "x[ab"),
        ("*?", ""),
        ("*?", "a"),
        ("**?*?", "ab"),
        ("*a*b*c", "xaybzc"),
        ("*a*b*c", "xaybzcx"),
        ("[[]", "["),
        ("[a]]", "a]"),
        ("[\\", "["),
        ("[a\\", "a"),
        ("[[:alpha:]-z]", "-"),
        ("[\\a-c]", "b"),
        ("[a-\\", "b"),
    ];
    for (p, s) in cases {
        assert_eq!(
            fnmatch(p.as_bytes(), s.as_bytes()),
            glibc(p.as_bytes(), s.as_bytes()),
            "pattern {p:?} string {s:?}"
        );
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_patterns_agree_with_glibc() {
    const PAT: &[&str] = &[
        "a",
        "b",
        "c",
        "-",
        "]",
        "[",
        "!",
        "^",
        "*",
        "?",
        "\\",
        ":",
        "=",
        ".",
        "[:alpha:]",
        "[:digit:]",
        "[:foo:]",
        "[=a=]",
        "[.a.]",
        "[.ab.]",
        "[a-c]",
        "[!a]",
        "A",
        "1",
    ];
    const STR: &[u8] = b"abc-][!^\\:=.1A ";
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut n = 0;
    for _ in 0..300_000 {
        let mut p = Vec::new();
        for _ in 0..rng.below(8) {
            p.extend_from_slice(PAT[rng.below(PAT.len())].as_bytes());
        }
        let mut s = Vec::new();
        for _ in 0..rng.below(7) {
            s.push(STR[rng.below(STR.len())]);
        }
        let ours = fnmatch(&p, &s);
        assert_eq!(
            ours,
            glibc(&p, &s),
            "pattern {:?} string {:?}",
            String::from_utf8_lossy(&p),
            String::from_utf8_lossy(&s)
        );
        n += ours as usize;
    }
    assert!(n > 1000, "too few matches ({n}) to mean much");
}

#[test]
fn hostile_inputs_agree_with_glibc() {
    let long_a = vec![b'a'; 70_000];
    let mut long_star = b"*".repeat(300);
    long_star.push(b'b');
    let cases: &[(&[u8], &[u8])] = &[
        (b"rdma_device:*N\xff*", b"rdma_device:N\xff\xfe0"),
        (b"pci:v*\xc3", b"pci:v0000\xc3"),
        (b"[\xff-\xfe]", b"\xff"),
        (b"*", &long_a),
        (&long_a, &long_a),
        (&long_star, &long_a),
        (b"[[:alpha:]", b"a"),
        (b"[", b"["),
        (b"\\", b"\\"),
    ];
    for (p, s) in cases {
        assert_eq!(
            fnmatch(p, s),
            glibc(p, s),
            "pattern {:?}",
            String::from_utf8_lossy(p)
        );
    }
    // A NUL byte ends either side, as it ends the C strings rdma-core passes.
    assert!(fnmatch(b"abc\0def", b"abc"));
    assert!(fnmatch(b"a*", b"abc\0\xff"));
    assert!(!fnmatch(b"abc\0", b"abcd"));
}
