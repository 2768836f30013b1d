"""The bad-input sweep (abi-tests/sweep): sweep.c calls every export with NULL, zeroed,
garbage-filled and out-of-range arguments, one forked child per call, under the system
libibverbs and under ours. Checks:

- sweep/exports: the prototype table tools/symbols-map wrote beside our library from the export
  declarations (exports.txt) lists exactly its exported functions.
- sweep/aborts: no call aborts under ours (SIGABRT, a Rust panic or allocation-failure message).
- sweep/crashes: no call crashes under ours where the reference returns (or hangs). The
  reference is the system library's same symbol, or for a `name@IBVERBS_PRIVATE_<N>` twin (a later
  provider ABI's) with the same prototype as `name@@IBVERBS_PRIVATE_34`, the system library's
  PRIVATE_34 symbol. A call
  without a reference (an export rdma-core 44 lacks) must not crash unless one of its pointers
  points at garbage (0xa5 or 0xff bytes), which no library can tell from a real object.
- sweep/hangs: no call hangs under ours where the reference returns.

The table printed with the checks counts crashes and aborts under both libraries."""

import os
import subprocess
import tempfile
from collections import Counter
from pathlib import Path

from . import diffs

SWEEP_DIR = Path(__file__).resolve().parent.parent / "sweep"
ALLOW = SWEEP_DIR / "allow.txt"
BAD = ("crash", "abort", "signal")
ABORT_MARKS = ("panicked at", "memory allocation of", "capacity overflow")


def prototypes(exports):
    """{versioned symbol: (return, [param:kind ...])} from the prototype table."""
    out = {}
    for line in exports.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            sym, ret, *params = line.split()
            out[sym] = (ret, params)
    return out


def exported(lib):
    """Our library's defined dynamic FUNC symbols, as name@VER / name@@VER."""
    r = subprocess.run(["readelf", "--dyn-syms", "-W", str(lib)], capture_output=True, text=True, check=True)
    syms = set()
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) >= 8 and f[3] == "FUNC" and f[4] == "GLOBAL" and f[6] != "UND":
            syms.add(f[7])
    return syms


def build(out_dir):
    out_dir.mkdir(parents=True, exist_ok=True)
    exe = out_dir / "sweep"
    cc = subprocess.run(["cc", "-O1", "-g", "-Wall", "-o", str(exe), str(SWEEP_DIR / "sweep.c"), "-libverbs", "-ldl"],
                        capture_output=True, text=True)
    return exe, cc.stderr.splitlines() if cc.returncode else None


def environment(home, extra):
    """A plain environment: none of the variables either library reads, a private HOME."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C", "RUST_BACKTRACE": "0"}
    env.update(extra)
    return env


def execute(exe, exports, env, jobs, timeout):
    r = subprocess.run([str(exe), str(exports), "--jobs", str(jobs), "--timeout", str(timeout)],
                       env=env, capture_output=True, text=True, errors="replace", timeout=900)
    if r.returncode != 0:
        return None, r.stderr.splitlines()[-12:] or [f"exit status {r.returncode}"]
    res = {}
    for line in r.stdout.splitlines():
        f = line.split("\t")
        if len(f) >= 4:
            res[(f[0], f[1])] = (f[2], f[3])
        elif len(f) == 3:
            res[(f[0], f[1])] = (f[2], "")
    return res, None


def outcome(res):
    """crash / abort / hang / ret; a Rust panic message makes any signal an abort."""
    kind, detail = res
    if kind in BAD and (kind == "abort" or any(m in detail for m in ABORT_MARKS)):
        return "abort"
    return "crash" if kind in BAD else kind


def reference_of(sym, protos, system):
    """The system symbol whose outcome `sym` is held to, or None."""
    if any(k[0] == sym and v[0] != "absent" for k, v in system.items()):
        return sym
    name, _, ver = sym.partition("@")
    if ver.startswith("IBVERBS_PRIVATE_") and ver != "IBVERBS_PRIVATE_34":
        twin = f"{name}@@IBVERBS_PRIVATE_34"
        if protos.get(twin) == protos.get(sym) and any(k[0] == twin and v[0] != "absent" for k, v in system.items()):
            return twin
    return None


def allowed():
    """{(symbol, pattern): reason} from allow.txt."""
    out = {}
    for line in ALLOW.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            sym, pattern, reason = line.split(None, 2)
            out[(sym, pattern)] = reason
    return out


def garbage_memory(pattern, params):
    """The pattern points some pointer at garbage bytes (or gives a garbage/long string)."""
    target, _, variant = pattern.partition("=")
    if target == "all":
        return variant in ("garbage", "ones")
    kinds = dict(p.split("=", 1)[0].split(":", 1) for p in params if ":" in p)
    return kinds.get(target) in ("ptr", "str") and variant in ("garbage", "ones", "long")


def run(rep, lib_dir, out_dir, jobs=16, timeout=3.0):
    ours = (lib_dir / diffs.SONAME).resolve()
    if not ours.exists():
        rep.fail("sweep", f"library missing: {ours}")
        return
    exports = lib_dir / "exports.txt"
    if not exports.exists():
        rep.fail("sweep", f"no prototype table beside the library: {exports} (make writes it)")
        return
    protos = prototypes(exports)
    have = exported(ours)
    rep.check("sweep/exports (exports.txt vs our dynamic symbols)",
              [f"missing from exports.txt: {s}" for s in sorted(have - set(protos))]
              + [f"not exported: {s}" for s in sorted(set(protos) - have)])
    exe, errors = build(out_dir)
    if errors is not None:
        rep.fail("sweep", "build failed", errors)
        return
    with tempfile.TemporaryDirectory(prefix="sweep-home-") as home:
        sys_env = environment(home, {})
        our_env = environment(home, {"LD_LIBRARY_PATH": str(lib_dir)})
        loaded = diffs.loaded_verbs(exe, our_env)
        if loaded != {str(ours)}:
            rep.fail("sweep", f"our library is not the one loaded: {sorted(loaded)}")
            return
        system, err = execute(exe, exports, sys_env, jobs, timeout)
        if system is None:
            rep.fail("sweep (system library)", "sweep failed", err)
            return
        mine, err = execute(exe, exports, our_env, jobs, timeout)
        if mine is None:
            rep.fail("sweep (ours)", "sweep failed", err)
            return
    table(rep, protos, system, mine)


def table(rep, protos, system, mine):
    rows = Counter()
    aborts, crashes, hangs = [], [], []
    refs = {}
    allow, used = allowed(), set()
    for (sym, pattern), res in sorted(mine.items()):
        if res[0] == "absent":
            continue
        if sym not in refs:
            refs[sym] = reference_of(sym, protos, system)
        ref = refs[sym]
        o = outcome(res)
        group = "both" if ref == sym else "twin" if ref else "ours-only"
        rows[(group, "calls")] += 1
        rows[(group, f"ours {o}")] += 1
        line = f"{sym} [{pattern}]: {res[0]} {res[1]}".rstrip()
        if o == "abort":
            aborts.append(line)
        if ref:
            want = outcome(system.get((ref, pattern), ("absent", "")))
            rows[(group, f"rdma-core {want}")] += 1
            if o == "crash" and want in ("ret", "hang", "exit"):
                rows[(group, "crash only under ours")] += 1
                crashes.append(f"{line} (rdma-core: {want})")
            if o == "hang" and want == "ret":
                hangs.append(f"{line} (rdma-core returns)")
        elif o == "crash":
            if garbage_memory(pattern, protos.get(sym, ("", []))[1]):
                rows[(group, "crash on garbage memory")] += 1
            elif (sym, pattern) in allow:
                used.add((sym, pattern))
                rows[(group, "crash allowed")] += 1
            else:
                rows[(group, "crash only under ours")] += 1
                crashes.append(f"{line} (no reference; no garbage memory)")
    labels = {"both": "in both libraries", "twin": "later ABIs' twins (vs rdma-core's PRIVATE_34)",
              "ours-only": "ours only (rdma-core 44 lacks them)"}
    print("# sweep: calls, and outcomes under ours and under rdma-core 44 (the reference)")
    print(f"# {'':46} {'calls':>6} {'ours crash':>10} {'ref crash':>9} {'ours abort':>10} {'ref abort':>9}"
          f" {'ours hang':>9} {'crash only ours':>15}")
    for g in ("both", "twin", "ours-only"):
        r = lambda k: rows[(g, k)]
        ref = lambda k: str(r(f"rdma-core {k}")) if g != "ours-only" else "-"
        print(f"# {labels[g]:46} {r('calls'):6} {r('ours crash'):10} {ref('crash'):>9} {r('ours abort'):10}"
              f" {ref('abort'):>9} {r('ours hang'):9} {r('crash only under ours'):15}")
    if rows[("ours-only", "crash on garbage memory")]:
        print(f"# ours only: {rows[('ours-only', 'crash on garbage memory')]} crashes on pointers to garbage bytes"
              " (allowed: no library can tell garbage from an object)")
    if rows[("ours-only", "crash allowed")]:
        print(f"# ours only: {rows[('ours-only', 'crash allowed')]} crashes allowed by allow.txt (rdma-core v65 crashes there too)")
    crashes += [f"allow.txt line not used: {s} {p}" for (s, p) in sorted(set(allow) - used)]
    rep.check("sweep/aborts (none under ours)", aborts, reason=f"{len(aborts)} calls abort")
    rep.check("sweep/crashes (none under ours where rdma-core returns)", crashes,
              reason=f"{len(crashes)} calls crash only under ours")
    rep.check("sweep/hangs (none under ours where rdma-core returns)", hangs, reason=f"{len(hangs)} calls hang")
