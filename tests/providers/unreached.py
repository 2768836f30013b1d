"""Why a kernel command of the library's table is reached by no lifecycle (tests/providers/run's
coverage lines): the public verb that sends it, checked against the libraries themselves.

SENT_BY is the one typed fact per command: the rdma-core verb that sends it and the libibverbs
function that builds the command (rdma-core's libibverbs/cmd_*.c), which a provider's op calls.
Everything else is read where it lives: whether rdma-core 44 (the system's libibverbs, which the lifecycles are built
against) exports the verb (objdump -T; the verbs lifecycle_new.c calls, against the newest
release, are reached and need no reason), the first release of ../shared/rdma-core whose
libibverbs.map.in lists it, and which providers of the newest release call that function. OWN holds the
commands whose reason is not a missing verb.
"""

import functools
import os
import re
import subprocess
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent

SENT_BY = {
    "REG_MR": ("ibv_reg_mr_ex", "ibv_cmd_reg_mr_ex"),
    "QUERY_PORT_SPEED": ("ibv_query_port_speed", "ibv_cmd_query_port_speed"),
    "DMAH_ALLOC": ("ibv_alloc_dmah", "ibv_cmd_alloc_dmah"),
    "DMAH_FREE": ("ibv_dealloc_dmah", "ibv_cmd_free_dmah"),
    "DMABUF_ALLOC": ("ibv_dm_export_dmabuf_fd", "ibv_cmd_export_dmabuf_fd"),
    "COMP_CNTR_CREATE": ("ibv_create_comp_cntr", "ibv_cmd_create_comp_cntr"),
    "COMP_CNTR_DESTROY": ("ibv_destroy_comp_cntr", "ibv_cmd_destroy_comp_cntr"),
    "COMP_CNTR_MODIFY": ("ibv_set_comp_cntr", "ibv_cmd_set_comp_cntr"),
    "COMP_CNTR_READ": ("ibv_read_comp_cntr", "ibv_cmd_read_comp_cntr"),
    "QUERY_COMP_CNTR_CAPS": ("ibv_query_comp_cntr_caps", "ibv_cmd_query_comp_cntr_caps"),
    "QP_ATTACH_COMP_CNTR": ("ibv_qp_attach_comp_cntr", "ibv_cmd_qp_attach_comp_cntr"),
}

# Linux 5.19 deleted the ESP flow actions from the uverbs core and mlx5 ("RDMA/core: Delete IPsec
# flow action logic from the core", "RDMA/mlx5: Delete never supported IPsec flow action").
_ESP = ("sent by {} (mlx5's, rdma-core 44 on), but no kernel since 5.19 has ESP flow actions "
        "(the emulated one is a 6.x kernel)")
OWN = {
    "FLOW_ACTION_ESP_CREATE": _ESP.format("ibv_create_flow_action_esp"),
    "FLOW_ACTION_ESP_MODIFY": _ESP.format("ibv_modify_flow_action_esp"),
    "FLOW_ACTION_DESTROY": ("ibv_destroy_flow_action of an ESP action (none on a 6.x kernel) or of an mlx5 "
                            "direct-verbs one (mlx5dv_create_flow_action_modify_header, "
                            "_packet_reformat: driver methods the emulated mlx5 does not answer)"),
}


def _system_lib():
    d = os.environ.get("IBVERBS_RS_PROVIDER_DIR")
    return (Path(d).parent if d else Path("/usr/lib/x86_64-linux-gnu")) / "libibverbs.so.1"


@functools.lru_cache(maxsize=None)
def system_exports():
    """(rdma-core version of the system's libibverbs, the names it exports)."""
    lib = _system_lib()
    m = re.search(r"\.so\.1\.\d+\.(\d+)\.\d+$", str(lib.resolve()))
    out = subprocess.run(["objdump", "-T", str(lib)], capture_output=True, text=True).stdout
    return (m.group(1) if m else "?"), {l.split()[-1] for l in out.splitlines() if " DF " in l}


def _version_key(v):
    return tuple(int(x) for x in v.split("."))


@functools.lru_cache(maxsize=None)
def releases():
    """[(version, map text, {provider: the ibv_cmd_* functions its sources name})] of the tarballs
    in the rdma-core source folder (tools/rdma-core-builds'), oldest first; the functions only for
    the newest."""
    src = Path(os.environ.get("IBVERBS_RS_RDMA_CORE_SRC", ROOT.parent / "shared/rdma-core"))
    tars = sorted(src.glob("rdma-core-*.tar.gz"), key=lambda t: _version_key(t.name[10:-7]))
    found = []
    for i, t in enumerate(tars):
        v, text, ops = t.name[10:-7], "", {}
        try:
            with tarfile.open(t) as tf:
                for m in tf:
                    parts = m.name.split("/")
                    if m.name.endswith("libibverbs/libibverbs.map.in"):
                        text = tf.extractfile(m).read().decode()
                    elif i == len(tars) - 1 and len(parts) == 4 and parts[1] == "providers" and m.name.endswith(".c"):
                        body = tf.extractfile(m).read().decode(errors="replace")
                        ops.setdefault(parts[2], set()).update(re.findall(r"\bibv_cmd_\w+", body))
        except (OSError, tarfile.TarError):
            continue
        found.append((v, text, ops))
    return found


def why(name):
    """The reason a command of that name (the methods table's) is sent by no lifecycle."""
    if name in OWN:
        return OWN[name]
    if name not in SENT_BY:
        return "no lifecycle sends it"
    verb, cmd = SENT_BY[name]
    sysver, exported = system_exports()
    rel = releases()
    first = next((v for v, text, _ in rel if re.search(rf"\b_?{verb};", text)), None)
    where = ""
    if rel:
        newest, _, ops = rel[-1]
        have = sorted(p for p, o in ops.items() if cmd in o)
        where = (f"; in the releases here from {first}" if first else f"; in no release here up to {newest}") + \
            (f", {newest}'s {', '.join(have)} send it ({cmd})" if have else f", no provider of {newest} calls {cmd}")
    if verb in exported or "_" + verb in exported:
        return f"sent by {verb}, which no lifecycle calls{where}"
    return (f"sent by {verb}, which rdma-core {sysver}'s libibverbs (the lifecycles' API) lacks{where}; "
            f"lifecycle_new.c (the newest release's) does not call it: the emulator has no kernel side for it")
