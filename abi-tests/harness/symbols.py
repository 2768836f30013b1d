"""Dynamic symbol table, SONAME, version nodes and load-ability of our libibverbs.so.1."""

import importlib.machinery
import importlib.util
import os
import re
import subprocess
import tempfile
import sys
from pathlib import Path

SONAME = "libibverbs.so.1"


def readelf(*args):
    return subprocess.run(["readelf", "-W", *args], capture_output=True, text=True, check=True).stdout


def exported(lib):
    """Defined global symbols as name@@VER / name@VER, minus the version-node ABS symbols."""
    out = set()
    for line in readelf("--dyn-syms", str(lib)).splitlines():
        # ppc64's ELFv2 adds a column after Vis for a function with a local entry point
        f = re.sub(r"\[<localentry>: \d+\]", "", line).split()
        if len(f) < 8 or not f[0].endswith(":") or f[4] not in ("GLOBAL", "WEAK", "UNIQUE"):
            continue
        ndx, name = f[6], f[7]
        if ndx == "UND":
            continue
        if ndx == "ABS" and "@" not in name:
            continue  # the symbol the linker emits for each version node
        out.add(name)
    return out


def verdefs(lib):
    """[(name, flags, [parents])] from .gnu.version_d, in file order."""
    nodes = []
    for line in readelf("-V", str(lib)).splitlines():
        m = re.search(r"Flags: (\S+)\s+Index: \d+\s+Cnt: \d+\s+Name: (\S+)", line)
        if m:
            nodes.append((m.group(2), m.group(1), []))
            continue
        m = re.search(r"Parent \d+: (\S+)", line)
        if m and nodes:
            nodes[-1][2].append(m.group(1))
    return nodes


def expected_nodes(expected_syms):
    """Version chain as libibverbs.map.in declares it: each public IBVERBS_1.x node
    inherits the previous one; the IBVERBS_PRIVATE_* node stands alone."""
    vers = {s.split("@")[-1] for s in expected_syms}
    public = sorted((v for v in vers if v.startswith("IBVERBS_1.")),
                    key=lambda v: int(v.split(".")[1]))
    chain = [(v, public[i - 1:i]) for i, v in enumerate(public)]
    return chain + [(v, []) for v in sorted(vers - set(public))]


def chain_note(nodes):
    public = [n for n, p in nodes if n.startswith("IBVERBS_1.")]
    private = [n for n, p in nodes if n not in public]
    return (f"{len(nodes)} nodes: {public[0]} <- {public[1]} <- ... <- {public[-1]}; "
            + ", ".join(private) + " standalone")


def load_facts():
    """tools/facts as a module: the provider ABIs read from their one home (edge/src/lib.rs) and the
    release list standing for each (the oldest in ../shared/abi with its node)."""
    path = str(Path(__file__).resolve().parents[2] / "tools" / "facts")
    loader = importlib.machinery.SourceFileLoader("ibverbs_facts", path)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


FACTS = load_facts()

# Names a node gained in a later release without a new provider ABI: rdma-core v62 and v63 kept
# IBVERBS_PABI_VERSION 59 but added these two to IBVERBS_PRIVATE_59 (libibverbs.map.in of v62.0;
# their providers, mlx5 first, import them there), so the node is v61's list plus exactly these.
NODE_ADDITIONS = {59: ["ibv_cmd_export_dmabuf_fd", "ibv_cmd_query_port_speed"]}


def later_private_nodes(shared, target):
    """The provider-private nodes the library serves next to the target's IBVERBS_PRIVATE_34: every
    name of each later provider ABI's IBVERBS_PRIVATE_<N>, from the release list that stands for it
    (`tools/facts symbol-list N`). A name's default version is the oldest node that has it
    (IBVERBS_PRIVATE_34 for the target's), so in later nodes it is a non-default twin (name@VERSION); a name per ABI
    (`verbs_register_driver_<N>`) is its node's default; NODE_ADDITIONS adds the names a later
    release of the same ABI put in its node. See src/capi/pabi/mod.rs. A missing release list adds
    nothing."""
    oldest, *later = FACTS.provider_abis()
    first = {s.split("@")[0]: oldest for s in target if s.endswith(f"@IBVERBS_PRIVATE_{oldest}")}
    out = set()
    for abi in later:
        f = FACTS.symbol_list(abi, str(shared)) if shared.is_dir() else None
        if f is None:
            continue
        path = shared / f
        node = f"IBVERBS_PRIVATE_{abi}"
        lines = [l.strip() for l in open(path)]
        lines += [f"{n}@@{node}" for n in NODE_ADDITIONS.get(abi, [])]
        for l in lines:
            if not l.endswith(node):
                continue
            name = l.split("@")[0]
            if name.startswith("verbs_register_driver_"):
                out.add(f"{name}@@{node}")
                continue
            first.setdefault(name, abi)
            out.add(f"{name}@@{node}" if first[name] == abi else f"{name}@{node}")
    return out


DLOPEN_C = r"""#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
    if (argc < 2 || !dlopen(argv[1], RTLD_NOW | RTLD_GLOBAL)) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    return 0;
}
"""


def dlopen_now(lib):
    env = dict(os.environ, LD_BIND_NOW="1")
    if os.environ.get("IBVERBS_RS_CROSS"):
        # another architecture's library: a program of that architecture opens it (under qemu-user)
        with tempfile.TemporaryDirectory(prefix="abi-dlopen-") as tmp:
            src, exe = Path(tmp, "dlopen.c"), Path(tmp, "dlopen")
            src.write_text(DLOPEN_C)
            cc = subprocess.run(["cc", "-o", str(exe), str(src), "-ldl"], capture_output=True, text=True)
            if cc.returncode:
                return cc.returncode, (cc.stderr.strip().splitlines() or ["cc failed"])[-1]
            r = subprocess.run([str(exe), str(lib)], capture_output=True, text=True, env=env, timeout=60)
    else:
        code = "import ctypes,os,sys; ctypes.CDLL(sys.argv[1], mode=os.RTLD_NOW|os.RTLD_GLOBAL)"
        r = subprocess.run([sys.executable, "-c", code, str(lib)], capture_output=True,
                           text=True, env=env, timeout=30)
    return r.returncode, (r.stderr.strip().splitlines() or [""])[-1]


def run(rep, lib_dir, expect_file):
    lib = Path(lib_dir) / SONAME
    if not lib.exists():
        for n in ("exports", "soname", "version-nodes", "dlopen-now"):
            rep.fail(f"symbols/{n}", f"library missing: {lib}")
        return
    want = {l.strip() for l in open(expect_file) if l.strip() and not l.startswith("#")}
    want |= later_private_nodes(Path(expect_file).parent, want)
    have = exported(lib)
    problems = [f"missing:    {s}" for s in sorted(want - have)]
    problems += [f"unexpected: {s}" for s in sorted(have - want)]
    rep.check("symbols/exports", problems, note=f"{len(want)} symbols match {Path(expect_file).name}",
              reason=f"{len(want - have)} missing, {len(have - want)} unexpected")

    m = re.search(r"\(SONAME\)\s+Library soname: \[(.*?)\]", readelf("-d", str(lib)))
    soname = m.group(1) if m else None
    rep.check("symbols/soname", [] if soname == SONAME else [f"SONAME is {soname!r}"],
              note=SONAME, reason=f"SONAME {soname!r}, want {SONAME}")

    nodes = verdefs(lib)
    problems = []
    if not nodes or nodes[0][1] != "BASE" or nodes[0][0] != SONAME:
        problems.append(f"first verdef should be BASE {SONAME}, got {nodes[:1]}")
    got = [(n, p) for n, flags, p in nodes if flags != "BASE"]
    want_nodes = expected_nodes(want)
    if sorted(got) != sorted(want_nodes):
        problems += [f"want {n} <- {p or '(none)'}" for n, p in want_nodes if (n, p) not in got]
        problems += [f"have {n} <- {p or '(none)'}" for n, p in got if (n, p) not in want_nodes]
    rep.check("symbols/version-nodes", problems,
              note=chain_note(want_nodes),
              reason="version definitions differ")

    rc, err = dlopen_now(lib)
    rep.check("symbols/dlopen-now", [err] if rc else [], note="LD_BIND_NOW=1, RTLD_NOW",
              reason="dlopen failed")
