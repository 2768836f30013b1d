"""Layout checks: our generated headers and the system's against the reference TSVs."""

from pathlib import Path

from .probe import compare, kind, load_tsv, load_types, probe

HERE = Path(__file__).resolve().parent.parent / "layouts"


def is_kernel_uapi(path):
    """A header of linux-libc-dev's rdma/ directory (as opposed to librdmacm's rdma_cma.h etc.)."""
    name = Path(path).name
    return "/rdma/" in path and (name.startswith(("ib_user_", "rdma_user_", "rdma_netlink"))
                                 or name.endswith("-abi.h"))


def load_newer(path):
    """{(type, member)}: uapi rows the installed kernel headers may predate; member '*' = any."""
    rows = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        t, m, why = line.rstrip("\n").split("\t")
        rows[(t, m)] = why
    return rows


def load_allow(path):
    """v44 -> v65 differences we accept: {(type, member): (rule, reason)}; member '*' = any row."""
    allow = {}
    for line in open(path):
        if line.startswith("#") or not line.strip():
            continue
        t, m, rule, reason = line.rstrip("\n").split("\t")
        allow[(t, "" if m == "(sizeof)" else m)] = (rule, reason)
    return allow


def acceptor(allow, size44, size65, used):
    """accept(row, got) for rows of v44 compared against a v65 layout.
    Rules: grown - same offset, size may only grow;
           end-relative - distance from the end of the struct and size unchanged
           (the struct grows at its front, like verbs_context)."""
    def accept(r, got):
        key = (r.type, r.member)
        rule, reason = allow.get(key) or allow.get((r.type, "*")) or (None, None)
        if rule is None or kind(r) == "bitfield":
            return None
        o, s = int(got[0]), int(got[1])
        ok = {"grown": o == r.offset and s >= r.size,
              "end-relative": s == r.size and size65[r.type] - o == size44[r.type] - r.offset,
              }.get(rule, False)
        if ok:
            used.add(key if key in allow else (r.type, "*"))
            return f"{rule}: {reason}"
        return None
    return accept


class Layouts:
    def __init__(self, rep, include_dir, shared):
        self.rep, self.inc = rep, Path(include_dir).resolve()
        self.v44 = load_tsv(shared / "layouts-v44.0-pabi34.tsv")
        self.v65 = load_tsv(shared / "layouts-v65.0-pabi65.tsv")
        self.types = {n: load_types(HERE / f"{n}.types")
                      for n in ("verbs-h", "driver-h", "driver-h-65", "verbs-h-pabi", "kern-abi", "uapi")}
        self.allow = load_allow(HERE / "v44-v65.allow")

    def rows(self, tsv, scope):
        return [r for t in scope if t in tsv for r in tsv[t]]

    def leaks(self, deps):
        """Headers of ours that resolved outside our include dir (e.g. to /usr/include). The kernel
        uapi (<rdma/ib_user_*.h>, <rdma/rdma_user_*.h>, linux-libc-dev) is included on purpose."""
        return [f"uses {d}" for d in deps if ("/infiniband/" in d or "/rdma/" in d)
                and not Path(d).resolve().is_relative_to(self.inc) and not is_kernel_uapi(d)]

    def run_probe(self, name, header, rows, own=True, accept=None, note="", missing_ok=None,
                  allowed_what="allowed v44->v65 differences", defines=()):
        rep = self.rep
        if own and not (self.inc / header).exists():
            rep.fail(name, f"header missing: {self.inc / header}")
            return None
        cflags = ([f"-I{self.inc}"] if own else []) + list(defines)
        values, failed, fatal, deps = probe([f"<{header}>"], rows, cflags)
        if fatal:
            rep.fail(name, "probe does not compile", fatal)
            return None
        if missing_ok:
            rows = [r for r in rows if not ((r.type, r.member) in failed or (r.type, "") in failed)
                    or not missing_ok(r)]
        problems, compared, allowed = compare(rows, values, failed, accept)
        if own:
            problems = self.leaks(deps) + problems
        ntypes = len({r.type for r in rows})
        bad = len({p.split(":")[0] for p in problems})
        skipped = sum(1 for r in rows if kind(r) == "anon")
        counts = (f"{compared} of {len(rows) - skipped} rows of {ntypes} types compared, "
                  f"{skipped} <anon> rows skipped")
        if allowed:
            counts += f", {len(allowed)} {allowed_what}"
        rep.check(name, problems, note=counts + note,
                  reason=f"{len(problems)} problems in {bad} of {ntypes} types; {counts}")
        return values

    def ours_verbs(self):
        rows = self.rows(self.v65, self.types["verbs-h"])
        self.run_probe("layouts/ours verbs.h vs v65 (verbs-h.types)", "infiniband/verbs.h", rows)

    def system_verbs(self):
        rows = self.rows(self.v44, self.types["verbs-h"])
        self.run_probe("layouts/system verbs.h (rdma-core 44) vs v44 TSV", "infiniband/verbs.h", rows, own=False)

    def tsv_v44_v65(self):
        """Facts only: every verbs.h row of v44 must be unchanged in v65, or allowlisted."""
        used, problems, allowed, n = set(), [], 0, 0
        scope = [t for t in self.types["verbs-h"] if t in self.v44]
        accept = self.accept(used)
        for t in scope:
            new = {r.member: r for r in self.v65[t]}
            for r in self.v44[t]:
                if kind(r) == "anon":
                    continue
                n += 1
                m = new.get(r.member)
                if m is None:
                    problems.append(f"{t}: {r.member}: gone in v65")
                elif (m.offset, m.size, m.mtype) != (r.offset, r.size, r.mtype):
                    if accept(r, (str(m.offset), str(m.size))) and m.mtype == r.mtype:
                        allowed += 1
                    else:
                        problems.append(f"{t}: {r.member or '(sizeof)'}: v44 {r.offset},{r.size} {r.mtype}"
                                        f" -> v65 {m.offset},{m.size} {m.mtype}")
        stale = [f"allowlist entry matches nothing: {t} {m or '(sizeof)'}"
                 for t, m in self.allow if (t, m) not in used]
        self.rep.check("layouts/v44 TSV vs v65 TSV (verbs-h.types in v44)", problems + stale,
                       note=f"{n} rows of {len(scope)} types; {allowed} differ as allowlisted in v44-v65.allow")

    def accept(self, used):
        size = lambda tsv: {t: rows[0].size for t, rows in tsv.items() if rows[0].member == ""}
        return acceptor(self.allow, size(self.v44), size(self.v65), used)

    def ours_compat(self):
        rows = self.rows(self.v44, [t for t in self.types["verbs-h"] if t in self.v44])
        self.run_probe("layouts/ours verbs.h vs v44 TSV (compatible superset)", "infiniband/verbs.h",
                       rows, accept=self.accept(set()))

    def ours_driver(self):
        # A provider build: provider ABI 34 by default (v44's layouts, also of the verbs.h structs
        # it selects), 65 with -DIBVERBS_PABI_VERSION=65 (v65's, and v65's driver.h additions).
        rows = self.rows(self.v44, self.types["driver-h"] + self.types["kern-abi"] + self.types["verbs-h-pabi"])
        self.run_probe("layouts/ours driver.h vs v44 (provider ABI 34: driver-h.types + kern-abi.types"
                       " + verbs-h-pabi.types)", "infiniband/driver.h", rows)
        rows = self.rows(self.v65, self.types["driver-h"] + self.types["driver-h-65"] + self.types["kern-abi"]
                         + self.types["verbs-h-pabi"])
        self.run_probe("layouts/ours driver.h -DIBVERBS_PABI_VERSION=65 vs v65 (driver-h.types"
                       " + driver-h-65.types + kern-abi.types + verbs-h-pabi.types)", "infiniband/driver.h", rows,
                       defines=["-DIBVERBS_PABI_VERSION=65"])
        # The uapi is the system's (linux-libc-dev), included by our headers: rows newer than it
        # are accepted as absent (layouts/uapi-newer.allow).
        newer = load_newer(HERE / "uapi-newer.allow")
        rows = self.rows(self.v65, self.types["uapi"])
        def older_kernel(r, got=None):
            why = newer.get((r.type, r.member)) or newer.get((r.type, "*"))
            return why and f"newer than the installed kernel headers: {why}"
        self.run_probe("layouts/ours driver.h vs v65 (uapi.types, the system's kernel headers)",
                       "infiniband/driver.h", rows, accept=older_kernel, missing_ok=older_kernel,
                       allowed_what="rows newer than the installed kernel headers")

    def ours_small(self):
        """The hand-written sa.h and tm_types.h against v65's layouts (sa-tm-v65.tsv)."""
        tsv = load_tsv(HERE / "sa-tm-v65.tsv")
        tm = ["struct ibv_tmh", "struct ibv_rvh"]
        for header, scope in (("sa.h", [t for t in tsv if t not in tm]), ("tm_types.h", tm)):
            self.run_probe(f"layouts/ours {header} vs v65 (sa-tm-v65.tsv)", f"infiniband/{header}",
                           self.rows(tsv, scope))

    def system_uapi(self):
        """Validates the probe on the kernel uapi: linux-libc-dev's <rdma/...> vs the v44 TSV."""
        scope = [t for t in self.types["uapi"] if t in self.v44]
        rows = self.rows(self.v44, scope)
        # rdma-core compiles the uapi with its own RDMA_UAPI_PTR (a pointer/__u64 union) from verbs_api.h,
        # whose pointer-size test needs <stdint.h> first
        # (verbs_api.h brings rdma-core's copy of ib_user_ioctl_verbs.h; same include guard as the kernel's)
        hdrs = ["stdint.h", "infiniband/verbs_api.h", "rdma/ib_user_verbs.h",
                "rdma/ib_user_ioctl_verbs.h", "rdma/rdma_user_ioctl_cmds.h"]
        values, failed, fatal, _ = probe([f"<{h}>" for h in hdrs], rows)
        if fatal:
            self.rep.fail("layouts/system uapi", "probe does not compile", fatal)
            return
        problems, compared, _ = compare(rows, values, failed)
        self.rep.check("layouts/system <rdma/*.h> (linux-libc-dev) vs v44 TSV (uapi.types)", problems,
                       note=f"{compared} rows of {len(scope)} types")

    def run(self):
        self.tsv_v44_v65()
        self.system_verbs()
        self.system_uapi()
        self.ours_verbs()
        self.ours_compat()
        self.ours_driver()
        self.ours_small()
