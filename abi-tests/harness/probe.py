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
    if "<anon>" in row.member:
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


def probe(includes, rows, cflags=(), rounds=4):
    """Returns (values, failed, fatal): values {(type, member): (a, b)} as printed,
    failed {(type, member): compiler message} for rows that did not compile,
    fatal: a list of error lines if the headers themselves do not compile (else None),
    plus deps, the headers the compiler read."""
    rows = [r for r in rows if kind(r) != "anon"]
    failed = {}
    with tempfile.TemporaryDirectory(prefix="abi-probe-") as tmp:
        src, exe, dep = Path(tmp, "probe.c"), Path(tmp, "probe"), Path(tmp, "probe.d")
        for _ in range(rounds):
            live = [r for r in rows if (r.type, r.member) not in failed]
            head = PRELUDE % "\n".join(f"#include {h}" for h in includes)
            first = head.count("\n") + 1
            src.write_text(head + "\n".join("\t" + c_line(r) for r in live) + "\n\treturn 0;\n}\n")
            cc = subprocess.run(["cc", "-std=gnu11", "-w", "-fmax-errors=0", "-MD", "-MF", str(dep),
                                 *cflags, "-o", str(exe), str(src)],
                                capture_output=True, text=True)
            if cc.returncode == 0:
                break
            bad = {}
            for line in cc.stderr.splitlines():
                m = re.match(re.escape(str(src)) + r":(\d+):\d+: error: (.*)", line)
                if m and first <= int(m.group(1)) < first + len(live):
                    r = live[int(m.group(1)) - first]
                    bad.setdefault((r.type, r.member), m.group(2))
            if not bad:
                errs = [l for l in cc.stderr.splitlines() if "error" in l] or cc.stderr.splitlines()
                return {}, failed, errs[:20] or ["cc failed"], []
            failed.update(bad)
        else:
            return {}, failed, ["too many compile rounds"], []
        deps = dep.read_text().replace("\\\n", " ").split()[2:] if dep.exists() else []
        out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=30)
        if out.returncode:
            return {}, failed, [f"probe exited {out.returncode}: {out.stderr.strip()}"], deps
    values = {}
    for line in out.stdout.splitlines():
        t, m, a, b = line.split("\t")
        values[(t, m)] = (a, b)
    return values, failed, None, deps


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
