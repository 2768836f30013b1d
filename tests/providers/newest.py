"""The verbs newer than rdma-core 44 on the newest rdma-core release (tests/providers/README.md):
lifecycle_new.c, built against that release's headers (from its tarball, laid out as its build
publishes them: infiniband/verbs.h, verbs_api.h, ib_user_ioctl_verbs.h and the kernel's rdma/*.h)
and linked with its libibverbs, run on each provider of PROVIDERS under that release's library and
ours (each made to load exactly the release's provider file, as provider_file.check_pair does), on
the ioctl and the write kernel, and with every command failed once (EINVAL, ENOMEM, EIO, and short
where it has driver data). Our unfaulted runs leave their commands in RUNS/PROVIDER/*.ours.cover,
so that run's coverage counts what they reach.
"""

import os
import re
import subprocess
import tarfile
from pathlib import Path

import provider_file

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
# The providers whose kernel side of these verbs the emulator has (mlx5: query_port_speed's answer
# in device.c, REG_MR in core_newer.c). The newest efa also sends QUERY_PORT_SPEED; its kernel
# driver's answer is not emulated.
PROVIDERS = ["mlx5"]


def _version_key(v):
    return tuple(int(x) for x in v.split("."))


def headers(tar, dest):
    """The release's public headers into dest (infiniband/, rdma/), as its build publishes them."""
    with tarfile.open(tar) as tf:
        for m in tf:
            parts = m.name.split("/")
            if not m.isfile():
                continue
            subs = []
            if len(parts) == 3 and parts[1] == "libibverbs" and parts[2] in ("verbs.h", "verbs_api.h"):
                subs = ["infiniband"]
            elif len(parts) == 4 and parts[1:3] == ["kernel-headers", "rdma"] and parts[3].endswith(".h"):
                subs = ["rdma"] + (["infiniband"] if parts[3] == "ib_user_ioctl_verbs.h" else [])
            if subs:
                data = tf.extractfile(m).read()
                for sub in subs:
                    (dest / sub).mkdir(parents=True, exist_ok=True)
                    (dest / sub / parts[-1]).write_bytes(data)


def build(binp, version, libdir, cc="cc"):
    """binp/lifecycle_new against the release's headers and library: None, or why not."""
    src = Path(os.environ.get("IBVERBS_RS_RDMA_CORE_SRC", ROOT.parent / "shared/rdma-core"))
    tar = src / f"rdma-core-{version}.tar.gz"
    if not tar.exists():
        return f"no {tar}"
    inc = binp / f"include-{version}"
    headers(tar, inc)
    argv = [cc, "-O1", "-g", "-Wall", "-Wextra", "-Werror", f"-I{inc}", "-o", str(binp / "lifecycle_new"),
            str(HERE / "lifecycle_new.c"), f"-L{libdir}", "-libverbs"]
    r = subprocess.run(argv, capture_output=True, text=True)
    return f"build failed: {' '.join(argv)}\n{r.stderr}" if r.returncode else None


def check(run, binp, lib, names, faults, jobs):
    """(ok, messages, summary line or None)."""
    import concurrent.futures as cf
    versions = provider_file.release_versions()
    if not versions:
        return True, [], None
    newest = max(versions, key=_version_key)
    have = dict(provider_file.release_builds(newest))
    if newest not in have:
        return True, [f"# newest {newest}: no build of it (tools/rdma-core-builds {newest}): skipped"], None
    libdir = have[newest]
    why = build(binp, newest, libdir)
    if why:
        return False, [f"not ok - newest {newest}: {why}"], None
    msgs, same, cells, total, handled = [], 0, 0, 0, 0
    for name in PROVIDERS:
        if names and name not in names:
            continue
        files = sorted(libdir.glob(f"lib{name}-rdmav*.so"))
        tree = provider_file.device_tree(run, binp, name)
        if not files or not tree:
            msgs.append(f"not ok - newest {newest}/{name}: no provider file or no emulated device")
            cells += 1
            continue
        so = files[0]
        for kernel, env, _ in run.KERNELS[:2]:
            tag = f"new{newest}.{kernel}"
            cells += 1
            ref, _, diff, refused = provider_file.check_pair(
                run, binp, tree, so, name, lib, libdir, env, tag, prog="lifecycle_new",
                cover=run.RUNS / name / f"{tag}.ours.cover")
            what = f"newest {newest}/{name}/{kernel}"
            if refused or diff:
                msgs.append(f"not ok - {what}: " + ("refused: " + "; ".join(refused) if refused else f"differs: {diff}"))
            else:
                same += 1
                ok_steps = sum(1 for l in ref.out.splitlines() if re.search(r": (ok|0)$", l))
                msgs.append(f"ok - {what}: identical: {ok_steps} steps succeed, {len(run.commands(ref.log))} commands")
            if not faults:
                continue
            cases = [(n, mode) for n, block in run.commands(ref.log) for mode in run.MODES
                     if mode != "short" or run.has_driver_answer(block)]

            def one(case, so=so, tree=tree, env=env, tag=tag):
                n, mode = case
                _, _, d, refused = provider_file.check_pair(run, binp, tree, so, name, lib, libdir, env,
                                                            f"{tag}.f{n}-{mode}", prog="lifecycle_new",
                                                            fail=f"{n}:{mode}")
                return case, "refused: " + "; ".join(refused) if refused else d

            with cf.ThreadPoolExecutor(max_workers=jobs) as ex:
                results = list(ex.map(one, cases))
            bad = [f"not ok - {what}: fault {n}:{mode}: {d}" for (n, mode), d in results if d]
            msgs += bad
            total += len(cases)
            handled += len(cases) - len(bad)
            msgs.append(("ok - " if not bad else "# ") + f"{what}: faults: {len(cases) - len(bad)} of {len(cases)} handled")
    line = (f"newest {newest}: {same} of {cells} provider cells identical ({' '.join(PROVIDERS)}); "
            f"faults: {handled} of {total} handled")
    return same == cells and handled == total, msgs, line
