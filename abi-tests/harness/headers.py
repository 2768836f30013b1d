"""Header checks beyond layouts: each member's C type, each constant's value and each function's
type, in C and C++, against rdma-core v65's facts (see abi-tests/README.md, "headers")."""

from pathlib import Path

from .probe import load_functions, load_tsv, load_types, load_values, type_probe, type_rows, value_probe

HERE = Path(__file__).resolve().parent.parent
LAYOUTS, VALUES = HERE / "layouts", HERE / "values"

# Headers with a values file, each probed on its own (so each also compiles alone). arch.h and
# sa-kern-abi.h warn by design; the probe compiles with -w.
VALUE_HEADERS = ["verbs.h", "verbs_api.h", "ib_user_ioctl_verbs.h", "sa.h", "opcode.h", "tm_types.h",
                 "sa-kern-abi.h", "arch.h"]


# driver.h members whose C type differs from rdma-core's on purpose (C++ only).
DRIVER_DIFFERENCES_CXX = {
    ("struct verbs_device", "refcount"):
        "int in C++, atomic_int in C (same layout): <stdatomic.h> is not C++ before C++23",
}


def lang(cxx):
    return "C++" if cxx else "C"


class Headers:
    def __init__(self, rep, include_dir, shared):
        self.rep, self.inc = rep, Path(include_dir).resolve()
        self.v44 = load_tsv(shared / "layouts-v44.0-pabi34.tsv")
        self.v65 = load_tsv(shared / "layouts-v65.0-pabi65.tsv")
        self.verbs_types = load_types(LAYOUTS / "verbs-h.types")

    def rows(self, tsv, scope):
        return [r for t in scope if t in tsv for r in tsv[t]]

    def types(self, name, header, rows, own=True, cxx=True, allowed=None, defines=()):
        """Every member's declared type against the TSV's member_type; `allowed` {(type, member):
        reason} are known, documented differences (reported in the note, not failures)."""
        allowed = allowed or {}
        cflags = ([f"-I{self.inc}"] if own else []) + list(defines)
        same, failed, fatal, _ = type_probe([f"<{header}>"], rows, cflags, cxx=cxx)
        name = f"{name} ({lang(cxx)})"
        if fatal:
            self.rep.fail(name, "type probe does not compile", fatal)
            return
        checked = type_rows(rows, cxx)
        top = [r for r in checked if "." not in r.member and r.mtype != "fnptr"]
        fnptrs = [r for r in checked if r.mtype == "fnptr"]
        problems = [f"{r.type}: {r.member}: does not compile: {failed[(r.type, r.member)]}"
                    for r in checked if (r.type, r.member) in failed and (r.type, r.member) not in allowed]
        problems += [f"{r.type}: {r.member}: not {r.mtype}" for r in checked
                     if (r.type, r.member) in same and not same[(r.type, r.member)]
                     and (r.type, r.member) not in allowed]
        right = sum(1 for r in checked if same.get((r.type, r.member)))
        right_top = sum(1 for r in top if same.get((r.type, r.member)))
        right_fn = sum(1 for r in fnptrs if same.get((r.type, r.member)))
        note = (f"{right_top} of {len(top)} members have the reference type"
                + (f", {right_fn} of {len(fnptrs)} function pointers are function pointers" if cxx else "")
                + f"; {right} of {len(checked)} rows with members of members")
        if allowed:
            note += f"; {len(allowed)} known differences: " + "; ".join(f"{t.split()[-1]}.{m}: {why}"
                                                                      for (t, m), why in allowed.items())
        self.rep.check(name, problems, note=note, reason=f"{len(problems)} members differ; {note}")

    def values(self, header, cxx):
        """Every enumerator and numeric macro v65's header declares, with its value; verbs.h's
        function prototypes too."""
        want = load_values(VALUES / f"{header}.values")
        fn_file = VALUES / f"{header}.functions"
        fns = load_functions(fn_file) if fn_file.exists() else []
        got, failed, fatal, _ = value_probe([f"<infiniband/{header}>"], want, [f"-I{self.inc}"], cxx=cxx,
                                            functions=fns)
        name = f"headers/values {header} vs v65 ({lang(cxx)})"
        if fatal:
            self.rep.fail(name, "value probe does not compile", fatal)
            return
        problems = [f"{n}: missing ({failed[n]})" for n, _ in want if n in failed]
        problems += [f"{n}: {got[n]} != {v}" for n, v in want if n in got and got[n] != v]
        note = f"{len(want) - len(problems)} of {len(want)} constants equal"
        if fns:
            ext = [f for f in fns if f[1] == "extern"]
            inl = [f for f in fns if f[1] == "inline"]
            fprob = [f"{n}(): declared {'missing' if 'fn:' + n in failed else 'with another type'}, "
                     f"v65: {ty}" for n, _, ty in ext if got.get("fn:" + n) != "1"]
            # Inline functions come from the hand-written fragment: a missing one is counted, one
            # declared with another type is a failure.
            have = [f for f in inl if "fn:" + f[0] not in failed]
            fprob += [f"{n}() (inline): declared with another type, v65: {ty}" for n, _, ty in have
                      if got.get("fn:" + n) != "1"]
            problems += fprob
            note += (f"; {len(ext) - sum(1 for p in fprob if '(inline)' not in p)} of {len(ext)} "
                     f"function prototypes the same; {len(have)} of {len(inl)} static inline "
                     f"functions declared")
        self.rep.check(name, problems, note=note, reason=f"{len(problems)} problems; {note}")

    def run(self):
        verbs65 = self.rows(self.v65, self.verbs_types)
        verbs44 = self.rows(self.v44, [t for t in self.verbs_types if t in self.v44])
        small = load_tsv(LAYOUTS / "sa-tm-v65.tsv")
        for cxx in (True, False):
            self.types("headers/types system verbs.h (rdma-core 44) vs v44 TSV", "infiniband/verbs.h",
                       verbs44, own=False, cxx=cxx)
            self.types("headers/types ours verbs.h vs v65 (verbs-h.types)", "infiniband/verbs.h", verbs65,
                       cxx=cxx)
            self.types("headers/types ours sa.h vs v65 (sa-tm-v65.tsv)", "infiniband/sa.h",
                       [r for t in small for r in small[t] if "tmh" not in t and "rvh" not in t], cxx=cxx)
            self.types("headers/types ours tm_types.h vs v65 (sa-tm-v65.tsv)", "infiniband/tm_types.h",
                       [r for t in ("struct ibv_tmh", "struct ibv_rvh") for r in small[t]], cxx=cxx)
        # A provider build of each provider ABI (see layouts.py's ours_driver).
        scope = [load_types(LAYOUTS / f) for f in ("driver-h.types", "kern-abi.types", "verbs-h-pabi.types")]
        driver34 = self.rows(self.v44, sum(scope, []))
        driver65 = self.rows(self.v65, sum(scope, []) + load_types(LAYOUTS / "driver-h-65.types"))
        for cxx in (True, False):
            allowed = DRIVER_DIFFERENCES_CXX if cxx else None
            self.types("headers/types ours driver.h + kern-abi.h vs v44 (provider ABI 34)",
                       "infiniband/driver.h", driver34, cxx=cxx, allowed=allowed)
            self.types("headers/types ours driver.h + kern-abi.h -DIBVERBS_PABI_VERSION=65 vs v65 (provider ABI 65)",
                       "infiniband/driver.h", driver65, cxx=cxx, allowed=allowed, defines=["-DIBVERBS_PABI_VERSION=65"])
        for header in VALUE_HEADERS:
            for cxx in (True, False):
                self.values(header, cxx)
