"""Behaviour diff: each abi-tests/diff/<name>.c, built against the installed rdma-core
headers, runs under the system libibverbs and under ours; stdout, stderr and exit
status must match after <name>.v65.sed is applied to the system library's output.
<name>.cases runs the program once per case line; FAKE_TREE runs it in a private mount
namespace whose /dev/infiniband holds a fake tree's character devices (see fakedev.py)."""

import difflib
import functools
import os
import re
import shlex
import string
import subprocess
from pathlib import Path

from . import fakedev

DIFF_DIR = Path(__file__).resolve().parent.parent / "diff"
FAKE_SYSFS = DIFF_DIR.parent.parent / "tests/fake-sysfs"
SONAME = "libibverbs.so.1"
MODES = {"LD_LIBRARY_PATH": lambda lib: {"LD_LIBRARY_PATH": str(lib)},
         "LD_PRELOAD": lambda lib: {"LD_PRELOAD": str(lib / SONAME)}}


def build(name, out_dir):
    out_dir.mkdir(parents=True, exist_ok=True)
    exe = out_dir / name
    cc = subprocess.run(["cc", "-O1", "-g", "-Wall", "-o", str(exe), str(DIFF_DIR / f"{name}.c"), "-libverbs"],
                        capture_output=True, text=True)
    return exe, cc.stderr.splitlines() if cc.returncode else None


@functools.cache
def provider_dir():
    """rdma-core's provider directory as the programs see it: /usr/lib/<the compiler's multiarch>/
    libibverbs (a cross run's compiler is the target's; qemu-user maps the path into its sysroot)."""
    r = subprocess.run(["cc", "-print-multiarch"], capture_output=True, text=True)
    return f"/usr/lib/{r.stdout.strip() or 'x86_64-linux-gnu'}/libibverbs"


def cases(name):
    """[(case, [(KEY, VALUE), ...])] from <name>.cases, or one unnamed case without it."""
    path = DIFF_DIR / f"{name}.cases"
    if not path.exists():
        return [(None, [])]
    out = []
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            case, *assigns = shlex.split(line)
            out.append((case, [tuple(a.split("=", 1)) for a in assigns]))
    return out


def environment(name, case, extra, out_dir, run):
    """The program's environment: ours minus LD_*, then <name>.env, the case's settings, the
    mode's. $DIFF_DIR, $BUILD_DIR, $FAKE_SYSFS, $CASE and $RUN (system, LD_PRELOAD, ...) expand."""
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "LD_PRELOAD")}
    subst = {"DIFF_DIR": str(DIFF_DIR), "BUILD_DIR": str(out_dir), "FAKE_SYSFS": str(FAKE_SYSFS),
             "CASE": case[0] or name, "RUN": run, "PROVIDER_DIR": provider_dir()}
    settings = []
    env_file = DIFF_DIR / f"{name}.env"
    if env_file.exists():
        for line in env_file.read_text().splitlines():
            if line.strip() and not line.lstrip().startswith("#"):
                settings.append(tuple(line.split("=", 1)))
    for k, v in settings + case[1]:
        env[k.strip()] = string.Template(v.strip()).safe_substitute(subst)
    # OURS_PROVIDER_LAYOUT: the providers laid out so (fakedev.py) for our library's runs only.
    layout = env.pop("OURS_PROVIDER_LAYOUT", None)
    if layout and run != "system":
        env[fakedev.LAYOUT_KEY] = layout
    # FAKE_CONFIG's files may name $PROVIDER_DIR (this architecture's): a copy with it expanded
    # is bound instead.
    if env.get(fakedev.CONFIG_KEY):
        tag = re.sub(r"[^A-Za-z0-9_.-]", "_", f"{case[0] or name}.{run}")
        env[fakedev.CONFIG_KEY] = expanded_config(Path(env[fakedev.CONFIG_KEY]), out_dir / "config" / tag)
    env.update(extra)
    return env


def expanded_config(src, dst):
    """A copy of the configuration directory src in dst, $PROVIDER_DIR expanded in each file."""
    dst.mkdir(parents=True, exist_ok=True)
    for f in sorted(src.iterdir()):
        text = string.Template(f.read_text()).safe_substitute(PROVIDER_DIR=provider_dir())
        (dst / f.name).write_text(text)
    return str(dst)


def loaded_verbs(exe, env):
    """Paths of every libibverbs the dynamic linker would load for exe under env."""
    r = subprocess.run([str(exe)], env=dict(env, LD_TRACE_LOADED_OBJECTS="1"),
                       capture_output=True, text=True, timeout=20)
    paths = re.findall(r"(/\S*libibverbs\.so[\d.]*)\s", r.stdout)
    return {os.path.realpath(p) for p in paths}


def execute(exe, env, timeout):
    """(stdout, stderr, status) of one run; None on timeout. A FAKE_TREE in env runs the
    program in its private mount namespace; a failure to set that up raises fakedev.Unavailable."""
    env = dict(env)
    tree = env.get(fakedev.KEY)
    argv = [str(exe)] if tree is None else fakedev.wrap(Path(tree), exe, env)
    try:
        r = subprocess.run(argv, env=env if tree is None else fakedev.outer_env(),
                           capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if tree is not None:
        fakedev.check_setup(r)
    dec = lambda b: b.decode("utf-8", "replace")
    return dec(r.stdout), dec(r.stderr), r.returncode


def sed(name, text):
    script = DIFF_DIR / f"{name}.v65.sed"
    if not script.exists() or not text:
        return text
    return subprocess.run(["sed", "-f", str(script)], input=text, capture_output=True,
                          text=True, check=True).stdout


def differences(want, got):
    if got is None:
        return ["timed out under our library"]
    problems = []
    if want[2] != got[2]:
        problems.append(f"exit status: system {want[2]}, ours {got[2]}")
    for i, stream in ((1, "stderr"), (0, "stdout")):  # stderr first: short, telling
        if want[i] != got[i]:
            problems += list(difflib.unified_diff(want[i].splitlines(), got[i].splitlines(),
                                                  f"{stream} (system, after .v65.sed)", f"{stream} (ours)",
                                                  n=1, lineterm=""))
    return problems


def run(rep, lib_dir, names, system_only, timeout, out_dir):
    names = names or sorted(p.stem for p in DIFF_DIR.glob("*.c"))
    ours = (lib_dir / SONAME).resolve()
    for name in names:
        label = f"diff/{name}"
        if not (DIFF_DIR / f"{name}.c").exists():
            rep.fail(label, f"no such program: {DIFF_DIR / name}.c")
            continue
        exe, errors = build(name, out_dir)
        if errors is not None:
            rep.fail(label, "build failed", errors)
            continue
        for case in cases(name):
            run_case(rep, name, case, exe, lib_dir, ours, system_only, timeout, out_dir)


def run_case(rep, name, case, exe, lib_dir, ours, system_only, timeout, out_dir):
    label = f"diff/{name}" + (f"[{case[0]}]" if case[0] else "")
    sys_env = environment(name, case, {}, out_dir, "system")
    if fakedev.KEY in sys_env:
        why = fakedev.unavailable(out_dir)
        if why:
            rep.skip(label, why)
            return
    try:
        want = execute(exe, sys_env, timeout)
        if system_only:
            show_system(rep, label, want)
            return
        if want is None:
            rep.fail(f"{label} (system)", "timed out under the system library")
            return
        want = (sed(name, want[0]), sed(name, want[1]), want[2])
        for mode, extra in MODES.items():
            check = f"{label} (system vs ours, {mode})"
            if not ours.exists():
                rep.fail(check, f"library missing: {ours}")
                continue
            env = environment(name, case, extra(lib_dir), out_dir, mode)
            loaded = loaded_verbs(exe, env)
            if loaded != {str(ours)}:
                rep.fail(check, f"our library is not the one loaded: {sorted(loaded)}")
                continue
            rep.check(check, differences(want, execute(exe, env, timeout)), reason="output differs")
    except fakedev.Unavailable as e:
        rep.skip(label, str(e))


def show_system(rep, label, res):
    if res is None:
        rep.fail(f"{label} (system only)", "timed out")
        return
    out, err, rc = res
    for line in out.splitlines():
        print(f"# {line}")
    for line in err.splitlines():
        print(f"# stderr: {line}")
    if rc < 0:
        rep.fail(f"{label} (system only)", f"killed by signal {-rc}")
    else:
        rep.ok(f"{label} (system only)", f"exit status {rc}, {len(out.splitlines())} lines of stdout")
