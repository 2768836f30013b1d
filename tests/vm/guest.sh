#!/bin/bash
# Runs inside the soft-RoCE guest (tools/rdma-vm): each check runs under the system libibverbs and
# under ours (by LD_LIBRARY_PATH and by LD_PRELOAD) in this one boot; stdout, stderr and the exit
# code must be identical. Prints TAP-like lines and "N passed, N failed".
# IBVERBS_RS_TRIXIE is Debian 13's provider folder (staged by tests/vm/run); checks.txt points our
# library at it with IBVERBS_RS_PROVIDER_DIR, which the system library does not read.
set -u
# IBVERBS_RS_VM_ONLY=checks|headers|pairs|pyverbs runs one section (for development; unset: all).
only=${IBVERBS_RS_VM_ONLY:-}
want() { [ -z "$only" ] || [ "$only" = "$1" ]; }
lib=${IBVERBS_RS_LIB:?}
trixie=${IBVERBS_RS_TRIXIE:?}
sid=${IBVERBS_RS_SID:?}  # Debian sid's providers (provider ABI 65)
built=${IBVERBS_RS_BUILT:?}  # rdma-core v44's rxe built against our driver.h (tests/provider-build/run)
query65=${IBVERBS_RS_QUERY65:?}  # tests/provider-build/query_provider.c built for provider ABI 65
pass=0; fail=0
out=${IBVERBS_RS_VM_OUT:-$(mktemp -d)}; mkdir -p "$out"

run_mode() { # mode, command...
  local mode=$1; shift
  case $mode in
    system)  "$@" ;;
    libpath) LD_LIBRARY_PATH=$lib "$@" ;;
    preload) LD_PRELOAD=$lib/libibverbs.so.1 "$@" ;;
  esac
}

run() { # name, mode, command...
  local name=$1 mode=$2; shift 2
  run_mode "$mode" "$@" > "$out/$name.$mode.out" 2> "$out/$name.$mode.err"
  echo $? > "$out/$name.$mode.rc"
}

check() { # command...
  local name; name=$(echo "$*" | tr -c 'A-Za-z0-9' '_')
  run "$name" system "$@"
  for mode in libpath preload; do
    run "$name" "$mode" "$@"
    local bad=""
    for k in out err rc; do
      cmp -s "$out/$name.system.$k" "$out/$name.$mode.$k" || bad="$bad $k"
    done
    if [ -z "$bad" ]; then
      echo "ok - vm: ${label:-$*} ($mode, rc $(cat "$out/$name.system.rc"), $(wc -l < "$out/$name.system.out") lines)"
      pass=$((pass+1))
    else
      echo "not ok - vm: ${label:-$*} ($mode differs in:$bad)"
      for k in $bad; do diff "$out/$name.system.$k" "$out/$name.$mode.$k" | head -8 | sed 's/^/#   /'; done
      fail=$((fail+1))
    fi
  done
}


if want checks; then
# Guard: under LD_LIBRARY_PATH the programs really resolve our library.
if LD_LIBRARY_PATH=$lib ldd "$(command -v ibv_devices)" | grep "$lib/libibverbs.so.1" >/dev/null; then
  echo "ok - vm: ibv_devices resolves $lib/libibverbs.so.1 under LD_LIBRARY_PATH"; pass=$((pass+1))
else
  echo "not ok - vm: ibv_devices does not resolve our library under LD_LIBRARY_PATH"; fail=$((fail+1))
fi

# Guard: with IBVERBS_RS_PROVIDER_DIR, a process using our library maps Debian 13's rxe provider
# and no provider, provider library or libibverbs from the system (its own /proc/PID/maps, read
# after enumerating devices, which loads the providers).
maps="import ctypes, os; v = ctypes.CDLL('libibverbs.so.1'); v.ibv_get_device_list.restype = ctypes.c_void_p
v.ibv_get_device_list(None)
print('\\n'.join(sorted({l.split()[-1] for l in open('/proc/%d/maps' % os.getpid()) if '/' in l})))"
system_libs='^(/usr)?/lib/[^/]*/(libibverbs/|lib(efa|hns|mana|mlx4|mlx5)\.so|libibverbs\.so)'
for mode in libpath preload; do
  m=$(IBVERBS_RS_PROVIDER_DIR=$trixie run_mode $mode /usr/bin/python3 -c "$maps" 2>&1)
  if grep -qx "$trixie/librxe-rdmav34.so" <<<"$m" && ! grep -qE "$system_libs" <<<"$m"; then
    echo "ok - vm: Debian 13's librxe-rdmav34.so mapped under our library ($mode; $(grep -c "^${trixie%/*}/" <<<"$m") files from ${trixie%/*}, none from the system's providers)"
    pass=$((pass+1))
  else
    echo "not ok - vm: Debian 13's librxe-rdmav34.so not mapped, or system providers mapped, under our library ($mode)"
    grep -E "rdmav|$system_libs|^${trixie%/*}/|Error" <<<"$m" | sed 's/^/#   /'
    fail=$((fail+1))
  fi
done

# Guard: the same with Debian sid's providers: the provider ABI 65 rxe (librxe-rdmav65.so).
for mode in libpath preload; do
  m=$(IBVERBS_RS_PROVIDER_DIR=$sid run_mode $mode /usr/bin/python3 -c "$maps" 2>&1)
  if grep -qx "$sid/librxe-rdmav65.so" <<<"$m" && ! grep -qE "$system_libs" <<<"$m"; then
    echo "ok - vm: Debian sid's librxe-rdmav65.so (provider ABI 65) mapped under our library ($mode; $(grep -c "^${sid%/*}/" <<<"$m") files from ${sid%/*}, none from the system's providers)"
    pass=$((pass+1))
  else
    echo "not ok - vm: Debian sid's librxe-rdmav65.so not mapped, or system providers mapped, under our library ($mode)"
    grep -E "rdmav|$system_libs|^${sid%/*}/|Error" <<<"$m" | sed 's/^/#   /'
    fail=$((fail+1))
  fi
done

# Guard: the rxe provider built against our driver.h is the one a process under our library maps
# with IBVERBS_RS_PROVIDER_DIR=$built (checks.txt and pairs.txt then compare it with Debian 12's).
# The same for our own provider ABI 65 build ($query65). The other providers of those folders are
# links to this machine's (tests/vm/run), which may be mapped: only the system's rxe may not.
system_rxe='^(/usr)?/lib/[^/]*/(libibverbs/librxe-|libibverbs\.so)'
for mode in libpath preload; do
  for d in "$built/librxe-rdmav34.so" "$query65/librxe-rdmav65.so"; do
    m=$(IBVERBS_RS_PROVIDER_DIR=${d%/*} run_mode $mode /usr/bin/python3 -c "$maps" 2>&1)
    if grep -qx "$d" <<<"$m" && ! grep -qE "$system_rxe" <<<"$m"; then
      echo "ok - vm: $d (built against our driver.h) mapped under our library ($mode; not the system's rxe)"
      pass=$((pass+1))
    else
      echo "not ok - vm: $d (built against our driver.h) not mapped, or the system's rxe mapped, under our library ($mode)"
      grep -E "rdmav|$system_rxe|^${d%/*}/|Error" <<<"$m" | sed 's/^/#   /'
      fail=$((fail+1))
    fi
  done
done

while read -r line; do
  case "$line" in ''|'#'*) continue;; esac
  label=$line  # shown as written, before expansion
  eval "check $line"
done < "$(dirname "$0")/checks.txt"
echo "# checks: ${SECONDS}s so far"
fi

# Programs built against our headers (headers.txt): $HDR/NAME under each library prints exactly
# what $REF/NAME (built against rdma-core's headers) prints under the same library, and the same
# under both libraries.
HDR=${HDR:?}; REF=${REF:?}
if want headers; then
while read -r line; do
  case "$line" in ''|'#'*) continue;; esac
  ref_line=${line//\$HDR\//\$REF/}
  name=hdr_$(echo "$line" | tr -c 'A-Za-z0-9' '_')
  for mode in system libpath; do
    eval "run \"\$name\" $mode $line"
    eval "run \"\$name.ref\" $mode $ref_line"
    bad=""
    for k in out err rc; do cmp -s "$out/$name.$mode.$k" "$out/$name.ref.$mode.$k" || bad="$bad $k"; done
    if [ -z "$bad" ]; then
      echo "ok - vm headers: $line ($mode: as built against rdma-core's headers; rc $(cat "$out/$name.$mode.rc"), $(wc -l < "$out/$name.$mode.out") lines)"
      pass=$((pass+1))
    else
      echo "not ok - vm headers: $line ($mode differs from the rdma-core-headers build in:$bad)"
      for k in $bad; do diff "$out/$name.ref.$mode.$k" "$out/$name.$mode.$k" | head -8 | sed 's/^/#   /'; done
      fail=$((fail+1))
    fi
  done
  # and the same under both libraries, unless the line points ours at another provider folder
  case "$line" in *IBVERBS_RS_PROVIDER_DIR*) continue;; esac
  bad=""
  for k in out err rc; do cmp -s "$out/$name.system.$k" "$out/$name.libpath.$k" || bad="$bad $k"; done
  if [ -z "$bad" ]; then
    echo "ok - vm headers: $line (the same under both libraries)"; pass=$((pass+1))
  else
    echo "not ok - vm headers: $line (differs between the libraries in:$bad)"
    for k in $bad; do diff "$out/$name.system.$k" "$out/$name.libpath.$k" | head -8 | sed 's/^/#   /'; done
    fail=$((fail+1))
  fi
done < "$(dirname "$0")/headers.txt"
echo "# headers: ${SECONDS}s so far"
fi

# Server/client pairs (pairs.txt): real traffic, both sides under the same library.
A=10.99.0.1
# perftest's timing table varies in width (and trailing blanks) and may hold inf/-nan under
# emulation, and its CPU clock check may warn ("Correlation coefficient ...") in either run.
# rping's "DISCONNECT EVENT..." comes from its CM thread, racing the exit: present in some runs
# and not others under either library.
mask() {
  sed -E '/Correlation coefficient|DISCONNECT EVENT/d; s/0x[0-9a-fA-F]+/0x#/g; s/-?\b(inf|nan)\b/#/g
          s/[0-9]+(\.[0-9]+)?/#/g; s/[[:space:]]+/ /g; s/ $//' "$1"
}
listening() { ss -ltnH "sport = :$1" 2>/dev/null | grep -q .; }
run_pair() { # name, mode, server, client, port
  local name=$1 mode=$2 srv=$3 cli=$4 port=$5 i
  ( run_mode "$mode" timeout 60 bash -c "$srv" ) < /dev/null > "$out/$name.$mode.srv" 2>&1 & local sp=$!
  if [ -n "$port" ]; then
    for i in $(seq 100); do listening "$port" && break; sleep 0.1; done
  else  # an rdma_cm server: wait for its listening cm_id
    for i in $(seq 100); do rdma resource show cm_id 2>/dev/null | grep -q LISTEN && break; sleep 0.1; done
  fi
  ( run_mode "$mode" timeout 60 bash -c "$cli" ) < /dev/null > "$out/$name.$mode.cli" 2>&1
  local crc=$?
  wait "$sp"; echo "server $? client $crc" > "$out/$name.$mode.prc"
}
# NAME[=REF][@MODE,MODE...]: MODES (default system,libpath,preload) are compared with the first;
# without the system library among them both ends must exit 0; =REF also compares the first
# mode's masked output with pair REF's in that mode (run earlier in the file).
want pairs && while IFS='|' read -r name srv cli port; do
  case "$name" in ''|'#'*) continue;; esac
  name=$(echo $name); port=$(echo $port)
  modes="system libpath preload"; ref=""
  case "$name" in *@*) modes=${name#*@}; modes=${modes//,/ }; name=${name%%@*};; esac
  case "$name" in *=*) ref=${name#*=}; name=${name%%=*};; esac
  missing=$(for w in $srv $cli; do case "$w" in '$HDR/'*) [ -x "$(eval echo "$w")" ] || echo "$w";; esac; done | sort -u | tr '\n' ' ')
  if [ -n "$missing" ]; then
    echo "ok - vm pair: $name # SKIP not built: $missing"; continue
  fi
  srv=$(eval echo "$srv"); cli=$(eval echo "$cli")
  for mode in $modes; do run_pair "$name" "$mode" "$srv" "$cli" "$port"; done
  set -- $modes; first=$1; shift
  for side in srv cli; do mask "$out/$name.$first.$side" > "$out/$name.$first.$side.m"; done
  if [ "$first" != system ] && [ "$(cat "$out/$name.$first.prc")" != "server 0 client 0" ]; then
    echo "not ok - vm pair: $name ($first: $(cat "$out/$name.$first.prc"))"
    for side in srv cli; do tail -5 "$out/$name.$first.$side" | sed "s/^/#   $side /"; done
    fail=$((fail+1))
  fi
  cmp_modes=("$@"); [ -n "$ref" ] && cmp_modes+=("ref:$ref")
  for mode in "${cmp_modes[@]}"; do
    bad=""; other=$name.$mode
    case "$mode" in ref:*) other=${mode#ref:}.$first;; esac
    cmp -s "$out/$name.$first.prc" "$out/$other.prc" || bad="$bad exit-codes"
    for side in srv cli; do
      mask "$out/$other.$side" > "$out/$other.$side.m"
      cmp -s "$out/$name.$first.$side.m" "$out/$other.$side.m" || bad="$bad $side"
    done
    what=$mode; case "$mode" in ref:*) what="$first, as pair ${mode#ref:} built against rdma-core's headers";; esac
    if [ -z "$bad" ]; then
      echo "ok - vm pair: $name ($what; $(cat "$out/$name.$first.prc"))"; pass=$((pass+1))
    else
      echo "not ok - vm pair: $name ($what differs in:$bad)"
      echo "#   $first: $(cat "$out/$name.$first.prc"); $what: $(cat "$out/$other.prc")"
      for side in srv cli; do
        diff "$out/$name.$first.$side.m" "$out/$other.$side.m" | head -8 | sed "s/^/#   $side /"
      done
      fail=$((fail+1))
    fi
  done
done < "$(dirname "$0")/pairs.txt"
want pairs && echo "# pairs: ${SECONDS}s so far"

# rdma-core's pyverbs test suite (python3-pyverbs; tests unpacked by tests/vm/run into
# $IBVERBS_RS_PYTESTS): every test that passes under the system library must pass under ours.
if want pyverbs && [ -n "${IBVERBS_RS_PYTESTS:-}" ]; then
  # mode "sid": ours by LD_LIBRARY_PATH with Debian sid's provider ABI 65 rxe.
  for mode in system libpath preload sid; do
    m=$mode; [ $mode = sid ] && m=libpath
    ( cd "$IBVERBS_RS_PYTESTS" || exit 1
      if [ $mode = sid ]; then export IBVERBS_RS_PROVIDER_DIR=$sid; fi
      run_mode "$m" timeout 300 /usr/bin/python3 run_tests.py --dev rxe0 -v ) \
      > "$out/pyverbs.$mode.log" 2>&1
    # "test_name (tests.module.Class.test_name) ... ok" -> "tests.module.Class.test_name ok"
    # (a test with a docstring prints "test_name (id)" alone, then "Docstring ... ok")
    awk 'match($0, /^test[^ ]* \(([^)]*)\)/) { id = substr($1 " " $2, length($1) + 3); sub(/\)$/, "", id) }
         match($0, / \.\.\. (ok|skipped|ERROR|FAIL|expected failure)/) {
           r = substr($0, RSTART + 5, RLENGTH - 5); gsub(/ /, "_", r); print id, r }' \
      "$out/pyverbs.$mode.log" | sort > "$out/pyverbs.$mode.res"
  done
  sys_ok=$(grep -c ' ok$' "$out/pyverbs.system.res")
  for mode in libpath preload sid; do
    # (no process substitution: the guest has no /dev/fd)
    grep ' ok$' "$out/pyverbs.system.res" | cut -d' ' -f1 > "$out/pyverbs.system.ok"
    grep -v ' ok$' "$out/pyverbs.$mode.res" > "$out/pyverbs.$mode.notok"
    cut -d' ' -f1 "$out/pyverbs.$mode.res" > "$out/pyverbs.$mode.ran"
    lost=$(join "$out/pyverbs.system.ok" "$out/pyverbs.$mode.notok")
    missing=$(comm -23 "$out/pyverbs.system.ok" "$out/pyverbs.$mode.ran")
    counts=$(awk '{print $2}' "$out/pyverbs.$mode.res" | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}')
    if [ -z "$lost$missing" ] && [ "$sys_ok" -gt 0 ]; then
      echo "ok - vm: pyverbs suite ($mode: ${counts%, }; system: $sys_ok ok)"; pass=$((pass+1))
    else
      echo "not ok - vm: pyverbs suite ($mode: ${counts%, }; system: $sys_ok ok; passes under the system library but not under ours:)"
      { echo "$lost"; echo "$missing" | sed 's/$/ (did not run)/'; } | grep -v '^ *$' | head -40 | sed 's/^/#   /'
      grep -A12 '^\(ERROR\|FAIL\):' "$out/pyverbs.$mode.log" | head -60 | sed 's/^/#   /'
      fail=$((fail+1))
    fi
  done
fi

echo "# total: ${SECONDS}s in the guest"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
