"""Fake /dev/infiniband for diff programs run against a fake sysfs tree.

Both libraries skip a uverbs device whose /dev/infiniband/<name> cannot be stat()ed, and that
path is compiled in. A case that sets FAKE_TREE=<tree> (a directory of tests/fake-sysfs) runs
its program in a private mount namespace (`unshare --mount`) where /dev/infiniband is a fresh
tmpfs holding, for each entry of <tree>/dev/infiniband, a character device with the numbers of
<tree>/sys/class/infiniband_verbs/<name>/dev (an empty regular file when that file does not
hold "major:minor"). SYSFS_PATH defaults to <tree>/sys.

/dev/char, where rdma-core looks for udev's <major>:<minor> links when opening a uverbs node
fails: with FAKE_DEV_CHAR=links it is a tmpfs holding such a link to every node made above;
otherwise it is left absent, or covered by an empty tmpfs where the host has one (so a real
device is never reached).

Nothing is created outside the namespace: when the host lacks a directory to mount on, /dev
itself first becomes an overlay (host /dev below, a tmpfs above) in which it is made. FAKE_TREE
stays in the program's environment, so a program may check that it runs in such a namespace
(/dev/infiniband a mount point of its own, on no real host) before changing the nodes.

FAKE_CONFIG=<dir> also binds <dir> over /etc/libibverbs.d, the configuration directory both
libraries have compiled in, so a case can vary which providers are configured and in what order.

FAKE_PROVIDER_LAYOUT=rhel lays the providers out as Fedora, RHEL and SUSE do: the multiarch
provider directory (Debian's, compiled into both libraries) is covered by an empty tmpfs, and
/usr/lib64 becomes an overlay whose libibverbs/ holds copies of its files. A case sets it for our
runs only with OURS_PROVIDER_LAYOUT (diffs.py): the system library then runs with Debian's layout.

The trees only stand for the machine when RDMA netlink is unavailable (both libraries ask
netlink first and would list the real kernel's devices), and the namespace needs root: if
either does not hold, or the setup fails, the case is skipped with the reason, never passed.
"""

import os
import re
import socket
import subprocess
from pathlib import Path

KEY = "FAKE_TREE"
CHAR_KEY = "FAKE_DEV_CHAR"
CONFIG_KEY = "FAKE_CONFIG"  # a directory that stands for /etc/libibverbs.d (both libraries' default)
LAYOUT_KEY = "FAKE_PROVIDER_LAYOUT"  # "rhel": the providers in /usr/lib64/libibverbs only
NETLINK_RDMA = 20
SETUP_FAILED = 125  # exit status of the wrapper when the namespace could not be set up
MARK = "abi-tests fakedev:"

# $1: scratch mount point; $2: "links" or "none" for /dev/char; $3: a directory to bind over
# /etc/libibverbs.d, or "none"; $4: the multiarch provider directory to move to /usr/lib64, or
# "none"; then NAME=MAJOR:MINOR (char device) or NAME= (empty file) ...; --; then the program's
# environment and argv for env -i.
SCRIPT = r"""
fail() { echo "%(mark)s $*" >&2; exit %(code)d; }
scratch=$1; links=$2; config=$3; layout=$4; shift 4
mount -t tmpfs abi-tests "$scratch" || fail "cannot mount a tmpfs on $scratch"
if [ "$config" != none ]; then
    mount --bind "$config" /etc/libibverbs.d || fail "cannot bind $config over /etc/libibverbs.d"
fi
if [ "$layout" != none ]; then
    mkdir -p "$scratch/lib64-upper/libibverbs" "$scratch/lib64-work" || fail "mkdir in $scratch"
    cp -RL "$layout"/. "$scratch/lib64-upper/libibverbs/" || fail "cannot copy $layout"
    mount -t overlay -o "lowerdir=/usr/lib64,upperdir=$scratch/lib64-upper,workdir=$scratch/lib64-work" \
        abi-tests /usr/lib64 || fail "cannot mount an overlay on /usr/lib64"
    mount -t tmpfs -o mode=755 abi-tests "$layout" || fail "cannot cover $layout"
fi
if [ ! -d /dev/infiniband ] || { [ "$links" = links ] && [ ! -d /dev/char ]; }; then
    mkdir "$scratch/upper" "$scratch/work" || fail "mkdir in $scratch"
    mount -t overlay -o "lowerdir=/dev,upperdir=$scratch/upper,workdir=$scratch/work" abi-tests /dev \
        || fail "cannot mount an overlay on /dev"
    mkdir -p -m 755 /dev/infiniband || fail "cannot create /dev/infiniband in the overlay"
    if [ "$links" = links ]; then
        mkdir -p -m 755 /dev/char || fail "cannot create /dev/char in the overlay"
    fi
fi
mount -t tmpfs -o mode=755 abi-tests /dev/infiniband || fail "cannot mount a tmpfs on /dev/infiniband"
if [ -d /dev/char ]; then
    mount -t tmpfs -o mode=755 abi-tests /dev/char || fail "cannot mount a tmpfs on /dev/char"
fi
while [ "$1" != -- ]; do
    name=${1%%%%=*}; num=${1#*=}
    if [ -n "$num" ]; then
        mknod "/dev/infiniband/$name" c "${num%%%%:*}" "${num#*:}" || fail "mknod $name c $num"
        if [ "$links" = links ]; then
            ln -s "../infiniband/$name" "/dev/char/$num" || fail "cannot link /dev/char/$num"
        fi
    else
        : > "/dev/infiniband/$name" || fail "cannot create /dev/infiniband/$name"
    fi
    shift
done
shift
exec /usr/bin/env -i "$@"
""" % {"mark": MARK, "code": SETUP_FAILED}


class Unavailable(Exception):
    """The fake /dev/infiniband cannot be provided here (the reason is the message)."""


_scratch = None
_probe = None


def nodes(tree):
    """[(name, "major:minor" or "")] for the tree's dev/infiniband entries."""
    out = []
    cdevs = tree / "dev/infiniband"
    for entry in sorted(cdevs.iterdir()) if cdevs.is_dir() else []:
        dev = tree / "sys/class/infiniband_verbs" / entry.name / "dev"
        # Bytes that are not UTF-8 are part of what the trees test (bad-bytes): read them as
        # they are; such a value is no "major:minor" here.
        text = dev.read_bytes().decode("latin-1").strip() if dev.is_file() else ""
        out.append((entry.name, text if re.fullmatch(r"\d+:\d+", text) else ""))
    return out


def _argv(node_list, argv, env):
    if _scratch is None:
        raise Unavailable("internal: fakedev.unavailable() was not called first")
    links = env.get(CHAR_KEY, "")
    if links not in ("", "links"):
        raise Unavailable(f"{CHAR_KEY}={links!r}: only 'links' is known")
    config = env.get(CONFIG_KEY, "") or "none"
    layout = env.get(LAYOUT_KEY, "")
    if layout not in ("", "rhel"):
        raise Unavailable(f"{LAYOUT_KEY}={layout!r}: only 'rhel' is known")
    if layout:
        dirs = [d for d in Path("/usr/lib").glob("*-linux-gnu*/libibverbs") if d.is_dir()]
        if not dirs or not Path("/usr/lib64").is_dir():
            raise Unavailable("no multiarch provider directory or no /usr/lib64 to lay out as RHEL's")
        layout = str(dirs[0])
    return (["unshare", "--mount", "--propagation", "private", "sh", "-c", SCRIPT, "fakedev", str(_scratch),
             links or "none", config, layout or "none"]
            + [f"{n}={num}" for n, num in node_list] + ["--"]
            + [f"{k}={v}" for k, v in env.items()] + [str(a) for a in argv])


def wrap(tree, exe, env, args=()):
    """argv running exe (with args) with env inside the namespace for tree. env gets SYSFS_PATH
    if unset."""
    tree = tree.resolve()
    env.setdefault("SYSFS_PATH", str(tree / "sys"))
    return _argv(nodes(tree), [exe, *args], env)


def outer_env():
    """The environment of unshare and sh themselves: no preloading of either library."""
    return {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "LD_PRELOAD")}


def check_setup(result):
    """Raise Unavailable if a wrapped run failed while setting up the namespace."""
    err = result.stderr.decode("utf-8", "replace")
    if result.returncode == SETUP_FAILED and MARK in err:
        raise Unavailable(err.split(MARK, 1)[1].strip().splitlines()[0])
    if result.returncode != 0 and err.startswith("unshare: "):
        raise Unavailable(err.strip().splitlines()[0])


def unavailable(out_dir):
    """None if fake trees can be used here, else why not (checked once per run)."""
    global _scratch, _probe
    if _probe is not None:
        return _probe or None
    _scratch = Path(out_dir).resolve() / "fakedev-scratch"
    _scratch.mkdir(parents=True, exist_ok=True)
    _probe = ""
    try:
        socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_RDMA).close()
        _probe = "RDMA netlink works here: both libraries would list the kernel's devices, not the fake tree's"
        return _probe
    except OSError:
        pass
    if os.geteuid() != 0:
        _probe = "needs root for a private mount namespace and mknod"
        return _probe
    probe = ["sh", "-c", "test -c /dev/infiniband/uverbs0 && test ! -e /dev/infiniband/uverbs1"
             " && test -c /dev/char/231:192"]
    try:
        r = subprocess.run(_argv([("uverbs0", "231:192")], probe,
                                 {"PATH": os.environ.get("PATH", ""), CHAR_KEY: "links"}),
                           capture_output=True, timeout=20)
        check_setup(r)
        if r.returncode != 0:
            _probe = (f"private /dev/infiniband does not work: status {r.returncode}: "
                      + r.stderr.decode("utf-8", "replace").strip()[:200])
    except FileNotFoundError as e:
        _probe = f"cannot run unshare: {e}"
    except subprocess.TimeoutExpired:
        _probe = "the namespace probe timed out"
    except Unavailable as e:
        _probe = str(e)
    return _probe or None
