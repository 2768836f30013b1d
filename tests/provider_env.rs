//! env.rs against libc: our strtol equals C's, and the real-environment readers work.

use std::ffi::CString;

use ibverbs::env;

fn c_strtol(s: &str, base: i32) -> i64 {
    let c = CString::new(s).unwrap();
    // SAFETY: a valid C string; endptr NULL is allowed.
    unsafe { libc::strtol(c.as_ptr(), std::ptr::null_mut(), base) }
}

#[test]
fn strtol_agrees_with_libc() {
    let samples = [
        "",
        "0",
        "1",
        "-1",
        "+7",
        "  42",
        "\t\n\x0b\x0c\r 9",
        "0x",
        "0X1F",
        "0xg",
        "-0x10",
        "010",
        "08",
        "0",
        "00",
        "1e5",
        "abc",
        " -",
        "+",
        "9223372036854775807",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775809",
        "99999999999999999999999",
        "0x7fffffffffffffff",
        "0x8000000000000000",
        "-0x8000000000000000",
        "0777",
        "4294967295",
        "4294967296",
        "- 1",
    ];
    for s in samples {
        for base in [0, 10, 16, 8] {
            assert_eq!(
                env::c_strtol(s.as_bytes(), base as u32),
                c_strtol(s, base),
                "{s:?} base {base}"
            );
        }
    }
}

#[test]
fn real_environment() {
    assert_eq!(env::real("IBVERBS_RS_TEST_SURELY_UNSET"), None);
    assert_eq!(
        env::real("PATH").is_some(),
        std::env::var_os("PATH").is_some()
    );
    assert!(env::trusted(), "test binaries run without secure execution");
    assert_eq!(env::IBVERBS_RS_CONFIG_DIR, "IBVERBS_RS_CONFIG_DIR");
}
