//! Reading `/etc/libibverbs.d` (or `IBVERBS_RS_CONFIG_DIR`) costs memory bounded by one line's
//! state, whatever the files hold. Was: each file read whole and every bad line quoted whole
//! (a 512 MiB file of comments took 526 MB, a 1 GiB line of NULs 4.2 GB). Alone in its test
//! binary, so the process's peak memory is this test's.
use std::io::Write;

use ibverbs::provider::config;

fn max_rss_kib() -> i64 {
    // SAFETY: getrusage fills the struct we pass.
    let mut u: libc::rusage = unsafe { core::mem::zeroed() };
    // SAFETY: getrusage writes only into `u`, a live local of its type.
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) }, 0);
    u.ru_maxrss
}

#[test]
fn huge_config_files_cost_bounded_memory() {
    let dir = std::env::temp_dir().join(format!("ibverbs-config-bounded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // One 256 MiB line of NULs (a sparse file: nothing on disk).
    let nul = std::fs::File::create(dir.join("nul")).unwrap();
    nul.set_len(256 << 20).unwrap();
    // 32 MiB of comments, a driver line in the middle and a bad one at the end.
    let mut c = std::io::BufWriter::new(std::fs::File::create(dir.join("comments")).unwrap());
    let line = b"# a comment line of some length, over and over again ........\n".repeat(1024);
    for i in 0..(32 << 20) / line.len() {
        c.write_all(&line).unwrap();
        if i == 100 {
            c.write_all(b"driver rxe\n").unwrap();
        }
    }
    c.write_all(b"bogus\n").unwrap();
    c.flush().unwrap();
    drop(c);

    let before = max_rss_kib();
    let scan = config::scan_dir(&dir);
    let grown_mib = (max_rss_kib() - before) / 1024;
    std::fs::remove_dir_all(&dir).unwrap();

    assert!(grown_mib < 16, "peak memory grew by {grown_mib} MiB");
    let names: Vec<_> = scan
        .files
        .iter()
        .flat_map(|f| f.names.iter().map(|(_, n)| n.clone()))
        .collect();
    assert_eq!(names, ["rxe"]);
    let mut texts: Vec<_> = scan.diagnostics.iter().map(|d| d.text.clone()).collect();
    texts.sort();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(
        texts[0].starts_with("Warning: ignoring bad config directive '' in file"),
        "{texts:?}"
    );
    assert!(
        texts[1].starts_with("Warning: ignoring bad config directive 'bogus' in file"),
        "{texts:?}"
    );
}
