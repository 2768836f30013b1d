//! The stub ratchet: `stubs.txt` lists exactly the exported symbols whose behaviour has not come yet.
//!
//! A stub is an export whose body returns `errno::unimplemented("<symbol>")` (EOPNOTSUPP through
//! the export's own C convention). The list and the source must agree both ways: a new stub must be
//! listed, and an implemented symbol must leave the list, so the list only ever shrinks honestly.
use std::collections::BTreeSet;
use std::path::Path;

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).expect("read src") {
        let p = e.expect("dir entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn stubs_txt_matches_the_source() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listed: BTreeSet<String> = std::fs::read_to_string(root.join("stubs.txt"))
        .expect("stubs.txt")
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
        .filter(|l| !l.is_empty())
        .collect();

    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    let needle = "unimplemented(\"";
    let mut found = BTreeSet::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("read source");
        for (i, _) in text.match_indices(needle) {
            let rest = &text[i + needle.len()..];
            let name = &rest[..rest.find('"').expect("closing quote")];
            found.insert(name.to_string());
        }
    }

    let target = std::fs::read_to_string(root.join("../shared/abi/symbols-target.txt"))
        .expect("../shared/abi/symbols-target.txt");
    // A stub is named by its symbol (`ibv_alloc_pd`) or, for one version of a name exported
    // twice, by `name@VERSION` as the target list writes it (`ibv_alloc_pd@IBVERBS_1.0`).
    let mut exported: BTreeSet<&str> = target.lines().filter_map(|l| l.split('@').next()).collect();
    exported.extend(target.lines().filter(|l| !l.contains("@@")));
    // The provider ABI 65 node (src/capi/pabi65) exports rdma-core v65's private names too.
    let v65 = std::fs::read_to_string(root.join("../shared/abi/symbols-v65.0.txt"))
        .expect("../shared/abi/symbols-v65.0.txt");
    exported.extend(v65.lines().filter(|l| l.ends_with("@IBVERBS_PRIVATE_65")).filter_map(|l| l.split('@').next()));

    let unlisted: Vec<_> = found.difference(&listed).collect();
    let implemented: Vec<_> = listed.difference(&found).collect();
    let unknown: Vec<_> = listed.iter().filter(|s| !exported.contains(s.as_str())).collect();
    assert!(unlisted.is_empty(), "stubs in the source but not in stubs.txt: {unlisted:?}");
    assert!(
        implemented.is_empty(),
        "listed in stubs.txt but no longer stubbed (remove them from the list): {implemented:?}"
    );
    assert!(unknown.is_empty(), "stubs.txt names symbols that are not exported: {unknown:?}");
}
