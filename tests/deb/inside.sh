#!/bin/bash
# Runs chrooted in a writable copy of a root (tests/deb/run on the host, tests/vm/guest.sh in the
# soft-RoCE guest: an overlay over /), with the package at /root/pkg.deb. Prints TAP-like lines.
#   inside.sh host    also: the doctor, the man pages, a program built with ibverbs-rs.pc
#   inside.sh guest   also: ibv_devinfo and an ibv_rc_pingpong pair on rxe0 under the switched-on
#                     library (the loader's own trace names the file it initialised)
# man runs with a MANWIDTH other than man-db's default, so that it writes no cat page of its own.
set -u
where=${1:?host or guest}
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
ours=/usr/lib/$ma/ibverbs-rs/libibverbs.so.1
say() { if eval "$2"; then echo "ok - deb: $1 [${SECONDS}s]"; else echo "not ok - deb: $1"; echo "#   ($2)"; fi; }
loads() { ldd "$1" | awk '$1 == "libibverbs.so.1" { print $3 }'; }
real() { readlink -f "$(loads "$1")"; }
inits_ours() { grep -q "calling init: $ours\$" "$@"; }
[ "$where" = guest ] && rm -f /var/lib/man-db/auto-update   # no mandb run under emulation
cache0=$(md5sum < /etc/ld.so.cache)
rdma=$(real /usr/bin/ibv_devinfo)

dpkg -i /root/pkg.deb > /root/dpkg-i.log 2>&1; rc=$?
say "dpkg -i (exit $rc)" "[ $rc = 0 ]"
say "installed, still rdma-core's library ($rdma)" "[ \"\$(real /usr/bin/ibv_devinfo)\" = \"$rdma\" ] && ibverbs-rs-switch status | grep -q ': off:'"
ibverbs-rs-switch on > /root/on.log
say "switch on: ibv_devinfo and ibv_devices load $ours" \
  "[ \"\$(loads /usr/bin/ibv_devinfo)\" = $ours ] && [ \"\$(loads /usr/bin/ibv_devices)\" = $ours ] && grep -q $ours /root/on.log"
LD_DEBUG=libs ibv_devices > /root/ld.log 2>&1
say "switch on: the loader initialises ours (LD_DEBUG)" "inits_ours /root/ld.log && ! grep -q 'calling init: .*/libibverbs.so.1.14' /root/ld.log"
if [ "$where" = guest ]; then
  LD_DEBUG=libs LD_DEBUG_OUTPUT=/root/ld.devinfo ibv_devinfo -d rxe0 > /root/devinfo.out 2>&1
  say "switch on: ibv_devinfo on rxe0 runs ours" "inits_ours /root/ld.devinfo.* && grep -q 'hca_id:.*rxe0' /root/devinfo.out && grep -q PORT_ACTIVE /root/devinfo.out"
  LD_DEBUG=libs LD_DEBUG_OUTPUT=/root/ld.srv timeout 60 ibv_rc_pingpong -d rxe0 -g 0 -n 100 > /root/srv.out 2>&1 & sp=$!
  for i in $(seq 100); do ss -ltnH "sport = :18515" 2>/dev/null | grep -q . && break; sleep 0.1; done
  LD_DEBUG=libs LD_DEBUG_OUTPUT=/root/ld.cli timeout 60 ibv_rc_pingpong -d rxe0 -g 0 -n 100 10.99.0.1 > /root/cli.out 2>&1; crc=$?
  wait $sp; src=$?
  say "switch on: an ibv_rc_pingpong pair on rxe0 runs ours (server $src, client $crc)" \
    "[ $src = 0 ] && [ $crc = 0 ] && inits_ours /root/ld.srv.* && inits_ours /root/ld.cli.* && grep -q 'iters in' /root/cli.out"
  ibverbs-doctor > /root/doctor.out 2>&1; rc=$?
  say "the packaged ibverbs-doctor finds rxe0 usable (exit $rc)" "[ $rc = 0 ] && grep -q 'provider: rxe' /root/doctor.out"
else
  say "ibverbs-doctor and the man pages are installed" \
    "ibverbs-doctor --version | grep -q '^ibverbs-doctor ' && [ \$(ls /usr/share/ibverbs-rs/man/man3 | wc -l) -ge 127 ] && MANWIDTH=100 MANPAGER=cat man -M /usr/share/ibverbs-rs/man ibv_create_qp 2>/dev/null | grep -q 'ibv_create_qp, ibv_destroy_qp' && MANWIDTH=100 MANPAGER=cat man ibverbs-rs-switch 2>/dev/null | grep -q 'SYNOPSIS'"
fi
ibverbs-rs-switch off > /root/off.log
say "switch off: rdma-core's library again" "[ \"\$(real /usr/bin/ibv_devinfo)\" = \"$rdma\" ] && [ ! -e /etc/ld.so.conf.d/00-ibverbs-rs.conf ]"
if [ "$where" = host ]; then
  cc -o /root/hello /root/hello.c $(pkg-config --cflags --libs ibverbs-rs) 2>/root/cc.log
  say "built with pkg-config ibverbs-rs: our headers, runs ours by rpath while switched off" \
    "[ \"\$(/root/hello)\" = 'success 40000' ] && [ \"\$(loads /root/hello)\" = $ours ] && pkg-config --cflags ibverbs-rs | grep -q /usr/include/ibverbs-rs"
fi
# On the host the purge runs switched on (postrm switches off); in the guest, where every ldconfig
# over the shared root costs tens of seconds of emulation, switched off.
[ "$where" = host ] && ibverbs-rs-switch on > /dev/null
state=$(ibverbs-rs-switch status | sed 's/^ibverbs-rs-switch: \([a-z]*\):.*/\1/')
dpkg --purge ibverbs-rs > /root/dpkg-purge.log 2>&1; rc=$?
say "switched $state, then dpkg --purge (exit $rc): rdma-core's library, the loader cache as it was" \
  "[ $rc = 0 ] && [ \"\$(real /usr/bin/ibv_devinfo)\" = \"$rdma\" ] && [ \"\$(md5sum < /etc/ld.so.cache)\" = \"$cache0\" ] && [ ! -e /etc/ld.so.conf.d/00-ibverbs-rs.conf ] && [ ! -e $ours ] && ! dpkg -s ibverbs-rs >/dev/null 2>&1"
if grep -q "^not ok" /dev/null; then :; fi
for f in /root/dpkg-i.log /root/dpkg-purge.log /root/srv.out /root/cli.out /root/doctor.out; do
  [ -f "$f" ] && tail -3 "$f" | sed "s|^|#   $(basename "$f"): |"
done
exit 0
