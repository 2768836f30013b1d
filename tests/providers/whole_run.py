"""The checks of a whole tests/providers/run (when no provider is named): a uverbs node whose name
is not UTF-8, two runs at once, and threads.c under helgrind (tests/providers/README.md). `run` is
the tests/providers/run module (its RUNS, run_lifecycle, compare, valgrind_summary, ...).
"""

import os
import re
import shutil
import subprocess
import sys


def check_node_name(run, binp, lib):
    """A uverbs node whose name is not UTF-8 (sysfs and the kernel allow any bytes): rdma-core
    opens it, and so must ours. rxe's lifecycle on a node named uverbs\\xff0, under netlink and
    under sysfs alone."""
    msgs, ok = [], True
    tree = run.RUNS / "_trees" / "rxe-bytes"
    shutil.rmtree(tree, ignore_errors=True)
    tree.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(binp / "uvemu-tree").encode(), b"rxe", bytes(tree), b"uverbs\xff0"], check=True)
    for kernel, env in (("netlink", {}), ("sysfs", {"UVEMU_NETLINK": "off"})):
        s = run.run_lifecycle(binp, tree, "rxe", None, f"bytes-{kernel}.system", extra_env=env)
        o = run.run_lifecycle(binp, tree, "rxe", lib, f"bytes-{kernel}.ours", extra_env=env)
        why = run.compare(s, o)
        opened = "open_device: ok" in s.out
        if why or not opened:
            ok = False
            msgs.append(f"not ok - node uverbs\\xff0 ({kernel}): {why or 'rdma-core does not open it'}")
        else:
            msgs.append(f"ok - node uverbs\\xff0 ({kernel}): opened and identical")
    return ok, msgs


def check_threads(run, binp, lib):
    """tests/providers/threads.c on rxe under helgrind, with ours: no error in any process (the
    forked children too); rdma-core's count is shown for reference."""
    msgs, ok = [], True
    tree = run.RUNS / "_trees" / "rxe-threads"
    shutil.rmtree(tree, ignore_errors=True)
    tree.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([str(binp / "uvemu-tree"), "rxe", str(tree)], check=True)
    d = run.RUNS / "threads"
    d.mkdir(parents=True, exist_ok=True)

    def errors(which, l, mode):
        env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "LD_PRELOAD")}
        env.update(SYSFS_PATH=str(tree / "sys"), UVEMU_PROVIDER="rxe", LD_PRELOAD=str(binp / "libuvemu.so"))
        if l:
            env["LD_LIBRARY_PATH"] = str(l)
        for old in d.glob(f"{mode}.{which}.*.hg"):
            old.unlink()
        argv = ["valgrind", "--tool=helgrind", f"--suppressions={run.HERE / 'helgrind.supp'}",
                f"--log-file={d}/{mode}.{which}.%p.hg", str(binp / "threads"), mode]
        try:
            r = subprocess.run(argv, env=env, capture_output=True, timeout=run.TIMEOUT * 30)
            rc = r.returncode
        except subprocess.TimeoutExpired:
            rc = 124
        counts = [run.valgrind_summary(f)[1] for f in sorted(d.glob(f"{mode}.{which}.*.hg"))]
        return rc, counts

    for mode in ("events", "fork", "devlist"):
        rc, counts = errors("ours", lib, mode)
        _, ref = errors("system", None, mode)
        line = (f"threads {mode}: helgrind: ours {sum(counts)} errors in {len(counts)} processes "
                f"(rdma-core {sum(ref)})")
        if rc or sum(counts) or not counts:
            ok = False
            msgs.append(f"not ok - {line}, exit {rc}")
        else:
            msgs.append(f"ok - {line}")
    return ok, msgs


def check_concurrent(run, lib):
    """Two runs of this suite at once, each in the directory it makes (private_runs): the second
    (rxe's lifecycles) starts when the first (rxe with its faults, some seconds) has made its
    directory, and must have made its directory while the first still runs (with one shared directory, the
    second's emptying it removed the first's emulator and streams). Both must pass, in two
    directories, each left whole: the second's stream files are all in the first's, each the same
    in both."""
    base = [sys.executable, str(run.HERE / "run"), "--lib", str(lib), "--releases", "none"]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    pipe = dict(stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    first = subprocess.Popen(base + ["rxe"], **pipe)
    head1 = [first.stdout.readline()]  # its directory: it builds and runs next
    second = subprocess.Popen(base + ["--no-faults", "rxe"], **pipe)
    head2 = second.stdout.readline()  # its directory: made, and the finished runs' removed
    overlap = first.poll() is None
    out2 = head2 + second.communicate(timeout=run.TIMEOUT * 30)[0]
    out1 = "".join(head1) + first.communicate(timeout=run.TIMEOUT * 30)[0]
    dirs = [re.search(r"^# runs directory: (.*)$", o, re.M) for o in (out1, out2)]
    dirs = [run.ROOT / m.group(1) if m else None for m in dirs]
    why = None
    if first.returncode or second.returncode:
        lines = [l for l in (out1 + out2).splitlines() if l.startswith(("not ok", "Traceback", "build failed"))]
        why = f"exit {first.returncode} and {second.returncode}: {' / '.join(lines)[:300]}"
    elif None in dirs or dirs[0] == dirs[1]:
        why = f"runs directories {dirs[0]} and {dirs[1]}: not two"
    elif not overlap:
        why = "the first ended before the second began: nothing was checked"
    else:
        files = [{p.relative_to(d) for p in d.glob("*/*.log")} for d in dirs]
        if not files[1] or not files[1] <= files[0]:
            why = f"the second's {len(files[1])} stream files are not all in the first's {len(files[0])}"
        else:
            bad = [str(f) for f in sorted(files[1]) if (dirs[0] / f).read_bytes() != (dirs[1] / f).read_bytes()]
            if bad:
                why = f"streams differ between the two runs: {', '.join(bad[:4])}"
    for d in dirs:
        if d and d.parent == run.OUT and d != run.RUNS:
            shutil.rmtree(d, ignore_errors=True)
    if run.RUNS.parent == run.OUT:
        run.link_newest(run.RUNS)
    if why:
        return False, [f"not ok - two runs at once: {why}"]
    return True, [f"ok - two runs at once: both pass, each in its own directory, {len(files[1])} streams the same "
                  f"in both"]
