#!/bin/bash
# Runs inside the soft-RoCE guest (tools/rdma-vm): each check runs under the system libibverbs and
# under ours (by LD_LIBRARY_PATH and by LD_PRELOAD) in this one boot; stdout, stderr and the exit
# code must be identical. Prints TAP-like lines and "N passed, N failed".
# IBVERBS_RS_TRIXIE is Debian 13's provider folder (staged by tests/vm/run); checks.txt points our
# library at it with IBVERBS_RS_PROVIDER_DIR, which the system library does not read.
set -u
# IBVERBS_RS_VM_ONLY=checks|headers|pairs|doctor|deb|pyverbs|releases|valgrind runs one section, or a comma list of them (for development; unset: all).
only=${IBVERBS_RS_VM_ONLY:-}
want() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }
lib=${IBVERBS_RS_LIB:?}
trixie=${IBVERBS_RS_TRIXIE:?}
sid=${IBVERBS_RS_SID:?}  # Debian sid's providers (provider ABI 65)
built=${IBVERBS_RS_BUILT:?}  # rdma-core v44's rxe built against our driver.h (tests/provider-build/run)
# tests/provider-build/query_provider.c built for each later provider ABI N: $query/N
query=${IBVERBS_RS_QUERY:?}
# The provider ABIs, oldest first (tests/vm/run reads them from their home: tools/facts)
abis=${IBVERBS_RS_PABIS:?}; oldest=${abis%% *}; later=${abis#* }; newest=${abis##* }
pass=0; fail=0
out=${IBVERBS_RS_VM_OUT:-$(mktemp -d)}; mkdir -p "$out"
here=$(dirname "$0")
. "$here/pyverbs.sh"

run_mode() { # mode, command...
  local mode=$1; shift
  case $mode in
    system)  "$@" ;;
    libpath) LD_LIBRARY_PATH=$lib "$@" ;;
    preload) LD_PRELOAD=$lib/libibverbs.so.1 "$@" ;;
    # section releases (tests/vm/releases.sh): release $rel under its own library, and under ours
    own)     LD_LIBRARY_PATH=$rel/lib "$@" ;;
    ours)    LD_LIBRARY_PATH=$lib IBVERBS_RS_PROVIDER_DIR=$rel/lib IBVERBS_RS_CONFIG_DIR=$rel_cfg "$@" ;;
  esac
}

run() { # name, mode, command...
  local name=$1 mode=$2; shift 2
  # A hang is a failure of its own (rc 124), not the guest's time limit.
  run_mode "$mode" timeout -k 5 "${IBVERBS_RS_CHECK_TIMEOUT:-180}" "$@" \
    > "$out/$name.$mode.out" 2> "$out/$name.$mode.err"
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

# Provider loading without a cache (src/provider/known.rs, hints.rs): with one device (rxe0), every
# process under ours dlopens exactly one provider name, rxe, on the first run of a fresh user and on
# later runs alike, with this machine's, Debian 13's and sid's providers (LD_DEBUG=files names every
# file the dynamic loader opens); stdout is the system library's, and nothing appears in HOME.
t_prov=$SECONDS
tried() { grep -o 'file=[^ ]*-rdmav[0-9]*\.so' "$1" | sed 's|.*/||; s|^file=||; s|^lib||; s|-rdmav[0-9]*\.so$||' | sort -u | tr '\n' ' '; }
port_open() { ss -ltnH "sport = :$1" 2>/dev/null | grep -q .; }
for prog in ibv_devices ibv_devinfo; do $prog > "$out/tried.$prog.system" 2>/dev/null; done
for set in default trixie sid; do
  case $set in default) pdir=; modes="libpath preload";; trixie) pdir=$trixie; modes=libpath;; sid) pdir=$sid; modes=libpath;; esac
  for mode in $modes; do
    h=$(mktemp -d); bad=""; n=0
    for run in first later; do
      for prog in ibv_devices ibv_devinfo; do
        HOME=$h LD_DEBUG=files run_mode $mode env ${pdir:+IBVERBS_RS_PROVIDER_DIR=$pdir} $prog \
          > "$out/tried.out" 2> "$out/tried.err"
        t=$(tried "$out/tried.err"); n=$((n+1))
        [ "$t" = "rxe " ] || bad="$bad $prog($run):[$t]"
        cmp -s "$out/tried.out" "$out/tried.$prog.system" || bad="$bad $prog($run):stdout"
      done
      HOME=$h LD_DEBUG=files run_mode $mode env ${pdir:+IBVERBS_RS_PROVIDER_DIR=$pdir} \
        timeout 60 ibv_rc_pingpong -d rxe0 -g 0 -n 10 > /dev/null 2> "$out/tried.srv" & sp=$!
      for i in $(seq 100); do port_open 18515 && break; sleep 0.1; done
      HOME=$h LD_DEBUG=files run_mode $mode env ${pdir:+IBVERBS_RS_PROVIDER_DIR=$pdir} \
        timeout 60 ibv_rc_pingpong -d rxe0 -g 0 -n 10 10.99.0.1 > /dev/null 2> "$out/tried.cli"; crc=$?
      wait $sp; src=$?; n=$((n+2))
      [ "$src $crc" = "0 0" ] || bad="$bad pair($run):exit[$src $crc]"
      for side in srv cli; do t=$(tried "$out/tried.$side"); [ "$t" = "rxe " ] || bad="$bad pair-$side($run):[$t]"; done
    done
    created=$(find "$h" -mindepth 1 | head -3 | tr '\n' ' ')
    [ -z "$created" ] || bad="$bad created:[$created]"
    if [ -z "$bad" ]; then
      echo "ok - vm: one provider name tried (rxe) by each of $n processes, first run of a fresh HOME and later runs ($set providers, $mode; ibv_devices, ibv_devinfo, rc_pingpong pair), stdout as the system library's, HOME left empty"
      pass=$((pass+1))
    else
      echo "not ok - vm: provider names tried with one rxe0 device ($set providers, $mode):$bad"
      fail=$((fail+1))
    fi
    rm -rf "$h"
  done
done

# Nothing written: device programs under ours (LD_LIBRARY_PATH) with a fresh read-only HOME, traced
# by strace (every file system call of every thread and child). Ours may make no create/truncate/
# mkdir/rename/link/symlink/unlink/mknod call (readlink reads) that the same program under the system library does not make
# (bash's pair script makes one itself), and HOME stays empty.
ro=$(mktemp -d)
mount --bind "$ro" "$ro" && mount -o remount,bind,ro "$ro" || chmod 555 "$ro"
writes() { grep -E 'O_CREAT|O_TRUNC|mkdir|rename|\b(sym)?link(at)?\(|unlink|mknod' "$1" | sed -E 's/^[0-9]+ +//; s/ = .*//; s/0x[0-9a-f]+/0x#/g' | sort -u; }
mode_env() { case $1 in system) ;; libpath) echo "LD_LIBRARY_PATH=$lib";; preload) echo "LD_PRELOAD=$lib/libibverbs.so.1";; esac; }
pair_cmd='timeout 60 ibv_rc_pingpong -d rxe0 -g 0 -n 10 & sleep 3; timeout 60 ibv_rc_pingpong -d rxe0 -g 0 -n 10 10.99.0.1; wait'
for cmd in "ibv_devices" "ibv_devinfo -v" "$PROGS/pdmr" "$PROGS/qp_verbs" "bash -c '$pair_cmd'" \
           "env IBVERBS_RS_PROVIDER_DIR=$sid ibv_devinfo -v" "env IBVERBS_RS_PROVIDER_DIR=$trixie ibv_devinfo"; do
  bad=""
  for mode in system libpath; do
    eval "HOME=$ro strace -f -qq -e trace=%file -o \"$out/strace.$mode\" env $(mode_env $mode) $cmd" > /dev/null 2>&1
    writes "$out/strace.$mode" > "$out/writes.$mode"
    [ -s "$out/strace.$mode" ] || bad="$bad $mode:no-trace"
  done
  extra=$(comm -13 "$out/writes.system" "$out/writes.libpath" | head -3 | tr '\n' ';')
  [ -z "$extra" ] || bad="$bad [$extra]"
  created=$(find "$ro" -mindepth 1 | head -3 | tr '\n' ' ')
  [ -z "$created" ] || bad="$bad created:[$created]"
  if [ -z "$bad" ]; then
    echo "ok - vm: nothing written by ours: $cmd (read-only HOME; strace: $(wc -l < "$out/writes.system") creating calls under the system library, the same under ours)"
    pass=$((pass+1))
  else
    echo "not ok - vm: ours writes files: $cmd:$bad"
    fail=$((fail+1))
  fi
done
umount "$ro" 2>/dev/null

# The built-in provider table against real providers (this machine's v44, Debian 13's v56.1, sid's
# v65): a configuration naming every provider of the set but rxe, by path (so none is known by
# name and every one is loaded when rdma-core would load them), leaves rxe0 unclaimed; ours checks
# each registration against the table by its provider name (a mismatch is logged as "does not fit
# the built-in table").
sysdir=$(dirname "$(readlink -f /usr/lib/*/libibverbs.so.1)")/libibverbs
for set in default trixie sid; do
  case $set in default) pdir=$sysdir;; trixie) pdir=$trixie;; sid) pdir=$sid;; esac
  cfg=$(mktemp -d); files=0
  for f in "$pdir"/lib*-rdmav*.so; do
    n=${f##*/lib}; n=${n%-rdmav*}; files=$((files+1))
    [ "$n" = rxe ] || echo "driver $pdir/lib$n" > "$cfg/$n.driver"
  done
  rm -f "$out/audit.$set.log"
  IBVERBS_RS_CONFIG_DIR=$cfg IBVERBS_RS_PROVIDER_DIR=$pdir VERBS_LOG_LEVEL=4 VERBS_LOG_FILE=$out/audit.$set.log \
    LD_LIBRARY_PATH=$lib ibv_devices > /dev/null 2> "$out/audit.$set.err"
  reg=$(grep -c 'registered (provider ABI' "$out/audit.$set.log")
  misfit=$(grep 'does not fit the built-in table' "$out/audit.$set.log" | head -3)
  failed=$(grep -c "couldn't load driver" "$out/audit.$set.err")
  if [ -z "$misfit" ] && [ "$reg" -gt 0 ] && [ $((reg + failed + 1)) = "$files" ]; then
    echo "ok - vm: built-in provider table fits the $set providers ($reg registered, $failed not loadable here, rxe left out)"
    pass=$((pass+1))
  else
    echo "not ok - vm: built-in provider table vs the $set providers ($reg registered, $failed not loadable, $files files)"
    echo "$misfit" | sed 's/^/#   /'
    fail=$((fail+1))
  fi
  rm -rf "$cfg"
done
echo "# provider loading checks: $((SECONDS - t_prov))s"

# Guard: the rxe provider built against our driver.h is the one a process under our library maps
# with IBVERBS_RS_PROVIDER_DIR=$built (checks.txt and pairs.txt then compare it with Debian 12's).
# The same for our own builds for the later provider ABIs ($query/N). The other providers of those folders are
# links to this machine's (tests/vm/run), which may be mapped: only the system's rxe may not.
system_rxe='^(/usr)?/lib/[^/]*/(libibverbs/librxe-|libibverbs\.so)'
for mode in libpath preload; do
  for d in "$built/librxe-rdmav$oldest.so" $(for v in $later; do echo "$query/$v/librxe-rdmav$v.so"; done); do
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
  case "$line" in
    # once for each later provider ABI, as $pabi (the label shows the number)
    'each-later-pabi '*) line=${line#each-later-pabi }
      for pabi in $later; do label=${line//\$pabi/$pabi}; eval "check $line"; done ;;
    *) eval "check $line" ;;
  esac
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
  # (not past the server's exit: a server that fails before listening, as xsrq_pingpong's does on
  # rxe, would otherwise hold the client back for the whole wait, 100 polls of ss under emulation)
  if [ -n "$port" ]; then
    for i in $(seq 100); do listening "$port" && break; kill -0 "$sp" 2>/dev/null || break; sleep 0.1; done
  else  # an rdma_cm server: wait for its listening cm_id
    for i in $(seq 100); do rdma resource show cm_id 2>/dev/null | grep -q LISTEN && break; kill -0 "$sp" 2>/dev/null || break; sleep 0.1; done
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

# ibverbs-doctor on rxe0 (tests/doctor/run covers each cause on fake trees), and the library's
# ENOMEM hint when RLIMIT_MEMLOCK refuses a real registration: as root without CAP_IPC_LOCK under
# a 64 KiB limit, ibv_rc_pingpong registering 1 MiB, our library by LD_PRELOAD, VERBS_LOG_LEVEL=2.
vm_ok() { echo "ok - vm: $*"; pass=$((pass+1)); }
vm_bad() { echo "not ok - vm: $1"; sed 's/^/#   /' "$2" | head -40; fail=$((fail+1)); }
if want doctor; then
  doctor=${IBVERBS_RS_DOCTOR:-}
  if [ ! -x "$doctor" ]; then
    echo "ok - vm: doctor # SKIP ibverbs-doctor not staged (make doctor man)"
  else
    "$doctor" > "$out/doctor.out" 2>&1; rc=$?
    if [ $rc = 0 ] && grep -q "^rxe0 (uverbs0, found by netlink)" "$out/doctor.out" &&
       grep -q "kernel driver id 14 (RDMA_DRIVER_RXE)" "$out/doctor.out" &&
       grep -q "node /dev/infiniband/uverbs0: character device 231:[0-9]*, .*: this user can open it" "$out/doctor.out" &&
       grep -q "provider: rxe, from /usr/lib/[^ ]*/libibverbs/librxe-rdmav34.so (provider ABI 34)" "$out/doctor.out" &&
       grep -q "usable: yes" "$out/doctor.out" && grep -q "verdict: 1 usable RDMA device" "$out/doctor.out"; then
      vm_ok "ibverbs-doctor on rxe0: found by netlink, node opens, provider rxe (ABI 34), exit 0"
    else vm_bad "ibverbs-doctor on rxe0 (exit $rc)" "$out/doctor.out"; fi
    nocap="setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock prlimit --memlock=65536:65536"
    $nocap "$doctor" > "$out/doctor-memlock.out" 2>&1
    if grep -q "RLIMIT_MEMLOCK: 65536 bytes (64 KiB)" "$out/doctor-memlock.out" && grep -q "too small: ibv_reg_mr of more than" "$out/doctor-memlock.out"; then
      vm_ok "ibverbs-doctor under a 64 KiB memlock limit without CAP_IPC_LOCK: too small"
    else vm_bad "ibverbs-doctor under a 64 KiB memlock limit" "$out/doctor-memlock.out"; fi
    $nocap env VERBS_LOG_LEVEL=2 LD_PRELOAD=$lib/libibverbs.so.1 timeout 30 ibv_rc_pingpong -d rxe0 -g 0 -s 1048576 > "$out/enomem.out" 2>&1
    if grep -q "^libibverbs: ibv_reg_mr of 1048576 bytes (1 MiB) failed with ENOMEM: RLIMIT_MEMLOCK is 65536 bytes (64 KiB)" "$out/enomem.out" &&
       grep -q "Couldn't register MR" "$out/enomem.out"; then
      vm_ok "ENOMEM from ibv_reg_mr under LD_PRELOAD: the library logs the memlock figures at warn level"
    else vm_bad "ENOMEM hint from ibv_reg_mr" "$out/enomem.out"; fi
  fi
  echo "# doctor: ${SECONDS}s so far"
fi

# make deb's package on a writable copy of this root: a private mount namespace, an overlay over /
# (the shared root stays read-only), chrooted there, tests/deb/inside.sh guest: install, switch on,
# ibv_devinfo and an ibv_rc_pingpong pair on rxe0 run ours, the packaged doctor, switch off, switch
# on again and purge (tests/deb/run does the same on the host, with lintian and the leftovers
# check). man-db's trigger is skipped in the copy to keep emulated time short.
if want deb; then
  debpkg=${IBVERBS_RS_DEB:-}
  if [ ! -f "$debpkg" ]; then
    echo "ok - vm: deb # SKIP no package staged (make doctor man, packaging/build-deb)"
  else
    unshare --mount --propagation private bash -c '
      set -e; PATH=/usr/sbin:/usr/bin:/sbin:/bin; s=$(mktemp -d)
      mount -t tmpfs deb-vm "$s"; mkdir "$s/u" "$s/w" "$s/m"
      mount -t overlay -o "lowerdir=/,upperdir=$s/u,workdir=$s/w" deb-vm "$s/m"
      for d in proc sys dev dev/shm; do mount --bind "/$d" "$s/m/$d"; done
      mount -t tmpfs deb-tmp "$s/m/tmp"; mount -t tmpfs deb-run "$s/m/run"
      mkdir -p "$s/m/root"; cp "$1" "$s/m/root/pkg.deb"; cp "$2" "$s/m/root/inside.sh"
      chroot "$s/m" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root bash /root/inside.sh guest
    ' deb-vm "$debpkg" "$(dirname "$0")/deb-inside.sh" > "$out/deb.out" 2>&1
    grep -E "^(ok|not ok) - " "$out/deb.out" | sed 's/^\(ok\|not ok\) - /\1 - vm: /'
    pass=$((pass + $(grep -c "^ok - " "$out/deb.out")))
    n=$(grep -c "^not ok - " "$out/deb.out")
    fail=$((fail + n))
    if [ "$n" != 0 ] || [ "$(grep -c "^ok - " "$out/deb.out")" != 9 ]; then
      [ "$n" != 0 ] || { echo "not ok - vm: deb: not every check ran"; fail=$((fail+1)); }
      sed 's/^/#   /' "$out/deb.out" | grep -v "^#   ok" | head -40
    fi
  fi
  echo "# deb: ${SECONDS}s so far"
fi

# rdma-core's pyverbs test suite (python3-pyverbs; tests unpacked by tests/vm/run into
# $IBVERBS_RS_PYTESTS): every test that passes under the system library must pass under ours
# (LD_LIBRARY_PATH). Not run again by LD_PRELOAD, nor with sid's ABI-65 rxe: how the loader picks
# our library under LD_PRELOAD is checked by every line of checks.txt and pairs.txt and by the
# maps guards above, and an ABI-65 rxe under a whole pyverbs suite by section releases (65.0's
# own suite, a superset of this one, under ours with 65.0's librxe-rdmav65.so).
if want pyverbs && [ -n "${IBVERBS_RS_PYTESTS:-}" ]; then
  for mode in system libpath; do
    pyverbs_run "$mode" "$IBVERBS_RS_PYTESTS" run_mode "$mode" timeout 300 /usr/bin/python3 run_tests.py --dev rxe0 -v
  done
  pyverbs_reference system "the system library"
  pyverbs_compare system libpath "vm: pyverbs suite (libpath)"
fi

. "$here/releases.sh"

# valgrind's memcheck over programs under our library (LD_LIBRARY_PATH): no error reported in any
# object (our library, the rxe provider, the program). memcheck cannot see what the kernel writes
# into command responses; rdma-core marks them defined with client requests, and so do we
# (src/sys/valgrind.rs): without that, librxe's reads of its responses are reported. Slow under
# emulation (a minute or more a run), so a few programs that reach every command family rxe uses.
# IBVERBS_RS_VM_VALGRIND names other programs ($PROGS/NAME, space separated).
if want valgrind; then
  if ! command -v valgrind >/dev/null; then
    echo "ok - vm: valgrind # SKIP valgrind not installed"
  else
    for prog in ${IBVERBS_RS_VM_VALGRIND:-qp_verbs srq_verbs pdmr cq_channel}; do
      name=valgrind_$prog
      LD_LIBRARY_PATH=$lib valgrind -q --error-exitcode=99 "$PROGS/$prog" > "$out/$name.out" 2> "$out/$name.err"
      rc=$?
      reports=$(grep -c '^==[0-9]*==' "$out/$name.err")
      if [ "$rc" != 99 ] && [ "$reports" = 0 ]; then
        echo "ok - vm: valgrind memcheck clean under ours: $prog (rc $rc)"; pass=$((pass+1))
      else
        echo "not ok - vm: valgrind memcheck under ours: $prog (rc $rc, $(grep -c 'Conditional jump\|uninitialised\|Invalid' "$out/$name.err") reports)"
        grep -A6 '^==[0-9]*== [A-Z]' "$out/$name.err" | head -40 | sed 's/^/#   /'
        fail=$((fail+1))
      fi
    done
    echo "# valgrind: ${SECONDS}s so far"
  fi
fi

echo "# total: ${SECONDS}s in the guest"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
