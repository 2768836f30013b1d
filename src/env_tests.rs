//! Tests of `env`: the parsing rules of every variable as rdma-core applies them (numbers as
//! `strtol`, the log, driver and sysfs variables), secure execution ignoring what picks files,
//! and the inventory of names.
use super::*;

fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
    move |k| {
        pairs
            .iter()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| OsString::from(v))
    }
}

#[test]
fn check_env_rules() {
    assert!(!flag(None));
    assert!(!flag(Some(OsStr::new("0"))));
    for on in ["", "1", "00", " 0", "0 ", "no", "false", "yes"] {
        assert!(flag(Some(OsStr::new(on))), "{on:?}");
    }
    assert!(present(Some(OsStr::new("0"))));
    assert!(fork_safe(env(&[
        ("IBV_FORK_SAFE", "1"),
        ("RDMAV_FORK_SAFE", "0")
    ])));
    assert!(!fork_safe(env(&[
        ("IBV_FORK_SAFE", "0"),
        ("RDMAV_FORK_SAFE", "0")
    ])));
    assert!(fork_safe(env(&[("RDMAV_FORK_SAFE", "")])));
    assert!(hugepages_safe(env(&[("RDMAV_HUGEPAGES_SAFE", "0")])));
    assert!(!hugepages_safe(env(&[])));
    assert!(allow_disassoc_destroy(env(&[(
        "MLX4_DEVICE_FATAL_CLEANUP",
        "y"
    )])));
    assert!(!allow_disassoc_destroy(env(&[(
        "RDMAV_ALLOW_DISASSOC_DESTROY",
        "0"
    )])));
    assert!(show_warnings(env(&[("IBV_SHOW_WARNINGS", "0")])));
}

#[test]
fn strtol() {
    let t = |s: &str| c_strtol(s.as_bytes(), 0);
    assert_eq!(t("3"), 3);
    assert_eq!(t(" \t+3x"), 3);
    assert_eq!(t("0x10"), 16);
    assert_eq!(t("0X1f"), 31);
    assert_eq!(t("010"), 8);
    assert_eq!(t("08"), 0);
    assert_eq!(t("0x"), 0);
    assert_eq!(t("0xg"), 0);
    assert_eq!(t("-1"), -1);
    assert_eq!(t(""), 0);
    assert_eq!(t("abc"), 0);
    assert_eq!(t("99999999999999999999"), i64::MAX);
    assert_eq!(t("-99999999999999999999"), i64::MIN);
    assert_eq!(t("9223372036854775807"), i64::MAX);
    assert_eq!(t("-9223372036854775808"), i64::MIN);
    assert_eq!(c_strtol(b"123", 10), 123);
    assert_eq!(c_strtol(b"0123", 10), 123);
}

#[test]
fn log() {
    let off = LogSettings {
        level: 0,
        file: None,
        stderr: false,
    };
    assert_eq!(log_settings(env(&[]), true), off);
    // No file: standard error (rdma-core's release builds: nothing).
    assert_eq!(
        log_settings(env(&[("VERBS_LOG_LEVEL", "4")]), true),
        LogSettings {
            level: 4,
            file: None,
            stderr: true
        }
    );
    assert_eq!(
        log_settings(
            env(&[("VERBS_LOG_LEVEL", "-1"), ("VERBS_LOG_FILE", "/x")]),
            true
        ),
        LogSettings {
            level: u32::MAX,
            file: Some("/x".into()),
            stderr: false
        }
    );
    // Secure execution: the file is never named, the level goes to stderr.
    assert_eq!(
        log_settings(
            env(&[("VERBS_LOG_LEVEL", "4"), ("VERBS_LOG_FILE", "/x")]),
            false
        ),
        LogSettings {
            level: 4,
            file: None,
            stderr: true
        }
    );
    assert_eq!(log_settings(env(&[("VERBS_LOG_FILE", "/x")]), false), off);
    // strtol stops at the first non-digit.
    assert_eq!(
        log_settings(
            env(&[("VERBS_LOG_LEVEL", "1e99"), ("VERBS_LOG_FILE", "/x")]),
            true
        )
        .level,
        1
    );
    // strtol saturates to LONG_MAX, whose low 32 bits are all ones.
    assert_eq!(
        log_settings(
            env(&[
                ("VERBS_LOG_LEVEL", "99999999999999999999"),
                ("VERBS_LOG_FILE", "f")
            ]),
            true
        )
        .level,
        u32::MAX
    );
    assert_eq!(
        log_settings(
            env(&[("VERBS_LOG_LEVEL", "0x0"), ("VERBS_LOG_FILE", "f")]),
            true
        )
        .level,
        0
    );
}

#[test]
fn drivers() {
    let n = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
    assert_eq!(driver_names(env(&[]), true), None);
    assert_eq!(
        driver_names(
            env(&[("RDMAV_DRIVERS", "a:b;c"), ("IBV_DRIVERS", "x")]),
            true
        ),
        Some((RDMAV_DRIVERS, n(&["a", "b", "c"])))
    );
    assert_eq!(
        driver_names(env(&[("RDMAV_DRIVERS", ""), ("IBV_DRIVERS", "x")]), true),
        Some((RDMAV_DRIVERS, n(&[""])))
    );
    assert_eq!(
        driver_names(env(&[("IBV_DRIVERS", "x::/p/y;")]), true),
        Some((IBV_DRIVERS, n(&["x", "", "/p/y", ""])))
    );
    assert_eq!(
        driver_names(env(&[("IBV_DRIVERS", "a,b")]), true),
        Some((IBV_DRIVERS, n(&["a,b"])))
    );
    assert_eq!(driver_names(env(&[("RDMAV_DRIVERS", "a")]), false), None);
}

#[test]
fn sysfs() {
    assert_eq!(sysfs_path(env(&[]), true), "/sys");
    assert_eq!(
        sysfs_path(env(&[("SYSFS_PATH", "/tmp/s///")]), true),
        "/tmp/s"
    );
    assert_eq!(sysfs_path(env(&[("SYSFS_PATH", "/")]), true), "");
    assert_eq!(sysfs_path(env(&[("SYSFS_PATH", "/tmp/s")]), false), "/sys");
    let long = format!("/{}", "a".repeat(300));
    assert_eq!(
        sysfs_path(env(&[("SYSFS_PATH", &long)]), true).len(),
        IBV_SYSFS_PATH_MAX
    );
}

#[test]
fn secure_mode_ignores_what_picks_files() {
    let all: Vec<(&str, &str)> = VARS.iter().map(|v| (v.name, "/attacker")).collect();
    assert!(ignored_in_secure_mode(env(&all), true).is_empty());
    let ignored = ignored_in_secure_mode(env(&all), false);
    assert_eq!(
        ignored,
        [
            VERBS_LOG_FILE,
            RDMAV_DRIVERS,
            IBV_DRIVERS,
            SYSFS_PATH,
            IBVERBS_RS_CONFIG_DIR,
            IBVERBS_RS_PROVIDER_DIR
        ]
    );
    assert_eq!(driver_names(env(&all), false), None);
    assert_eq!(sysfs_path(env(&all), false), "/sys");
    assert_eq!(config_dir_override(env(&all), false), None);
    assert_eq!(provider_dir_override(env(&all), false), None);
    assert_eq!(
        log_settings(
            env(&[("VERBS_LOG_LEVEL", "4"), ("VERBS_LOG_FILE", "/victim")]),
            false
        )
        .file,
        None
    );
}

#[test]
fn inventory_is_unique() {
    let mut names: Vec<_> = VARS.iter().map(|v| v.name).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), VARS.len());
    assert_eq!(VARS.iter().filter(|v| v.rdma_core).count(), 11);
}
