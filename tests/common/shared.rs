//! ../shared beside the checkout (the ABI facts in `abi/`, rdma-core's sources in `rdma-core/`),
//! or `$IBVERBS_RS_SHARED`. A test that compares with it and finds it missing says so on one line
//! and returns: `cargo test` passes without it (`make test` stops first, asking for it).

use std::path::PathBuf;

/// The shared folder: `$IBVERBS_RS_SHARED`, else `../shared` beside the checkout.
pub fn dir() -> PathBuf {
    std::env::var_os("IBVERBS_RS_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared")))
}

/// The path of `rel` in the shared folder, or None (and one line saying the caller is skipped)
/// when it is not there.
pub fn file(rel: &str) -> Option<PathBuf> {
    let p = dir().join(rel);
    if p.exists() {
        return Some(p);
    }
    eprintln!(
        "skipped: {} is missing (the shared folder must sit beside the checkout: README, \"Set up and run\")",
        p.display()
    );
    None
}
