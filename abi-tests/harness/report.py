"""TAP-like reporting: one line per check, a summary line at the end."""

import sys


class Report:
    def __init__(self, verbose=False, max_detail=12):
        self.passed = self.failed = self.skipped = 0
        self.verbose = verbose
        self.max_detail = max_detail

    def ok(self, name, note=""):
        self.passed += 1
        print(f"ok - {name}" + (f" ({note})" if note else ""))

    def fail(self, name, reason, details=()):
        self.failed += 1
        print(f"not ok - {name} ({reason})")
        details = list(details)
        shown = details if self.verbose else details[: self.max_detail]
        for line in shown:
            print(f"#   {line}")
        if len(shown) < len(details):
            print(f"#   ... {len(details) - len(shown)} more lines (use -v)")

    def skip(self, name, reason):
        self.skipped += 1
        print(f"ok - {name} # SKIP {reason}")

    def check(self, name, problems, note="", reason=None):
        """ok if `problems` (a list of detail lines) is empty, else not ok."""
        if problems:
            self.fail(name, reason or f"{len(problems)} problems", problems)
        else:
            self.ok(name, note)

    def summary(self):
        line = f"{self.passed} passed, {self.failed} failed"
        if self.skipped:
            line += f", {self.skipped} skipped"
        print(line)
        sys.stdout.flush()
        return 1 if self.failed else 0
