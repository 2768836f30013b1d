# Sourced by tests/vm/guest.sh: running an rdma-core pyverbs test suite and comparing two runs of
# it (Debian's python3-pyverbs suite in section pyverbs, each release's own in section releases).
# Uses guest.sh's $out and its pass/fail counters.

# pyverbs_run NAME DIR COMMAND...: runs COMMAND (the suite, verbose) in DIR; the log goes to
# $out/pyverbs.NAME.log and one "test_id result" line per test, sorted, to $out/pyverbs.NAME.res.
pyverbs_run() {
  local name=$1 dir=$2 t0=$SECONDS; shift 2
  ( cd "$dir" && "$@" ) > "$out/pyverbs.$name.log" 2>&1
  # "test_name (tests.module.Class.test_name) ... ok" -> "tests.module.Class.test_name ok"
  # (a test with a docstring prints "test_name (id)" alone, then "Docstring ... ok"; a test whose
  # processes print after the " ... " gets its result alone on a later line: "ERROR")
  awk 'match($0, /^test[^ ]* \(([^)]*)\)/) { id = substr($1 " " $2, length($1) + 3); sub(/\)$/, "", id); open = 1 }
       open && match($0, / \.\.\. (ok|skipped|ERROR|FAIL|expected failure)/) {
         r = substr($0, RSTART + 5, RLENGTH - 5); gsub(/ /, "_", r); print id, r; open = 0; next }
       open && match($0, /^(ok|ERROR|FAIL|expected failure)$|^skipped /) {
         r = $0; sub(/ .*/, "", r); if (r == "expected") r = "expected_failure"; print id, r; open = 0 }' \
    "$out/pyverbs.$name.log" | sort > "$out/pyverbs.$name.res"
  echo "# pyverbs $name: $((SECONDS - t0))s"
}

# pyverbs_counts NAME: "86 ok, 186 skipped, 1 ERROR"
pyverbs_counts() {
  local c; c=$(awk '{print $2}' "$out/pyverbs.$1.res" | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}')
  echo "${c%, }"
}

# pyverbs_reference REF WHAT: prints REF's counts and the tests that are not ok under it (those are
# not ours to pass: a test that errors under rdma-core too is shown, not counted against us).
pyverbs_reference() {
  echo "# pyverbs under $2: $(pyverbs_counts "$1")"
  grep -v ' ok$\| skipped$' "$out/pyverbs.$1.res" | head -20 | sed "s/^/#   not ok under $2 too: /"
}

# pyverbs_compare REF NAME LABEL: ok when every test that passes in run REF passes in run NAME
# (and REF passed any at all), else not ok naming the tests lost and NAME's errors.
pyverbs_compare() {
  local ref=$1 name=$2 label=$3 lost missing ref_ok
  # (no process substitution: the guest has no /dev/fd)
  grep ' ok$' "$out/pyverbs.$ref.res" | cut -d' ' -f1 > "$out/pyverbs.$ref.ok"
  grep -v ' ok$' "$out/pyverbs.$name.res" > "$out/pyverbs.$name.notok"
  cut -d' ' -f1 "$out/pyverbs.$name.res" > "$out/pyverbs.$name.ran"
  ref_ok=$(wc -l < "$out/pyverbs.$ref.ok")
  lost=$(join "$out/pyverbs.$ref.ok" "$out/pyverbs.$name.notok")
  missing=$(comm -23 "$out/pyverbs.$ref.ok" "$out/pyverbs.$name.ran")
  if [ -z "$lost$missing" ] && [ "$ref_ok" -gt 0 ]; then
    echo "ok - $label ($(pyverbs_counts "$name"); reference: $(pyverbs_counts "$ref"))"; pass=$((pass+1))
  else
    echo "not ok - $label ($(pyverbs_counts "$name"); reference: $(pyverbs_counts "$ref"); passes in the reference but not under ours:)"
    { echo "$lost"; echo "$missing" | sed 's/$/ (did not run)/'; } | grep -v '^ *$' | head -40 | sed 's/^/#   /'
    [ "$ref_ok" -gt 0 ] || echo "#   (no test passes in the reference run: see $out/pyverbs.$ref.log)"
    grep -A12 '^\(ERROR\|FAIL\):' "$out/pyverbs.$name.log" | head -60 | sed 's/^/#   /'
    [ -s "$out/pyverbs.$name.res" ] || tail -4 "$out/pyverbs.$name.log" | sed 's/^/#   (no test ran) /'
    fail=$((fail+1))
  fi
}
