#!/bin/bash
# Runs in the soft-RoCE guest: bench/cq_events under the system library and ours, in both fork
# modes; prints ns/op and the ratio rdma-core / ours (above 1: ours is faster).
# Under emulation the first process to touch a kernel path pays for its translation: a warm-up
# round under each library comes first, and the two modes run the libraries in opposite order.
set -u
lib=${IBVERBS_RS_LIB:?}; bin=${BENCH_BIN:?}
"$bin" --warmup >/dev/null 2>&1; LD_LIBRARY_PATH=$lib "$bin" --warmup >/dev/null 2>&1
for mode in default --hide-cof; do
  arg=(); [ $mode = --hide-cof ] && arg=(--hide-cof)
  sys() { "$bin" "${arg[@]}" > /tmp/sys.$$ 2> /tmp/sys.err.$$; }
  ours() { LD_LIBRARY_PATH=$lib "$bin" "${arg[@]}" > /tmp/ours.$$ 2> /tmp/ours.err.$$; }
  if [ $mode = default ]; then sys; ours; else ours; sys; fi
  echo "== fork mode: $mode (fork status system $(sed -n 's/fork protection: //p' /tmp/sys.err.$$), ours $(sed -n 's/fork protection: //p' /tmp/ours.err.$$); 1 = enabled, 2 = unneeded)"
  grep -v '^fork protection' /tmp/sys.err.$$ /tmp/ours.err.$$
  printf '%-24s %12s %12s %8s\n' "metric (ns/op)" rdma-core ours ratio
  join /tmp/sys.$$ /tmp/ours.$$ | while read -r m a b; do
    printf '%-24s %12s %12s %8s\n' "$m" "$a" "$b" "$(awk "BEGIN{printf \"%.2f\", $a/$b}")"
  done
done
