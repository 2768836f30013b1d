"""Compile-and-run layout probe: offsetof/sizeof of TSV rows against a set of headers.

A TSV row is (type, member, offset, size, member_type); member '' is the sizeof row.
Members containing <anon> are skipped; bitfields (member_type ':N@bitM') are probed by
setting the field in a zeroed object and locating the bits that flipped; flexible
array members (member_type ending in '[]') are checked by offset only.
"""

import re
import subprocess
import tempfile
from collections import namedtuple
from pathlib import Path

Row = namedtuple("Row", "type member offset size mtype")
BITFIELD = re.compile(r":(\d+)@bit(\d+)$")

PRELUDE = r"""#include <stddef.h>
#include <stdio.h>
#include <string.h>
%s
static void bits(const char *t, const char *m, const unsigned char *p, size_t n)
{
	long first = -1, count = 0;
	for (size_t i = 0; i < n * 8; i++)
		if (p[i / 8] >> (i %% 8) & 1) {
			if (first < 0)
				first = (long)i;
			count++;
		}
	printf("%%s\t%%s\tbit%%ld\t%%ld\n", t, m, first, count);
}
#define ROW(T, M, O, S) printf("%%s\t%%s\t%%zu\t%%zu\n", #T, #M, (size_t)(O), (size_t)(S))
int main(void)
{
"""


def load_tsv(path):
    rows = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        t, m, o, s, mt = line.rstrip("\n").split("\t")
        rows.setdefault(t, []).append(Row(t, m, int(o), int(s), mt))
    return rows


def load_types(path):
    return [l.strip() for l in open(path) if l.strip() and not l.startswith("#")]


def kind(row):
    # "<anon>" at the top; an anonymous member inside a named one reads "name." (the TSV's
    # dotted path with an empty last part, e.g. verbs_create_cq_prov_attr's "buffer.")
    if "<anon>" in row.member or row.member.endswith("."):
        return "anon"
    if row.member == "":
        return "sizeof"
    if BITFIELD.search(row.mtype):
        return "bitfield"
    if row.mtype.endswith("[]"):
        return "flex"
    return "member"


def expected(row):
    """What the probe should print for this row."""
    m = BITFIELD.search(row.mtype)
    if m:
        return (f"bit{m.group(2)}", m.group(1))
    return (str(row.offset), str(row.size))


def c_line(row):
    t, m, k = row.type, row.member, kind(row)
    if k == "sizeof":
        return f'ROW({t}, , 0, sizeof({t}));'
    if k == "bitfield":
        return (f'{{ {t} x; memset(&x, 0, sizeof x); x.{m} = -1; '
                f'bits("{t}", "{m}", (const unsigned char *)&x, sizeof x); }}')
    if k == "flex":
        return f'ROW({t}, {m}, offsetof({t}, {m}), 0 * sizeof(((({t} *)0)->{m})[0]));'
    return f'ROW({t}, {m}, offsetof({t}, {m}), sizeof((({t} *)0)->{m}));'


def run_lines(head, lines, cflags=(), cxx=False, rounds=4):
    """Compile `head` (includes, helpers, the opening of main) plus one C/C++ statement per entry of
    `lines` ({key: statement}), each printing one tab-separated result line, and run it. A statement
    that does not compile is dropped and reported (by line number), up to `rounds` times.
    Returns (output lines, failed {key: compiler message}, fatal error lines or None, deps)."""
    failed = {}
    suffix, compiler, std = (".cc", "c++", "-std=gnu++17") if cxx else (".c", "cc", "-std=gnu11")
    with tempfile.TemporaryDirectory(prefix="abi-probe-") as tmp:
        src, exe, dep = Path(tmp, "probe" + suffix), Path(tmp, "probe"), Path(tmp, "probe.d")
        for _ in range(rounds):
            live = [k for k in lines if k not in failed]
            first = head.count("\n") + 1
            src.write_text(head + "\n".join("\t" + lines[k] for k in live) + "\n\treturn 0;\n}\n")
            cc = subprocess.run([compiler, std, "-w", "-fmax-errors=0", "-MD", "-MF", str(dep),
                                 *cflags, "-o", str(exe), str(src)],
                                capture_output=True, text=True)
            if cc.returncode == 0:
                break
            bad = {}
            for line in cc.stderr.splitlines():
                m = re.match(re.escape(str(src)) + r":(\d+):\d+: error: (.*)", line)
                if m and first <= int(m.group(1)) < first + len(live):
                    bad.setdefault(live[int(m.group(1)) - first], m.group(2))
            if not bad:
                errs = [l for l in cc.stderr.splitlines() if "error" in l] or cc.stderr.splitlines()
                return [], failed, errs[:20] or ["cc failed"], []
            failed.update(bad)
        else:
            return [], failed, ["too many compile rounds"], []
        deps = dep.read_text().replace("\\\n", " ").split()[2:] if dep.exists() else []
        out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30)
        if out.returncode:
            return [], failed, [f"probe exited {out.returncode}: {out.stderr.strip()}"], deps
    return out.stdout.splitlines(), failed, None, deps


def probe(includes, rows, cflags=(), rounds=4):
    """Returns (values, failed, fatal): values {(type, member): (a, b)} as printed,
    failed {(type, member): compiler message} for rows that did not compile,
    fatal: a list of error lines if the headers themselves do not compile (else None),
    plus deps, the headers the compiler read."""
    rows = [r for r in rows if kind(r) != "anon"]
    head = PRELUDE % "\n".join(f"#include {h}" for h in includes)
    out, failed, fatal, deps = run_lines(head, {(r.type, r.member): c_line(r) for r in rows}, cflags,
                                         rounds=rounds)
    values = {}
    for line in out:
        t, m, a, b = line.split("\t")
        values[(t, m)] = (a, b)
    return values, failed, fatal, deps


# Big-endian typedefs are the same type as their integer to any compiler (`__bitwise` is empty
# outside sparse), so the C++ type probe makes each a distinct class of the same size and alignment
# before any header names it, converting to and from the integer so that inline code still
# compiles: a member declared `__be32` then differs from one declared `uint32_t`.
BE_MARKERS = r"""#include <linux/types.h>
#define PROBE_BE(name, int_t)                                                        \
	struct name {                                                               \
		int_t v;                                                            \
		name() = default;                                                   \
		constexpr name(int_t x) : v(x) {}                                   \
		constexpr operator int_t() const { return v; }                      \
	}
PROBE_BE(probe_be16, __u16);
PROBE_BE(probe_be32, __u32);
PROBE_BE(probe_be64, __u64);
#define __be16 probe_be16
#define __be32 probe_be32
#define __be64 probe_be64
"""

TYPE_PRELUDE = r"""#include <stdio.h>
%s%s
#define T(t, m, ...) printf("%%s\t%%s\t%%d\n", t, m, (int)(__VA_ARGS__))
int main(void)
{
"""


# The TSVs print a member's type without qualifiers; these members of rdma-core (verbs.h v65,
# driver.h v44) point to const.
CONST_POINTEE = {
    ("struct ibv_flow_spec_action_handle", "action"),
    ("struct verbs_device", "ops"),
    ("struct verbs_device_ops", "name"),
    ("struct verbs_device_ops", "match_table"),
    ("struct verbs_match_ent", "u.modalias"),
    ("struct verbs_sysfs_dev", "match"),
}
# Pointer to pointer to const: `const struct verbs_device_ops **static_providers`.
CONST_POINTEE_2 = {("struct verbs_device_ops", "static_providers")}


def type_line(row, cxx):
    """A statement printing 1 if the member's declared type is the TSV's member_type."""
    t, m, want = row.type, row.member, row.mtype
    if (t, m) in CONST_POINTEE or (t, m) in CONST_POINTEE_2:
        want = "const " + want
    expr = f"(({t} *)0)->{m}"  # unparenthesized: decltype gives the declared type, not a reference
    if cxx:
        got = f"decltype({expr})"
        if want == "fnptr":
            same = (f"std::is_pointer<{got}>::value && "
                    f"std::is_function<std::remove_pointer<{got}>::type>::value")
        else:
            same = f"std::is_same<{got}, {want}>::value"
    else:
        same = f"__builtin_types_compatible_p(__typeof__({expr}), {want})"
    return f'T("{t}", "{m}", {same});'


def type_rows(rows, cxx):
    """The rows a type probe can check: named members with a nameable type (C: not function pointers)."""
    return [r for r in rows if kind(r) in ("member", "flex") and "<anon>" not in r.mtype
            and (cxx or r.mtype != "fnptr")]


def type_probe(includes, rows, cflags=(), cxx=False):
    """Returns (same {(type, member): bool}, failed, fatal, deps). C++ compares with std::is_same
    (an enum is not its integer, __be16/32/64 are told apart from their integers: BE_MARKERS); C
    with __builtin_types_compatible_p (an enum is compatible with its integer type and __be32 is
    uint32_t, so C checks less)."""
    rows = type_rows(rows, cxx)
    incl = "\n".join(f"#include {h}" for h in includes)
    head = TYPE_PRELUDE % (BE_MARKERS + "#include <type_traits>\n" if cxx else "", incl)
    out, failed, fatal, deps = run_lines(head, {(r.type, r.member): type_line(r, cxx) for r in rows},
                                         cflags, cxx=cxx)
    same = {}
    for line in out:
        t, m, ok = line.split("\t")
        same[(t, m)] = ok == "1"
    return same, failed, fatal, deps


def load_values(path):
    """[(name, value)] of a values file: an integer as text, or '=' + the expansion of an alias."""
    return [tuple(l.rstrip("\n").split("\t")) for l in open(path) if l.strip() and not l.startswith("#")]


def load_functions(path):
    """[(name, 'extern'|'inline', C function type)] of a functions file."""
    return [tuple(l.rstrip("\n").split("\t")) for l in open(path) if l.strip() and not l.startswith("#")]


VALUE_PRELUDE = r"""#include <stdio.h>
%s
#define PROBE_STR2(x) #x
#define PROBE_STR(x) PROBE_STR2(x)
#define V(n, x) printf("%%s\t%%lld\n", n, (long long)(x))
#define A(n, x) printf("%%s\t=%%s\n", n, PROBE_STR(x))
#define F(n, ...) printf("%%s\t%%d\n", n, (int)(__VA_ARGS__))
int main(void)
{
"""


def value_probe(includes, values, cflags=(), cxx=False, functions=()):
    """Prints every constant of `values` ((long long)NAME, or the expansion of an alias macro) and,
    for each of `functions`, whether the declared type is the expected one (C++: std::is_same; C:
    __builtin_types_compatible_p). Returns ({name: printed}, failed, fatal, deps)."""
    incl = "\n".join(f"#include {h}" for h in includes)
    head = VALUE_PRELUDE % (("#include <type_traits>\n" if cxx else "") + incl)
    lines = {}
    for name, want in values:
        lines[name] = f'A("{name}", {name});' if want.startswith("=") else f'V("{name}", {name});'
    for name, _, ftype in functions:
        same = (f"std::is_same<decltype({name}), {ftype}>::value" if cxx
                else f"__builtin_types_compatible_p(__typeof__({name}), {ftype})")
        lines["fn:" + name] = f'F("fn:{name}", {same});'
    out, failed, fatal, deps = run_lines(head, lines, cflags, cxx=cxx)
    got = {}
    for line in out:
        n, v = line.split("\t")
        got[n] = v
    return got, failed, fatal, deps


def compare(rows, values, failed, accept=None):
    """Per-type mismatch lines. accept(row, got) may return a reason to let a difference pass."""
    problems, compared, allowed = [], 0, []
    for r in rows:
        if kind(r) == "anon":
            continue
        key, name = (r.type, r.member), r.member or "(sizeof)"
        if (r.type, "") in failed and r.member:
            continue  # the type itself is missing: reported once, on its sizeof row
        if key in failed:
            what = "type missing or incomplete" if not r.member else "does not compile"
            problems.append(f"{r.type}: {name}: {what}: {failed[key]}")
            continue
        compared += 1
        want, got = expected(r), values.get(key)
        if got == want:
            continue
        why = accept(r, got) if accept and got else None
        if why:
            allowed.append(f"{r.type}: {name}: {why}")
            continue
        what = "bit, width" if kind(r) == "bitfield" else "offset, size"
        problems.append(f"{r.type}: {name}: {what} {got and ', '.join(got)} != {', '.join(want)}")
    return problems, compared, allowed
