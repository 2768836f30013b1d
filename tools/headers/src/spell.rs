//! C spellings of what Rust says otherwise: bitfields, `enum` and `__beN` types, flexible arrays,
//! later provider ABIs' members, `atomic_int`, guarded definitions and the preludes.

use std::path::Path;

use crate::config::GUARDED_DEFINITIONS;
use crate::order::find_block;

/// A Rust `bitfield_N` storage field documented `bitfield: a:1, b:2` becomes C bitfields.
pub(crate) fn expand_bitfields(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut spec: Option<String> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(s) = t.strip_prefix("// bitfield:") {
            spec = Some(s.trim().to_string());
            continue;
        }
        if let Some(s) = spec.take() {
            let indent = &line[..line.len() - t.len()];
            let ty = t.split_whitespace().next().unwrap_or("unsigned");
            if t.contains(" bitfield_") {
                for part in s.split(',') {
                    out.push(format!("{indent}{ty} {};", part.trim()));
                }
                continue;
            }
            out.push(format!("{indent}// bitfield: {s}"));
        }
        out.push(line.to_string());
    }
    let mut s = out.join("\n");
    s.push('\n');
    s
}

/// `CEnum_<E>` (cbindgen's name for `CEnum<E>`, a typedef of `uint32_t`) becomes `enum <E>`, and
/// `Be16`/`Be32`/`Be64` become `__be16`/`__be32`/`__be64` (from <linux/types.h>); their typedefs go.
pub(crate) fn spell_c_types(text: &str) -> String {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("typedef ")
            && (t.contains(" CEnum_")
                || ["Be16;", "Be32;", "Be64;"]
                    .iter()
                    .any(|b| t.trim_end().ends_with(b)))
        {
            // and its doc comment, already written
            while let Some(last) = out
                .strip_suffix('\n')
                .map(|o| o.rsplit('\n').next().unwrap_or(o))
            {
                if !last.starts_with("//") {
                    break;
                }
                out.truncate(out.len() - last.len() - 1);
            }
            continue;
        }
        let mut l = String::with_capacity(line.len());
        let mut rest = line;
        while let Some(pos) = rest.find(['C', 'B']) {
            let (head, tail) = rest.split_at(pos);
            l.push_str(head);
            let word_start = !l.ends_with(is_ident);
            if word_start && tail.starts_with("CEnum_") {
                l.push_str("enum ");
                rest = &tail["CEnum_".len()..];
                continue;
            }
            let be = ["Be16", "Be32", "Be64"]
                .iter()
                .find(|b| tail.starts_with(**b));
            if let (true, Some(b)) = (word_start, be) {
                if !tail[b.len()..].starts_with(is_ident) {
                    l.push_str("__be");
                    l.push_str(&b[2..]);
                    rest = &tail[b.len()..];
                    continue;
                }
            }
            l.push_str(&tail[..1]);
            rest = &tail[1..];
        }
        l.push_str(rest);
        out.push_str(&l);
    }
    out
}

/// In the kernel command layouts a Rust `[T; 0]` is C's flexible array member `T x[]`, as
/// rdma-core declares them, unless its doc says `zero-length array` (the one `[0]` rdma-core has).
pub(crate) fn flexible_arrays(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut zero_length = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("// zero-length array") {
            zero_length = true;
        } else if !t.starts_with("//") {
            if !zero_length && t.ends_with("[0];") && !t.starts_with('#') {
                out.push(line.replace("[0];", "[];"));
                continue;
            }
            zero_length = false;
        }
        out.push(line.to_string());
    }
    let mut s = out.join("\n");
    s.push('\n');
    s
}

/// Silence `-Wpedantic` from after the last `#include` to the end of the generated part: the
/// kernel command layouts nest structs that end in flexible arrays and use zero-length arrays
/// (GNU C, as the kernel's and rdma-core's own headers do). Everything else still warns.
pub(crate) fn exempt_from_pedantic(text: &str, guard: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let close = format!("#endif  /* {guard} */");
    let end = lines
        .iter()
        .rposition(|l| *l == close)
        .expect("closing guard");
    lines.insert(end, "#pragma GCC diagnostic pop".to_string());
    let at = lines
        .iter()
        .rposition(|l| l.starts_with("#include"))
        .expect("an #include")
        + 1;
    let push = [
        "",
        "// The kernel command layouts below are GNU C (zero-length arrays, structs ending in a",
        "// flexible array nested in others), as in the kernel's headers: no -Wpedantic for them.",
        "#pragma GCC diagnostic push",
        "#pragma GCC diagnostic ignored \"-Wpedantic\"",
    ];
    lines.splice(at..at, push.iter().map(|s| s.to_string()));
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// `from` as a whole identifier becomes `to`.
pub(crate) fn rename_ident(text: &str, from: &str, to: &str) -> String {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find(from) {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + from.len()..];
        let whole = !out.ends_with(is_ident) && !after.starts_with(is_ident);
        out.push_str(if whole { to } else { from });
        rest = after;
    }
    out.push_str(rest);
    out
}

/// A member documented `pabi: N` exists in the layouts of provider ABI N and later only: it is
/// wrapped in `#if IBV_PABI_LAYOUT >= N`, which verbs-prelude.h defines (the newest ABI, unless a
/// provider build
/// asked for rdma-core v44's layouts); consecutive ones share one `#if`, which replaces the marker.
pub(crate) fn pabi_members(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<String> = Vec::with_capacity(lines.len());
    let mut open: Option<u32> = None;
    let mut i = 0;
    while i < lines.len() {
        let t = lines[i].trim_start();
        if let Some(n) = pabi_mark(t) {
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim_end().ends_with(';'))
                .expect("member");
            if open == Some(n) && out.last().is_some_and(|l| l == "#endif") {
                out.pop();
            } else {
                out.push(format!("#if IBV_PABI_LAYOUT >= {n}  /* {} */", since(n)));
            }
            out.extend(lines[i + 1..=end].iter().map(|l| l.to_string()));
            out.push("#endif".to_string());
            open = Some(n);
            i = end + 1;
        } else {
            out.push(lines[i].to_string());
            open = None;
            i += 1;
        }
    }
    let mut s = out.join("\n");
    s.push('\n');
    s
}

/// Who has a member marked `pabi: N`, in words: the ABIs from N on, or for rdma-core v62/v63's
/// layout of ABI 59 (62, `pabi::LAYOUT_V62`) those releases and the ABIs after.
pub(crate) fn since(n: u32) -> String {
    use ibverbs::abi::driver::pabi::{LAYOUT_V35, LAYOUT_V62, OLDEST};
    if n == LAYOUT_V62 {
        "rdma-core v62/v63's layout of provider ABI 59, provider ABI 64 on".to_string()
    } else if n == LAYOUT_V35 {
        "rdma-core v35's layout of provider ABI 34 on".to_string()
    } else if n == OLDEST {
        "rdma-core v36's layout of provider ABI 34 on".to_string()
    } else {
        format!("provider ABI {n} on")
    }
}

/// The provider ABI of a `pabi: N` mark (a member later provider ABIs have), if `line` is one.
pub(crate) fn pabi_mark(line: &str) -> Option<u32> {
    let n = line.strip_prefix("// pabi: ")?;
    n.split_whitespace().next()?.parse().ok()
}

/// `CAtomicInt` (src/abi/ctype.rs) is C's `atomic_int` (driver-prelude.h includes
/// `<stdatomic.h>` for C); C++ before C++23 has no `<stdatomic.h>` and sees the `int` of the
/// same layout. Its typedef goes.
pub(crate) fn spell_atomic_int(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        if t.starts_with("typedef ") && t.trim_end().ends_with(" CAtomicInt;") {
            continue;
        }
        if let Some(rest) = t.strip_prefix("CAtomicInt ") {
            let indent = &line[..line.len() - t.len()];
            out.push_str(&format!(
                "#ifdef __cplusplus\n{indent}int {rest}#else\n{indent}atomic_int {rest}#endif\n"
            ));
            continue;
        }
        out.push_str(line);
    }
    out
}

/// Each [`GUARDED_DEFINITIONS`] type's definition (with its comment) is made only when the other
/// header's include guard is not defined.
pub(crate) fn guard_definitions(text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (name, guard) in GUARDED_DEFINITIONS {
        let Some((start, end, _)) = find_block(&lines, name) else {
            continue;
        };
        let mut first = start;
        while first > 0 && lines[first - 1].starts_with("//") {
            first -= 1;
        }
        lines.insert(end + 1, "#endif".to_string());
        lines.insert(first, format!("#ifndef {guard}"));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// The header's prelude goes before its first `#include`.
pub(crate) fn insert_prelude(text: &str, prelude: &Path) -> String {
    let pre = std::fs::read_to_string(prelude).unwrap_or_default();
    if pre.is_empty() {
        return text.to_string();
    }
    let at = text.find("\n#include").map_or(text.len(), |p| p + 1);
    format!("{}{}\n\n{}", &text[..at], pre.trim_end(), &text[at..])
}
