#!/bin/bash
# Runs chrooted in the writable copy of a root that tests/rpm/run installed the package into with
# `rpm --root` (an overlay over /). Prints TAP-like lines. LIBDIR is RHEL's library directory.
#   inside.sh installed LIBDIR   the files, the doctor, the man pages, pkg-config, the switch on
#                                and off, the providers read from LIBDIR/libibverbs first; ends
#                                switched on
#   inside.sh upgraded LIBDIR    after `rpm -U --replacepkgs`: still switched on
#   inside.sh erased LIBDIR      after `rpm -e`: rdma-core's library, the loader's cache as before
# man runs with a MANWIDTH other than man-db's default, so that it writes no cat page of its own.
set -u
phase=${1:?installed or erased} libdir=${2:?libdir}
ours=$libdir/ibverbs-rs/libibverbs.so.1
conf=/etc/ld.so.conf.d/00-ibverbs-rs.conf
say() { if eval "$2"; then echo "ok - rpm: $1"; else echo "not ok - rpm: $1"; echo "#   ($2)"; fi; }
loads() { ldd "$1" | awk '$1 == "libibverbs.so.1" { print $3 }'; }
real() { readlink -f "$(loads "$1")"; }

if [ "$phase" = upgraded ]; then
  say "upgraded while switched on: still on, programs load ours" \
    "[ -e $conf ] && [ \"\$(loads /usr/bin/ibv_devinfo)\" = $ours ] && ibverbs-rs-switch status | grep -q ': on:'"
  exit 0
fi
if [ "$phase" = erased ]; then
  say "erased while switched on: rdma-core's library ($(cat /root/rdma)), the loader cache as it was, the switch's file and our directory gone" \
    "[ \"\$(real /usr/bin/ibv_devinfo)\" = \"\$(cat /root/rdma)\" ] && [ \"\$(md5sum < /etc/ld.so.cache)\" = \"\$(cat /root/cache0)\" ] && [ ! -e $conf ] && [ ! -e $libdir/ibverbs-rs ] && ! rpm --dbpath /var/lib/rpm -q ibverbs-rs >/dev/null 2>&1"
  exit 0
fi

md5sum < /etc/ld.so.cache > /root/cache0
real /usr/bin/ibv_devinfo > /root/rdma
rdma=$(cat /root/rdma)
say "installed where RHEL keeps it: $libdir/ibverbs-rs/libibverbs.so.1, headers, .pc, doctor, switch, man pages" \
  "[ \"\$(readlink $ours)\" = libibverbs.so.\$(rpm --dbpath /var/lib/rpm -q --qf '%{VERSION}' ibverbs-rs) ] && [ -f /usr/include/ibverbs-rs/infiniband/verbs.h ] && [ -f $libdir/pkgconfig/ibverbs-rs.pc ] && [ -x /usr/bin/ibverbs-doctor ] && [ -x /usr/sbin/ibverbs-rs-switch ] && [ \$(ls /usr/share/ibverbs-rs/man/man3 | wc -l) -ge 127 ] && [ -f /usr/share/licenses/ibverbs-rs/COPYRIGHT ]"
say "installed, still rdma-core's library ($rdma), switch off" \
  "[ \"\$(real /usr/bin/ibv_devinfo)\" = \"$rdma\" ] && ibverbs-rs-switch status | grep -q ': off:'"
say "the doctor's built-in provider directory is $libdir/libibverbs" \
  "ibverbs-doctor --sysfs /nonexistent --no-netlink 2>/dev/null | grep -qx 'provider directory: $libdir/libibverbs (built in)'"
say "man -M /usr/share/ibverbs-rs/man ibv_create_qp; man ibverbs-rs-switch names $libdir/ibverbs-rs" \
  "MANWIDTH=100 MANPAGER=cat man -M /usr/share/ibverbs-rs/man ibv_create_qp 2>/dev/null | grep -q 'ibv_create_qp, ibv_destroy_qp' && MANWIDTH=100 MANPAGER=cat man ibverbs-rs-switch 2>/dev/null | grep -q '$libdir/ibverbs-rs/libibverbs.so.1'"

ibverbs-rs-switch on > /root/on.log
say "switch on: $conf (the package's, rpm -qf) names $libdir/ibverbs-rs; ibv_devinfo and ibv_devices load $ours" \
  "grep -qx '$libdir/ibverbs-rs' $conf && [ \"\$(rpm --dbpath /var/lib/rpm -qf --qf '%{NAME}' $conf)\" = ibverbs-rs ] && [ \"\$(loads /usr/bin/ibv_devinfo)\" = $ours ] && [ \"\$(loads /usr/bin/ibv_devices)\" = $ours ] && grep -q $ours /root/on.log"

# The providers: Debian's librxe copied into RHEL's directory, Debian's own left where it is. A
# fake world with rxe0 (sysfs and /dev/infiniband set up by tests/rpm/run); ours must take RHEL's
# copy: the built-in directory is searched before the standard ones.
if [ -f /root/world/ok ]; then
  ma=$(gcc -print-multiarch)
  mkdir -p "$libdir/libibverbs"
  cp "/usr/lib/$ma/libibverbs/librxe-rdmav34.so" "$libdir/libibverbs/"
  LD_DEBUG=files LD_DEBUG_OUTPUT=/root/ld.prov SYSFS_PATH=/root/world/sys ibv_devices > /root/devices.out 2>&1
  say "switch on: ibv_devices lists rxe0 with $libdir/libibverbs/librxe-rdmav34.so, not /usr/lib/$ma/libibverbs's" \
    "grep -q rxe0 /root/devices.out && grep -q 'file=$libdir/libibverbs/librxe-rdmav34.so ' /root/ld.prov.* && ! grep -q 'file=/usr/lib/$ma/libibverbs/' /root/ld.prov.*"
  rm -rf "$libdir/libibverbs"
else
  echo "ok - rpm: providers from $libdir/libibverbs first # SKIP $(cat /root/world/skip)"
fi

PKG_CONFIG_PATH=$libdir/pkgconfig cc -o /root/hello /root/hello.c $(PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --cflags --libs ibverbs-rs) 2>/root/cc.log
say "built with pkg-config ibverbs-rs (PKG_CONFIG_PATH=$libdir/pkgconfig): our headers, no rpath, runs ours while switched on" \
  "[ \"\$(/root/hello)\" = 'success 40000' ] && [ \"\$(loads /root/hello)\" = $ours ] && PKG_CONFIG_PATH=$libdir/pkgconfig pkg-config --cflags ibverbs-rs | grep -q /usr/include/ibverbs-rs && ! readelf -d /root/hello | grep -q 'R.*PATH'"

ibverbs-rs-switch off > /root/off.log
say "switch off: rdma-core's library again, for the pkg-config build too" \
  "[ \"\$(real /usr/bin/ibv_devinfo)\" = \"$rdma\" ] && [ \"\$(real /root/hello)\" = \"$rdma\" ] && [ ! -e $conf ] && [ \"\$(md5sum < /etc/ld.so.cache)\" = \"\$(cat /root/cache0)\" ]"
# Erased switched on: the package's %preun switches off.
ibverbs-rs-switch on > /dev/null
say "switched on again for the erase" "[ \"\$(loads /usr/bin/ibv_devinfo)\" = $ours ]"
exit 0
