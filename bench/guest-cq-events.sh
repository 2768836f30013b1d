#!/bin/bash
# Runs in the soft-RoCE guest: bench/cq_events under the system library and ours, in both fork
# modes; prints ns/op and the ratio rdma-core / ours (above 1: ours is faster).
set -u
lib=${IBVERBS_RS_LIB:?}; bin=${BENCH_BIN:?}
for mode in default --hide-cof; do
  arg=(); [ $mode = --hide-cof ] && arg=(--hide-cof)
  "$bin" "${arg[@]}" > /tmp/sys.$$ 2> /tmp/sys.err.$$
  LD_LIBRARY_PATH=$lib "$bin" "${arg[@]}" > /tmp/ours.$$ 2> /tmp/ours.err.$$
  echo "== fork mode: $mode (fork status system $(sed -n 's/fork protection: //p' /tmp/sys.err.$$), ours $(sed -n 's/fork protection: //p' /tmp/ours.err.$$); 1 = enabled, 2 = unneeded)"
  grep -v '^fork protection' /tmp/sys.err.$$ /tmp/ours.err.$$
  printf '%-24s %12s %12s %8s\n' "metric (ns/op)" rdma-core ours ratio
  join /tmp/sys.$$ /tmp/ours.$$ | while read -r m a b; do
    printf '%-24s %12s %12s %8s\n' "$m" "$a" "$b" "$(awk "BEGIN{printf \"%.2f\", $a/$b}")"
  done
done
