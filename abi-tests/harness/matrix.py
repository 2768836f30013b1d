"""The compile matrix: our installed headers under gcc/clang C and g++/clang++ C++ at several
standards, with warnings as errors, alone and after librdmacm's and the kernel's headers; the
obsolete headers give their one #warning and nothing else; and every program in abi-tests/matrix/
(*.c across the C cells, *.cc across the C++ cells) compiles clean in each."""

import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
PROGRAMS = HERE / "matrix"

# Every installed header but the two obsolete ones, in dependency order.
HEADERS = ["verbs.h", "verbs_api.h", "ib_user_ioctl_verbs.h", "sa.h", "opcode.h", "tm_types.h",
           "kern-abi.h", "driver.h"]
# Obsolete on purpose, as rdma-core's: each warns once when included.
OBSOLETE = ["arch.h", "sa-kern-abi.h"]

C_FLAGS = ["-Wall", "-Wextra", "-Werror", "-Wpedantic"]
CXX_FLAGS = ["-Wall", "-Wextra", "-Werror", "-Wdeprecated-enum-enum-conversion"]
CLANG_CXX_FLAGS = ["-Wdeprecated-anon-enum-enum-conversion"]

# (compiler, standard, spellings to try: the first the compiler accepts)
C_CELLS = [(cc, std, alts) for cc in ("gcc", "clang")
           for std, alts in (("c11", ["c11"]), ("c17", ["c17"]), ("c23", ["c23", "c2x"]))]
CXX_CELLS = [(cxx, std, alts) for cxx in ("g++", "clang++")
             for std, alts in (("c++11", ["c++11"]), ("c++17", ["c++17"]), ("c++20", ["c++20"]),
                               ("c++23", ["c++23", "c++2b"]))]

# (name, lines before, headers included first, whether those come from librdmacm-dev, our headers
# in this order). librdmacm's headers are reached through a directory of links given with -I, so
# that the compiler does not treat them as system headers: from a system header, the first
# inclusion of ours would be silenced too. The last two are provider builds: driver.h first
# (provider ABI 34, rdma-core v44's layouts of the structs it selects) and provider ABI 65.
PROVIDER_ORDER = ["driver.h"] + [h for h in HEADERS if h != "driver.h"]
CONTEXTS = [
    ("alone", "", [], False, HEADERS),
    ("after <rdma/rdma_cma.h>", "", ["rdma/rdma_cma.h"], True, HEADERS),
    ("after the kernel's <rdma/ib_user_verbs.h>, <rdma/ib_user_ioctl_verbs.h>", "",
     ["rdma/ib_user_verbs.h", "rdma/ib_user_ioctl_verbs.h"], False, HEADERS),
    ("driver.h first (a provider ABI 34 build)", "", [], False, PROVIDER_ORDER),
    ("with IBVERBS_PABI_VERSION 65 (a provider ABI 65 build)", "#define IBVERBS_PABI_VERSION 65\n", [], False,
     PROVIDER_ORDER),
]
RDMACM_HEADERS = ["rdma_cma.h", "rdma_cma_abi.h", "rdma_verbs.h", "rsocket.h"]
SYSTEM_RDMA = Path("/usr/include/rdma")


def accepted_std(compiler, alts, lang):
    """The first spelling of a standard the compiler takes (gcc 12 and clang 14 say c2x, c++2b)."""
    for s in alts:
        r = subprocess.run([compiler, f"-std={s}", "-x", lang, "-fsyntax-only", "-"], input="",
                           capture_output=True, text=True)
        if r.returncode == 0:
            return s
    return None


class Matrix:
    def __init__(self, rep, include_dir):
        self.rep, self.inc = rep, Path(include_dir).resolve()
        self.cells = []  # (label, compiler, -std=, flags, suffix)
        for compiler, std, alts in C_CELLS + CXX_CELLS:
            cxx = compiler.endswith("++")
            have = subprocess.run(["sh", "-c", f"command -v {compiler}"], capture_output=True).returncode == 0
            spelled = accepted_std(compiler, alts, "c++" if cxx else "c") if have else None
            flags = (CXX_FLAGS + (CLANG_CXX_FLAGS if compiler == "clang++" else [])) if cxx else C_FLAGS
            label = f"{compiler} -std={std}" + (f" ({spelled})" if spelled and spelled != std else "")
            self.cells.append((label, compiler, spelled, flags, ".cc" if cxx else ".c"))

    def compile(self, compiler, std, flags, src, werror=True, extra_inc=()):
        """(returncode, diagnostics, deps) of compiling src to an object, discarded."""
        with tempfile.TemporaryDirectory(prefix="abi-matrix-") as tmp:
            dep = Path(tmp, "x.d")
            fl = flags if werror else [f for f in flags if f != "-Werror"]
            inc = [f"-I{d}" for d in extra_inc] + [f"-I{self.inc}"]
            r = subprocess.run([compiler, f"-std={std}", *fl, "-O2", "-c", "-o", str(Path(tmp, "x.o")),
                                "-MD", "-MF", str(dep), *inc, str(src)],
                               capture_output=True, text=True)
            deps = dep.read_text().replace("\\\n", " ").split()[2:] if dep.exists() else []
        return r.returncode, r.stderr, deps

    def leaks(self, deps):
        """Our headers that resolved to another copy (say the system's rdma-core ones)."""
        ours = set(HEADERS + OBSOLETE)
        return [d for d in deps if "/infiniband/" in d and Path(d).name in ours
                and not Path(d).resolve().is_relative_to(self.inc)]

    def run_cells(self, name, suffix, text=None, path=None, rdmacm=False):
        """Compile one translation unit in every cell of its language; one check."""
        cells = [c for c in self.cells if c[4] == suffix]
        missing = [c[0] for c in cells if c[2] is None]
        cells = [c for c in cells if c[2] is not None]
        with tempfile.TemporaryDirectory(prefix="abi-matrix-src-") as tmp:
            src = path or Path(tmp, "tu" + suffix)
            if text is not None:
                src.write_text(text)
            extra = []
            if rdmacm:
                Path(tmp, "rdma").mkdir()
                for h in RDMACM_HEADERS:
                    if (SYSTEM_RDMA / h).exists():
                        Path(tmp, "rdma", h).symlink_to(SYSTEM_RDMA / h)
                extra = [tmp]
            with ThreadPoolExecutor(max_workers=2) as pool:
                results = list(pool.map(lambda c: (c[0], *self.compile(c[1], c[2], c[3], src, extra_inc=extra)),
                                        cells))
        problems = []
        for label, rc, err, deps in results:
            if rc != 0 or err.strip():
                lines = [l for l in err.splitlines() if "error" in l or "warning" in l] or err.splitlines()
                problems.append(f"{label}: " + (lines[0] if lines else f"exit {rc}"))
                problems.extend(f"    {l}" for l in lines[1:4])
            problems.extend(f"{label}: uses {d}" for d in self.leaks(deps))
        note = f"{len(results) - len({p.split(':')[0] for p in problems if not p.startswith(' ')})} of " \
               f"{len(results)} cells clean"
        if missing:
            note += f"; compiler or standard unavailable: {', '.join(missing)}"
        self.rep.check(name, problems, note=note, reason=f"{note}")

    def obsolete(self, header, suffix):
        """arch.h and sa-kern-abi.h: their #warning (and, before C23, pedantic's note that #warning
        is an extension) is all a compiler may say."""
        line = next(i for i, l in enumerate((self.inc / "infiniband" / header).read_text().splitlines(), 1)
                    if l.startswith("#warning"))
        cells = [c for c in self.cells if c[4] == suffix and c[2] is not None]
        problems = []
        with tempfile.TemporaryDirectory(prefix="abi-matrix-src-") as tmp:
            src = Path(tmp, "tu" + suffix)
            src.write_text(f"#include <infiniband/{header}>\nint main(void) {{ return 0; }}\n")
            for label, compiler, std, flags, _ in cells:
                rc, err, _ = self.compile(compiler, std, flags, src, werror=False)
                diags = [l for l in err.splitlines() if ": warning:" in l or ": error:" in l]
                stray = [l for l in diags if f"{header}:{line}:" not in l]
                if rc != 0 or stray or not diags:
                    problems.append(f"{label}: " + ((stray or diags or [f'exit {rc}, no #warning'])[0]))
        self.rep.check(f"matrix/{header} ({'C++' if suffix == '.cc' else 'C'}): only its obsolete-header "
                       f"#warning", problems, note=f"{len(cells)} cells")

    def run(self):
        for ctx, before, first, rdmacm, order in CONTEXTS:
            if rdmacm and not (SYSTEM_RDMA / "rdma_cma.h").exists():
                self.rep.skip(f"matrix/all headers {ctx}", "no /usr/include/rdma/rdma_cma.h (librdmacm-dev)")
                continue
            body = before + "".join(f"#include <{h}>\n" for h in first)
            body += "".join(f"#include <infiniband/{h}>\n" for h in order)
            body += "int main(void) { return 0; }\n"
            for suffix, lang in ((".c", "C"), (".cc", "C++")):
                self.run_cells(f"matrix/all headers {ctx} ({lang})", suffix, text=body, rdmacm=rdmacm)
        for header in OBSOLETE:
            for suffix in (".c", ".cc"):
                self.obsolete(header, suffix)
        # Programs using the headers as applications do: each *.c in every C cell, each *.cc in
        # every C++ cell (the inline layer's "typical use" programs go here too).
        for prog in sorted(PROGRAMS.glob("*.c")) + sorted(PROGRAMS.glob("*.cc")):
            lang = "C++" if prog.suffix == ".cc" else "C"
            self.run_cells(f"matrix/abi-tests/matrix/{prog.name} ({lang})", prog.suffix, path=prog,
                           rdmacm=(SYSTEM_RDMA / "rdma_cma.h").exists())
