#!/bin/bash
# Runs inside the soft-RoCE guest (tools/rdma-vm): each check runs under the system libibverbs and
# under ours (by LD_LIBRARY_PATH and by LD_PRELOAD) in this one boot; stdout, stderr and the exit
# code must be identical. Prints TAP-like lines and "N passed, N failed".
set -u
lib=${IBVERBS_RS_LIB:?}
pass=0; fail=0
out=$(mktemp -d)

run() { # name, mode, command...
  local name=$1 mode=$2; shift 2
  case $mode in
    system)  "$@" ;;
    libpath) LD_LIBRARY_PATH=$lib "$@" ;;
    preload) LD_PRELOAD=$lib/libibverbs.so.1 "$@" ;;
  esac > "$out/$name.$mode.out" 2> "$out/$name.$mode.err"
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
      echo "ok - vm: $* ($mode, rc $(cat "$out/$name.system.rc"), $(wc -l < "$out/$name.system.out") lines)"
      pass=$((pass+1))
    else
      echo "not ok - vm: $* ($mode differs in:$bad)"
      for k in $bad; do diff "$out/$name.system.$k" "$out/$name.$mode.$k" | head -8 | sed 's/^/#   /'; done
      fail=$((fail+1))
    fi
  done
}


# Guard: under LD_LIBRARY_PATH the programs really resolve our library.
if LD_LIBRARY_PATH=$lib ldd "$(command -v ibv_devices)" | grep -q "$lib/libibverbs.so.1"; then
  echo "ok - vm: ibv_devices resolves $lib/libibverbs.so.1 under LD_LIBRARY_PATH"; pass=$((pass+1))
else
  echo "not ok - vm: ibv_devices does not resolve our library under LD_LIBRARY_PATH"; fail=$((fail+1))
fi

while read -r line; do
  case "$line" in ''|'#'*) continue;; esac
  eval "check $line"
done < "$(dirname "$0")/checks.txt"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
