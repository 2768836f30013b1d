#!/bin/bash
# Runs in the soft-RoCE guest for bench/verbs-ops: per op, the median time of one call and its
# system calls (strace -f between verbs_ops's markers), system library vs ours; then each
# library's syscall total for the whole run (strace -c -f). With PERFTEST=1, then runs
# guest-perftest.sh (next to this script) in the same boot.
set -u
lib=${IBVERBS_RS_LIB:?}; bin=${BENCH_BIN:?}
ops=("$@"); [ ${#ops[@]} = 0 ] && ops=(alloc_pd dealloc_pd reg_mr_4k dereg_mr_4k reg_mr_64m dereg_mr_64m
  create_cq destroy_cq create_qp destroy_qp modify_qp_rts)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
iters() { case $1 in *64m) echo "$N_BIG";; *) echo "$N_FAST";; esac; }
run() { # who, command...
  local who=$1; shift
  if [ "$who" = ours ]; then LD_LIBRARY_PATH=$lib "$@"; else "$@"; fi
}
ratio() { awk "BEGIN { if ($2 > 0) printf \"%.2f\", $1 / $2; else print \"-\" }"; }
declare -A t s mix
# Timing in the order system, ours, ours, system (the kernel's memory state drifts over a run,
# e.g. how much of a fresh 64 MiB buffer gets huge pages); each library's time is the mean of
# its two medians.
for who in system ours ours system; do
  run $who "$bin" -n 3 "${ops[@]}" >/dev/null  # warm-up
  for op in "${ops[@]}"; do
    m=$(run $who "$bin" -n "$(iters "$op")" "$op" | awk '{print $3}')
    t[$who.$op]=$(( ${t[$who.$op]:-0} + m / 2 ))
  done
done
for who in system ours; do
  for op in "${ops[@]}"; do
    run $who strace -f -o "$tmp/$who.$op.log" "$bin" -q -m -n "$N_SYS" "$op"
    # Lines strictly between a begin and an end marker, per timed call.
    awk -v n="$N_SYS" '
      /\/@verbs_ops\/begin\// { on = 1; next }
      /\/@verbs_ops\/end\// { on = 0; next }
      on && !/^[0-9]+ +(\+\+\+|---)/ { c++; split($2, a, "("); m[a[1]]++ }
      END { printf "%.1f", c / n; for (k in m) printf " %s:%.1f", k, m[k] / n; print "" }' \
      "$tmp/$who.$op.log" > "$tmp/$who.$op.count"
    read -r s[$who.$op] mix[$who.$op] < "$tmp/$who.$op.count" || true
  done
  run $who strace -c -f -o "$tmp/$who.total" "$bin" -q -n "$N_SYS" "${ops[@]}"
  s[$who.total]=$(awk '$NF == "total" {print $4}' "$tmp/$who.total")
done
printf '%-14s %11s %11s %6s   %9s %9s %6s\n' op "rdma-core" ours ratio "sys/call" "sys/call" ratio
printf '%-14s %11s %11s %6s   %9s %9s %6s\n' "" "(µs, med)" "(µs, med)" "" rdma-core ours ""
for op in "${ops[@]}"; do
  a=${t[system.$op]}; b=${t[ours.$op]}
  printf '%-14s %11.1f %11.1f %6s   %9s %9s %6s\n' "$op" "$(awk "BEGIN{print $a/1000}")" \
    "$(awk "BEGIN{print $b/1000}")" "$(ratio "$a" "$b")" "${s[system.$op]}" "${s[ours.$op]}" \
    "$(ratio "${s[system.$op]}" "${s[ours.$op]}")"
done
printf '%-14s %35s %9s %9s %6s\n' "whole run" "(strace -c -f, N_SYS=$N_SYS per op)" "${s[system.total]}" \
  "${s[ours.total]}" "$(ratio "${s[system.total]}" "${s[ours.total]}")"
echo "syscalls per call, by name:"
for op in "${ops[@]}"; do
  for who in system ours; do printf '  %-14s %-7s %s\n' "$op" "$who" "${mix[$who.$op]:-}"; done
done
if [ "${PERFTEST:-0}" = 1 ]; then
  echo
  bash "$(dirname "$0")/guest-perftest.sh"
fi
