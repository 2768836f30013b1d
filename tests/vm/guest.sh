#!/bin/bash
# Runs inside the soft-RoCE guest (tools/rdma-vm): each check runs under the system libibverbs and
# under ours (by LD_LIBRARY_PATH and by LD_PRELOAD) in this one boot; stdout, stderr and the exit
# code must be identical. Prints TAP-like lines and "N passed, N failed".
# IBVERBS_RS_TRIXIE is Debian 13's provider folder (staged by tests/vm/run); checks.txt points our
# library at it with IBVERBS_RS_PROVIDER_DIR, which the system library does not read.
set -u
lib=${IBVERBS_RS_LIB:?}
trixie=${IBVERBS_RS_TRIXIE:?}
pass=0; fail=0
out=$(mktemp -d)

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


# Guard: under LD_LIBRARY_PATH the programs really resolve our library.
if LD_LIBRARY_PATH=$lib ldd "$(command -v ibv_devices)" | grep -q "$lib/libibverbs.so.1"; then
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

while read -r line; do
  case "$line" in ''|'#'*) continue;; esac
  label=$line  # shown as written, before expansion
  eval "check $line"
done < "$(dirname "$0")/checks.txt"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
