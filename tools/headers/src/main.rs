//! `ibverbs-headers`: the generated headers in include/infiniband/, made by cbindgen from the
//! Rust types and the `#[export]` declarations.
//!
//! `make headers` runs it to write them; `make lint` runs it with `--check`, which writes nothing
//! and fails with a diff when a committed header is not what it makes. Three headers, split by
//! where an item is declared ([`config::HEADERS`]):
//! - verbs.h: the types of src/abi/verbs* and the public exports (IBVERBS_1.x nodes);
//! - kern-abi.h: the types of src/abi/kern_abi* (provider command structs);
//! - driver.h: the types of src/abi/driver* and the IBVERBS_PRIVATE_* exports.
//!
//! The kernel uapi mirrors (src/abi/uapi) are not emitted: the headers include linux-libc-dev's
//! `<rdma/*.h>`. The other installed headers are hand-written ([`config::HAND_WRITTEN`], checked
//! here to be the only others in include/infiniband/).
//!
//! Rewrites after cbindgen, because C can say what a Rust type cannot:
//! - a field `anon_N` of a type `<parent>_anon_N` becomes an anonymous struct/union member, so C
//!   code names the members as it does with rdma-core's headers (`wc.imm_data`): [`order`];
//! - a `bitfield_N` storage field documented `bitfield: a:1, b:1` becomes C bitfields: [`spell`];
//! - definitions are re-ordered so by-value members come first, and every tag is declared up
//!   front (cbindgen does not tell pointer from value dependencies): [`order`];
//! - C variadics get their `...` back, and functions the other header owns are dropped.
//!
//! Usage: `ibverbs-headers [--check]` (the repository is found from this crate's place in it).

mod config;
mod contract;
mod decls;
mod forward;
mod generate;
mod order;
mod scan;
mod spell;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use config::{HAND_WRITTEN, HEADERS};

fn main() -> ExitCode {
    let check = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--check") => true,
        Some(other) => {
            eprintln!(
                "ibverbs-headers: unknown argument {other:?}; usage: ibverbs-headers [--check]"
            );
            return ExitCode::from(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let root = root.canonicalize().unwrap_or(root);
    let decls = decls::declarations(&root);
    let mut stale = Vec::new();
    for h in &HEADERS {
        let fresh = generate::generate(&root, h, &decls);
        let path = root.join(h.file);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed == fresh {
            continue;
        }
        if check {
            show_diff(&path, &fresh);
            stale.push(h.file);
        } else {
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir include");
            std::fs::write(&path, fresh).expect("write header");
            println!("ibverbs-headers: wrote {}", h.file);
        }
    }
    let mut failed = !stale.is_empty();
    if failed {
        eprintln!(
            "ibverbs-headers: stale generated headers {stale:?}: run `make headers` and commit them"
        );
    }
    if let Err(e) = only_known_headers(&root) {
        eprintln!("ibverbs-headers: {e}");
        failed = true;
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `diff -u` of the committed header against the fresh one (written beside the build's output).
fn show_diff(path: &Path, fresh: &str) {
    let name = path.file_name().expect("file name").to_string_lossy();
    let tmp: PathBuf =
        std::env::temp_dir().join(format!("ibverbs-headers-{}-{name}", std::process::id()));
    std::fs::write(&tmp, fresh).expect("write the fresh header");
    let status = Command::new("diff").arg("-u").arg(path).arg(&tmp).status();
    if status.is_err() {
        eprintln!(
            "ibverbs-headers: {} differs (no `diff` to show how)",
            path.display()
        );
    }
    let _ = std::fs::remove_file(&tmp);
}

/// Every installed header is either generated or written by hand, and listed.
fn only_known_headers(root: &Path) -> Result<(), String> {
    let mut known: BTreeSet<String> = HEADERS.iter().map(|h| h.file.to_string()).collect();
    known.extend(HAND_WRITTEN.iter().map(|f| f.to_string()));
    let mut present = BTreeSet::new();
    let dir = std::fs::read_dir(root.join("include/infiniband"))
        .map_err(|e| format!("include/infiniband: {e}"))?;
    for e in dir.flatten() {
        present.insert(format!(
            "include/infiniband/{}",
            e.file_name().to_string_lossy()
        ));
    }
    let unknown: Vec<_> = present.difference(&known).collect();
    let missing: Vec<_> = known.difference(&present).collect();
    if !unknown.is_empty() {
        return Err(format!(
            "headers neither generated nor listed in HAND_WRITTEN: {unknown:?}"
        ));
    }
    if !missing.is_empty() {
        return Err(format!(
            "headers missing from include/infiniband: {missing:?}"
        ));
    }
    Ok(())
}
