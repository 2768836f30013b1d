#!/bin/bash
# Install what the build and the tests need on a fresh Debian 12 machine (idempotent; quiet when done).
#   tools/deps.sh          build + ABI/behaviour tests without a kernel
#   tools/deps.sh vm       also the soft-RoCE VM (QEMU, busybox, kmod, cpio, iproute2, rdma programs,
#                          libfabric's fi_info and UCX's ucx_info) and what the release matrix needs
#   tools/deps.sh releases what ../shared/rdma-core/build needs to build an rdma-core release in place
#                          (tools/rdma-core-builds; the VM's release matrix)
#   tools/deps.sh bench    what `make bench` needs: valgrind (callgrind, callgrind.h) and strace
#   tools/deps.sh rpm      what `make rpm` and its test need: rpmbuild, rpm and rpmsign (rpm), rpm2cpio, cpio, rpmlint,
#                          aarch64's strip (binutils-aarch64-linux-gnu) for an aarch64 package, and gpg
#                          for the test's throwaway signing key
#   tools/deps.sh cross    what tools/cross-root needs on the host: debootstrap, qemu-user-static
#                          (run through binfmt_misc), binfmt-support
set -euo pipefail
pkgs=(gcc g++ clang make pkg-config python3 binutils meson ninja-build
      libibverbs-dev librdmacm-dev ibverbs-providers ibverbs-utils)
# real programs built against our installed headers (tests/clients/run): perftest's autotools
# build also wants libibumad and libpci
pkgs+=(autoconf automake libtool libibumad-dev libpci-dev)
# make deb and its test: dpkg-deb/dpkg-shlibdeps (dpkg-dev), lintian; the man pages' checks: groff, man-db
pkgs+=(dpkg-dev lintian groff man-db)
# rdma-core releases built from ../shared/rdma-core (tools/rdma-core-builds): the list its build
# script checks, installed here so that make test's builds never reach for apt themselves
releases=(cmake ninja-build pkg-config libnl-3-dev libnl-route-3-dev libudev-dev cython3 python3-dev gcc)
if [ "${1:-}" = releases ]; then
  pkgs+=("${releases[@]}")
elif [ "${1:-}" = vm ]; then
  pkgs+=("${releases[@]}" qemu-system-x86 busybox-static kmod cpio iproute2 zstd xz-utils
         perftest rdmacm-utils python3-pyverbs strace libfabric-bin ucx-utils)
elif [ "${1:-}" = cross ]; then
  pkgs=(debootstrap qemu-user-static binfmt-support)
elif [ "${1:-}" = bench ]; then
  pkgs+=(valgrind strace)
elif [ "${1:-}" = rpm ]; then
  pkgs+=(rpm rpm2cpio cpio rpmlint binutils-aarch64-linux-gnu gpg gpg-agent)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep 'install ok installed' >/dev/null || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v cargo >/dev/null || { echo "deps: cargo (Rust toolchain) is required" >&2; exit 1; }
