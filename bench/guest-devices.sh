#!/bin/bash
# Runs in the soft-RoCE guest: cold ibv_get_device_list time (median of N fresh processes) and
# syscall counts (strace -c -f) of ibv_devices and ibv_devinfo, system library vs ours.
set -u
lib=${IBVERBS_RS_LIB:?}; bin=${BENCH_BIN:?}; N=${N:-41}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for who in system ours; do
  env=(); [ $who = ours ] && env=(LD_LIBRARY_PATH=$lib)
  env "${env[@]}" "$bin" >/dev/null  # warm-up (page cache)
  t=$(for i in $(seq $N); do env "${env[@]}" "$bin"; done | awk '{print $1}' | median)
  eval "t_$who=$t"
  for prog in ibv_devices ibv_devinfo; do
    env "${env[@]}" strace -f -c -o /tmp/st.$$ $prog >/dev/null 2>&1
    c=$(awk '$NF == "total" {print $4}' /tmp/st.$$)
    eval "s_${who}_$prog=$c"
  done
done
printf '%-34s %12s %12s %8s\n' metric rdma-core ours ratio
printf '%-34s %12s %12s %8s\n' "cold ibv_get_device_list (us)" $((t_system/1000)) $((t_ours/1000)) $(awk "BEGIN{printf \"%.2f\", $t_system/$t_ours}")
for prog in ibv_devices ibv_devinfo; do
  a=$(eval echo \$s_system_$prog); b=$(eval echo \$s_ours_$prog)
  printf '%-34s %12s %12s %8s\n' "syscalls: $prog" "$a" "$b" $(awk "BEGIN{printf \"%.2f\", $a/$b}")
done
