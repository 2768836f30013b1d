#!/bin/bash
# Runs in the soft-RoCE guest for bench/perftest: perftest
# latency and bandwidth on rxe0, server and client both under the system library, then both under
# ours (LD_LIBRARY_PATH=$IBVERBS_RS_LIB). Per test two rounds, alternating order (system, ours,
# ours, system); each run starts the server, waits until it listens on TCP 18515, then runs the
# client against 10.99.0.1. Reports the client's t_typical / t_avg (µs) or BW average (MB/s),
# averaged over the two runs (over the finite ones), with the runs themselves. Ratios: above 1 means ours is faster
# (latency rdma-core / ours, bandwidth ours / rdma-core). The data path is the provider's
# (librxe), not ours: differences there are noise. Under QEMU emulation a latency run can land
# near 4000 µs (one 4 ms kernel tick, seemingly rxe's kernel-side work waiting while both vCPUs
# busy-poll) whichever library runs: read the listed runs, not just the means.
set -u
lib=${IBVERBS_RS_LIB:?}
tests=(ib_send_lat ib_write_lat ib_read_lat ib_send_bw ib_write_bw ib_read_bw)
N_LAT=${N_LAT:-1000}; N_BW=${N_BW:-2000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
listening() { [ -n "$(ss -ltnH 'sport = :18515')" ]; }
declare -A val runs
fail=0
one() { # who, test: one server+client pair; adds the client's numbers to val/runs
  local who=$1 t=$2 n srv i line a b
  case $t in *_lat) n=$N_LAT;; *) n=$N_BW;; esac
  local pre=(env); [ "$who" = ours ] && pre=(env "LD_LIBRARY_PATH=$lib")
  "${pre[@]}" "$t" -d rxe0 -x 0 -F -n "$n" > "$tmp/srv" 2>&1 &   # env execs: $! is the server
  srv=$!
  for ((i = 0; i < 600; i++)); do listening && break; kill -0 "$srv" 2>/dev/null || break; sleep 0.1; done
  if ! listening; then
    echo "$t ($who): the server did not listen:"; sed 's/^/  /' "$tmp/srv"; wait "$srv"; fail=1; return
  fi
  if [ "$who" = ours ] && ! grep -qF "$lib/libibverbs.so.1" "/proc/$srv/maps"; then
    echo "$t (ours): the server has not mapped $lib/libibverbs.so.1"; fail=1
  fi
  "${pre[@]}" timeout 300 "$t" -d rxe0 -x 0 -F -n "$n" 10.99.0.1 > "$tmp/cli" 2>&1
  for ((i = 0; i < 300; i++)); do kill -0 "$srv" 2>/dev/null || break; sleep 0.1; done
  kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null
  # The result row: the first line after the "#bytes" header that starts with a number.
  line=$(awk '/#bytes/ { h = 1; next } h && $1 ~ /^[0-9]+$/ { print; exit }' "$tmp/cli")
  if [ -z "$line" ]; then
    echo "$t ($who): no result:"; sed 's/^/  /' "$tmp/cli"; fail=1; return
  fi
  case $t in
    *_lat) read -r _ _ _ _ a b _ <<< "$line"   # t_typical, t_avg
           add "$who.$t.typ" "$a"; add "$who.$t.avg" "$b";;
    *)     read -r _ _ _ a _ <<< "$line"       # BW average
           add "$who.$t.bw" "$a";;
  esac
}
declare -A sum cnt
add() { # key, value: a run's number; values that are not finite numbers (perftest can print
        # inf) are listed but left out of the mean
  runs[$1]+=" $2"
  if [[ $2 =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
    sum[$1]=$(awk "BEGIN{print ${sum[$1]:-0} + $2}"); cnt[$1]=$(( ${cnt[$1]:-0} + 1 ))
    val[$1]=$(awk "BEGIN{print ${sum[$1]} / ${cnt[$1]}}")
  fi
}
for t in "${tests[@]}"; do
  for who in system ours ours system; do one "$who" "$t"; done
done
echo "perftest on rxe0 (-d rxe0 -x 0 -F; -n $N_LAT lat, -n $N_BW bw, default sizes), mean of 2 runs; runs listed"
printf '%-13s %-16s %10s %10s %6s   %s\n' test metric rdma-core ours ratio "runs (rdma-core | ours)"
row() { # test, key, metric label, ratio direction (lat|bw)
  local a=${val[system.$1.$2]:-} b=${val[ours.$1.$2]:-} r=-
  [ -n "$a" ] && [ -n "$b" ] && r=$(awk -v a="$a" -v b="$b" -v d="$4" \
    'BEGIN { if (a > 0 && b > 0) printf "%.2f", d == "lat" ? a / b : b / a; else print "-" }')
  printf '%-13s %-16s %10.2f %10.2f %6s   %s |%s\n' "$1" "$3" "${a:-0}" "${b:-0}" "$r" \
    "${runs[system.$1.$2]:-}" "${runs[ours.$1.$2]:-}"
}
for t in "${tests[@]}"; do
  case $t in
    *_lat) row "$t" typ "t_typical [µs]" lat; row "$t" avg "t_avg [µs]" lat;;
    *)     row "$t" bw "BW avg [MB/s]" bw;;
  esac
done
exit $fail
