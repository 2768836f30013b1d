"""One provider file on the uverbs emulator under a reference rdma-core and under ours, each made
to load exactly that file; and every rdma-core release build's providers so (tests/providers/README.md).

Shared by tools/provider-check (one file, any suite) and tests/providers/run (its releases: every
lib*-rdmav*.so of each release tools/rdma-core-builds has built, against that release's own
libibverbs). `run` is the tests/providers/run module (its run_lifecycle, compare, KERNELS, RUNS).
"""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SYSTEM_LIB = Path("/usr/lib/x86_64-linux-gnu")


def glibc_too_new(path):
    """The symbols of `path` from a glibc newer than this machine's (empty when it loads)."""
    have = subprocess.run(["getconf", "GNU_LIBC_VERSION"], capture_output=True, text=True).stdout.split()[-1]
    hv = tuple(int(x) for x in have.split("."))
    out = subprocess.run(["objdump", "-T", str(path)], capture_output=True, text=True).stdout
    newer = []
    for m in re.finditer(r"\(GLIBC_([\d.]+)\)\s+(\S+)", out):
        v = tuple(int(x) for x in m.group(1).split("."))
        if v > hv:
            newer.append(f"{m.group(2)}@GLIBC_{m.group(1)}")
    return have, newer


def package_libdir(so):
    """The lib directory of the package `so` came from (…/lib/<multiarch>), or None."""
    real = so.resolve()
    for d in (so.parent.parent, real.parent, real.parent.parent):
        if any(d.glob("lib*.so.1*")):
            return d
    return None


def private_abi(libdir):
    """The provider ABI a libibverbs.so.1 was built with: the N of the IBVERBS_PRIVATE_N node it
    defines (rdma-core defines one), or None."""
    out = subprocess.run(["objdump", "-p", str(libdir / "libibverbs.so.1")], capture_output=True, text=True).stdout
    defs = out.split("Version definitions:", 1)[-1].split("Version References:", 1)[0]
    found = sorted({int(n) for n in re.findall(r"IBVERBS_PRIVATE_(\d+)", defs)})
    return found[-1] if len(found) == 1 else None


def release_versions():
    """The rdma-core releases tools/rdma-core-builds builds (their home: the tarballs it reads)."""
    r = subprocess.run([str(ROOT / "tools/rdma-core-builds"), "--list"], capture_output=True, text=True)
    return r.stdout.split()


def release_builds(*versions, build=False):
    """[(version, lib dir)] of rdma-core release builds: tools/rdma-core-builds' (cached ones only,
    unless build: then a release being built is waited for, a missing one built) and
    ../shared/rdma-core/build's under target/rdma-core."""
    argv = [str(ROOT / "tools/rdma-core-builds")] + ([] if build else ["--cached"]) + list(versions)
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=None if build else subprocess.DEVNULL, text=True)
    found = [(v, Path(b) / "lib") for v, b in (l.split(None, 1) for l in r.stdout.splitlines() if " " in l)]
    for b in sorted((ROOT / "target/rdma-core").glob("rdma-core-*/build/lib")):
        v = b.parent.parent.name[len("rdma-core-"):]
        if (not versions or v in versions) and (b / "libibverbs.so.1").exists():
            found.append((v, b))
    return [(v, d) for v, d in found if (d / "libibverbs.so.1").exists()]


def mapped(log):
    """The provider files a run's process mapped (the emulator's `mapped` lines)."""
    return sorted({l[len("mapped "):] for l in log.splitlines() if l.startswith("mapped /")})


def wrong_file(r, so, who):
    """None when run r mapped exactly the provider file so, else why not."""
    files = mapped(r.log)
    if files == [str(so)]:
        return None
    if not files:
        return f"{who} mapped no file of the provider (the device was never opened: {r.status()})"
    return f"{who} mapped {', '.join(files)}, not the file under test {so}"


def file_envs(provider, lib, ref_lib, kernel_env):
    """(ours, reference): the environments that make our library (in lib) and the reference (in
    ref_lib; None: the system's) load exactly the file `provider` (a lib<name>-rdmav<ABI>.so path,
    maybe a link). rdma-core asks for the provider's file name in the directory it was built with,
    and the emulator's redirect (UVEMU_DLOPEN) gives it this file; ours looks in the file's own
    directory first (and, for the newest ABI there, finds this file). The directory of the package
    it came from is first on the library path (its lib<name>.so.1 direct-verbs library)."""
    so = provider.resolve()
    pkg = package_libdir(so)
    path = [str(pkg)] if pkg else []
    env = dict(kernel_env, UVEMU_DLOPEN=f"{provider.name}={so}")
    ours = dict(env, LD_LIBRARY_PATH=":".join([str(lib)] + path), IBVERBS_RS_PROVIDER_DIR=str(provider.absolute().parent))
    ref = dict(env, LD_LIBRARY_PATH=":".join(([str(ref_lib)] if ref_lib else []) + path))
    return ours, ref


def check_pair(run, binp, tree, provider, name, lib, ref_lib, kernel_env, tag, family=None, prog="lifecycle",
               fail=None, cover=None):
    """The lifecycle (or a family's) for the file `provider` under the reference and ours:
    (reference run, our run, None or the first difference, [why a run is refused]). A run that
    mapped another file than `provider` is refused: its difference would be two providers'. One
    that mapped none (no device found: siw's and mana's match by driver id, which needs netlink)
    is compared as it is: the other library must not have opened the file either. The redirect's
    own `dlopen` lines are left out of the comparison (Debian 12's runs have none): with no device
    found, rdma-core dlopens every provider it is configured with to try its match table, ours
    only those whose table could match (src/provider/session.rs: lazy loading), so on the sysfs
    kernel rdma-core's stream alone has siw's and mana's."""
    so = provider.resolve()
    ours_env, ref_env = file_envs(provider, lib, ref_lib, kernel_env)
    if cover:
        cover.unlink(missing_ok=True)
        ours_env["UVEMU_COVER"] = str(cover)
    ref = run.run_lifecycle(binp, tree, name, ref_lib, f"{tag}.reference", extra_env=ref_env, family=family,
                            prog=prog, fail=fail)
    ours = run.run_lifecycle(binp, tree, name, lib, f"{tag}.ours", extra_env=ours_env, family=family, prog=prog,
                             fail=fail)
    refused = [w for w in (wrong_file(ref, so, "the reference"), wrong_file(ours, so, "ours"))
               if w and "never opened" not in w]
    quiet = [run.Run(r.rc, r.out, "".join(l for l in r.log.splitlines(True) if not l.startswith("dlopen ")))
             for r in (ref, ours)]
    return ref, ours, run.compare(*quiet), refused


def device_tree(run, binp, name):
    """The emulator's sysfs tree for a provider name (RUNS/_trees/NAME, made once per run), or None
    when the emulator has no device for it."""
    tree = run.RUNS / "_trees" / name
    if not (tree / "sys").exists():
        tree.parent.mkdir(parents=True, exist_ok=True)
        if subprocess.run([str(binp / "uvemu-tree"), name, str(tree)], capture_output=True).returncode:
            return None
    return tree


def check_release_file(run, binp, provider, name, lib, ref_lib, version, tree):
    """One release's provider file on each kernel of the run, the lifecycle and (where the kernel
    takes faults) the families its device has, without faults: (cells identical, cells, messages)."""
    families = subprocess.run([str(binp / "uvemu-tree"), "--families", name], capture_output=True,
                              text=True).stdout.split()
    same, msgs = 0, []
    for kernel, env, with_families in run.KERNELS:
        bad = []
        for family in [None] + (families if with_families else []):
            tag = f"r{version}.{kernel}" + (f".{family}" if family else "")
            _, _, why, refused = check_pair(run, binp, tree, provider, name, lib, ref_lib, env, tag, family)
            if refused or why:
                what = f"{version}/{name}/{kernel}" + (f"/{family}" if family else "")
                bad.append(f"not ok - release {what}: " + ("refused: " + "; ".join(refused) if refused else
                                                           f"differs: {why}"))
        same += not bad
        msgs += bad
    return same, len(run.KERNELS), msgs


def check_releases(run, binp, lib, names, build, jobs):
    """Every provider file of every release build (tools/rdma-core-builds) that the emulator has a
    device for (only `names`, when given), against that release's libibverbs and ours, no faults:
    (ok, messages, the summary line). build: wait for a release being built, build a missing one,
    and fail when one cannot be had; else a release not built is skipped, saying so."""
    import concurrent.futures as cf
    versions = release_versions()
    have = dict(release_builds(*versions, build=build)) if versions else {}
    msgs, ok, todo = [], True, []
    if not versions:
        msgs.append(("not ok - " if build else "# ") + "releases: tools/rdma-core-builds --list names none "
                    "(no rdma-core-*.tar.gz in ../shared/rdma-core)")
        ok = not build
    for v in versions:
        if v not in have:
            msgs.append(("not ok - " if build else "# ") + f"release {v}: no build of it "
                        f"(tools/rdma-core-builds {v}{' failed' if build else ' makes it'}): skipped")
            ok &= not build
            continue
        for provider in sorted(have[v].glob("lib*-rdmav*.so")):
            name = re.fullmatch(r"lib(.+)-rdmav\d+\.so", provider.name).group(1)
            if names and name not in names:
                continue
            tree = device_tree(run, binp, name)
            if tree:
                todo.append((v, provider, name, tree))
    with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
        results = list(ex.map(lambda t: check_release_file(run, binp, t[1], t[2], lib, have[t[0]], t[0], t[3]), todo))
    same = cells = 0
    for v in versions:
        if v not in have:
            continue
        mine = [(t, r) for t, r in zip(todo, results) if t[0] == v]
        s, n = sum(r[0] for _, r in mine), sum(r[1] for _, r in mine)
        bad = [m for _, r in mine for m in r[2]]
        msgs += bad
        msgs.append(("ok - " if s == n else "# ") + f"release {v}: {s} of {n} provider cells identical "
                    f"({' '.join(t[2] for t, _ in mine)})")
        same, cells, ok = same + s, cells + n, ok and s == n
    built = [v for v in versions if v in have]
    line = f"releases: {same} of {cells} provider cells identical ({' '.join(built) or 'none built'})"
    return ok, msgs, line
