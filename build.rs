//! Compiles the C shim for the provider ABI's one variadic, `__verbs_log`.
fn main() {
    println!("cargo:rerun-if-changed=src/shim/verbs_log.c");
    cc::Build::new()
        .file("src/shim/verbs_log.c")
        .flag_if_supported("-fvisibility=default")
        .warnings(true)
        .compile("ibverbs_shim");
}
