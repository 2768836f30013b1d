# libibverbs.so.1 from the Rust staticlib, relinked with our version script.
#
#   make                 build target/release/libibverbs.so.1 (+ libibverbs.so link), the ibverbs-doctor
#                        program and the man pages (target/release/man)
#   make test            every test: lints (layers, facts, sizes, fmt, clippy, rustdoc, headers), cargo tests, abi-tests (symbols, layouts, header types and values,
#                        the compile matrix, behaviour diffs), install, real programs against our
#                        headers (clients, inline layer), a provider built against driver.h, the VM suite
#                        (with the rdma-core release matrix: tools/rdma-core-builds, cached in ~/.cache)
#   make headers         regenerate include/infiniband/ from the Rust types (tools/headers: cbindgen)
#   make install         what `make` built (never builds: `sudo make install` needs no cargo) into PREFIX=/usr/local
#                        (or BINDIR=, LIBDIR=, INCLUDEDIR=, MANDIR=, DESTDIR=) as rdma-core lays it out
#   make uninstall       remove exactly what `make install` put there (its manifest, same PREFIX/DESTDIR)
#   make deb             a Debian package beside Debian's libibverbs1 (packaging/README.md)
#   make rpm             an RPM for the RHEL family beside its libibverbs (packaging/README.md)
#   make providers       real providers on the uverbs emulator, rdma-core vs ours, every command failed once
#                        (tests/providers/README.md)
#   make cross           the library for arm64, ppc64el and s390x (tools/arches), built in tools/cross-root's
#                        Debian 13 root (set up once, cached in ~/.cache/ibverbs-rs; needs root):
#                        target/<rust target>/release/libibverbs.so.1, e.g. target/aarch64-unknown-linux-gnu/release
#   make cross-smoke     per architecture: build, abi-tests symbols + diff and the uverbs emulator without
#                        faults, under qemu-user against that architecture's rdma-core 56.1 (part of make test;
#                        ~8 min warm, ~14 min with a cold root)
#   make cross-test      the same with cargo test for each target and the emulator with faults (before a
#                        release; tools/cross; differences only in tests/cross/allowlist; ~20 min per
#                        architecture, about an hour for three)
#   make msrv            the library, its programs and every test with trixie's rustc 1.85 (rust-version)
#   make bench           instructions per call, rdma-core vs ours, on fake sysfs trees (bench/README.md)
#   make bench-vm        the same for the control verbs on rxe0 in the soft-RoCE guest (slow)
#   make vm-releases     the guest's rdma-core release matrix with every release's pyverbs suite (~20 min)
#
# Why not a cdylib: rustc hands the linker its own anonymous version script for a cdylib, which
# cannot be combined with named version nodes; a staticlib linked by cc takes ours unchanged.
# The version script is generated from the declarations (tools/symbols-map) and kept at the top
# level, committed, so a change to the exported ABI shows in the diff: `make` rewrites symbols.map
# when the declarations changed it, and `make lint` fails while that rewrite is not committed.

PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
BINDIR     ?= $(PREFIX)/bin
DATADIR    ?= $(PREFIX)/share
MANDIR     ?= $(DATADIR)/man
DESTDIR    ?=
CC         ?= cc
CARGO      ?= cargo

# ../shared beside the checkout: the ABI facts (abi/), the client programs the tests build
# (clients/), rdma-core's sources (rdma-core/). A target that needs it and finds it missing stops
# with one line saying what is missing.
SHARED     := $(abspath $(CURDIR)/../shared)
need-shared = $(if $(wildcard $(SHARED)/$(1)),,$(error $(SHARED)/$(1) is missing ($(2)): the shared folder must sit beside the checkout (README, "Set up and run")))

# rdma-core names the file libibverbs.so.1.<newest IBVERBS_1.x node>.<package version>: the file VERSION
# (its one home; tools/facts checks its node against symbols.map in make lint).
LIBVERSION := $(file < VERSION)
# TARGET=<rust target> builds for another architecture (tools/arches; make cross runs it inside
# tools/cross-root's Debian 13 root with CC=<triple>-gcc OBJCOPY=<triple>-objcopy):
# target/<rust target>/release/libibverbs.so.1.
TARGET     ?=
OBJCOPY    ?= objcopy
ifeq ($(TARGET),)
OUT        := target/release
CARGO_TARGET :=
else
OUT        := target/$(TARGET)/release
CARGO_TARGET := --target $(TARGET)
endif
LIB        := $(OUT)/libibverbs.so.1
DOCTOR     := $(OUT)/ibverbs-doctor
NATIVE_LIBS := -lgcc_s -lpthread -ldl -lc

.PHONY: all lib doctor man shared deps releases demo test cross cross-smoke cross-test msrv lint cargo-test abi-test install-test clients-test inline-test provider-test providers secure-test vm-test vm-releases man-test doctor-test deb deb-test rpm-aarch64 rpm-aarch64-test bench bench-vm headers install uninstall clean FORCE

all: lib doctor man
lib: $(LIB)
doctor: $(DOCTOR)

# ibverbs-doctor: a binary of this crate (src/bin/ibverbs-doctor), reusing the library's modules.
$(DOCTOR): FORCE
	$(CARGO) build --release --bin ibverbs-doctor $(CARGO_TARGET)

# Section-3 pages from man/*.page (one source; prototypes taken from include/infiniband/verbs.h).
man:
	python3 tools/mkman --out $(OUT)/man

# The version script (and the bad-input sweep's prototype table) come from the #[export]
# declarations' records in the archive (tools/symbols-map); the records are dropped from the
# library itself.
# -Bsymbolic-functions: the library's references to its own functions are bound when it is
# linked. The only such references are the `.symver` twins' trampolines (`name@IBVERBS_PRIVATE_57`
# ... jumping to `name`, and the IBVERBS_1.0 twins): without it each was a PLT slot the loader
# resolved by a symbol lookup at every process start (-z now), 75 lookups, 68,000 of the 182,000
# instructions the library added to an empty program's start (bench/README.md). The exported
# symbols and their versions are unchanged; a twin now reaches our function as rdma-core's
# library of that provider ABI reaches its own (a program's definition of `name` still takes
# every call the loader resolves to it, the providers' included).
$(LIB): FORCE
	$(CARGO) build --release --lib $(CARGO_TARGET)
	python3 tools/symbols-map $(OUT)/libibverbs.a $(OUT)/symbols.map $(OUT)/exports.txt
	@cmp -s $(OUT)/symbols.map symbols.map || { cp $(OUT)/symbols.map symbols.map; \
	  echo "symbols.map: the exported ABI changed; the top-level copy is rewritten: review and commit it"; }
	$(CC) -shared -o $@.tmp -Wl,-soname,libibverbs.so.1 \
	  -Wl,--version-script=$(OUT)/symbols.map -Wl,-z,now -Wl,-z,relro -Wl,--no-undefined \
	  -Wl,-Bsymbolic-functions -Wl,--gc-sections -Wl,--strip-debug \
	  -Wl,--whole-archive $(OUT)/libibverbs.a -Wl,--no-whole-archive $(NATIVE_LIBS)
	$(OBJCOPY) --remove-section=.ibverbs.exports $@.tmp
	mv -f $@.tmp $@
	ln -sf libibverbs.so.1 $(OUT)/libibverbs.so

shared:
	$(call need-shared,abi/symbols-target.txt,the ABI facts: the target symbol list and struct layouts)
	$(call need-shared,clients,the client programs the tests build)

deps:
	tools/deps.sh

# The main job: the library, its symbol table and ABI checks, then real programs under it in the
# soft-RoCE guest (tools/vm-demo).
demo: shared deps lib
	@echo "== $(LIB): SONAME, version nodes, exported symbols"
	@readelf -d $(LIB) | grep SONAME
	@objdump -T $(LIB) | awk '/\*ABS\*/ {print "   node " $$NF}' | sort -V
	@objdump -T $(LIB) | awk '$$0 !~ /\*ABS\*|\*UND\*/ && / g / {print $$(NF-1)}' | sort | uniq -c | sort -k2 -V
	python3 abi-tests/run --lib $(OUT) symbols
	python3 abi-tests/run --lib $(OUT) layouts
	tools/deps.sh vm
	@echo "== soft-RoCE guest: device tools, traffic and pyverbs under our library"
	tools/vm-demo $(OUT)

test: shared deps releases lib doctor man lint cargo-test abi-test man-test install-test doctor-test deb-test rpm-test clients-test inline-test provider-test providers secure-test vm-test cross-smoke

# Other architectures (tools/arches: arm64, ppc64el, s390x; riscv64 builds too: tools/cross build
# riscv64), inside a Debian 13 root with cross compilers, rustc-web and each architecture's rdma-core
# (tools/cross-root, cached in ~/.cache/ibverbs-rs/cross-root); programs run by qemu-user.
cross: shared
	tools/cross build

# Ends with `cross-smoke: A of B architectures as on x86_64; checks: P of Q; allowlisted: N`.
cross-smoke: shared
	tools/cross smoke

cross-test: shared
	tools/cross test

msrv:
	tools/cross msrv

# The rdma-core releases the VM's release matrix runs (tools/rdma-core-builds), built once per
# machine into ~/.cache/ibverbs-rs and reused: started here in the background at low priority, so
# a cold cache builds beside the host tests (about 2 minutes of both cores each); the VM suite's
# own call waits for each release's lock and finds it built. Log: target/rdma-core-builds.log.
# The cross root (tools/cross-root, ~8 min cold, mostly downloads) is set up beside them the same
# way for cross-smoke, whose own setup waits for its lock. Log: target/cross-root-setup.log.
releases:
	tools/deps.sh releases
	tools/deps.sh cross
	mkdir -p target
	nohup nice -n 10 tools/rdma-core-builds > target/rdma-core-builds.txt 2> target/rdma-core-builds.log < /dev/null &
	nohup nice -n 10 tools/cross-root setup > target/cross-root-setup.log 2>&1 < /dev/null &

# The shape of the code: imports only down the layers and no circles (tools/layers), each fact (the
# provider ABIs, the version) typed only in its home (tools/facts check), formatting,
# clippy with every warning an error (the [lints] table in Cargo.toml adds the unsafe rules), the
# API docs without a warning (cargo doc), and the committed symbols.map equal to what `make lib`
# generated from the declarations.
lint: lib
	python3 tools/layers
	python3 tools/facts check
	python3 tools/sizes
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && ! git diff --quiet -- symbols.map; then \
	  git --no-pager diff --stat -- symbols.map; \
	  echo "lint: symbols.map differs from the committed one (the #[export] declarations changed the ABI): review and commit it"; exit 1; fi
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps --quiet
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps --document-private-items --quiet
	$(CARGO) run --release --quiet -p ibverbs-headers -- --check

cargo-test:
	$(call need-shared,abi/symbols-target.txt,the ABI facts the layout tests compare with)
	$(CARGO) test --all-targets

abi-test: lib
	$(call need-shared,abi/symbols-target.txt,the ABI facts: the target symbol list and struct layouts)
	python3 abi-tests/run --lib $(OUT)

vm-test: lib doctor man clients-test provider-test
	tools/deps.sh vm
	IBVERBS_RS_HDR=$(CURDIR)/$(OUT)/clients IBVERBS_RS_PROVIDER_BUILD=$(CURDIR)/$(OUT)/provider-build \
	  tests/vm/run $(CURDIR)/$(OUT)

# The guest's release matrix alone, with every release's pyverbs suite (make test runs the oldest
# and the newest release's): before a release, or after a change to a provider ABI's op table
# (~20 min on 2 cores: 17 of them the ten suite runs in two lanes).
vm-releases: lib
	tools/deps.sh vm
	IBVERBS_RS_VM_ONLY=releases IBVERBS_RS_VM_RELEASE_PYVERBS=all tests/vm/run $(CURDIR)/$(OUT)

# Real programs against `make install`'s headers (rdma-core's examples, perftest); the VM runs them.
clients-test: lib doctor man
	$(call need-shared,clients,rdma-core v44's examples and perftest)
	tests/clients/run $(CURDIR)/$(OUT)/clients

# driver.h for provider authors: rdma-core v44's rxe provider built against `make install`'s headers
# (the VM runs it), and the provider ABI selection.
provider-test: lib doctor man
	$(call need-shared,clients,rdma-core v44's rxe provider sources)
	tests/provider-build/run $(CURDIR)/$(OUT)/provider-build

# verbs.h's inline layer: fake contexts, ours vs rdma-core's headers (C++ use: abi-tests/run matrix).
inline-test: lib
	tests/inline/run

# make install/uninstall (without cargo on PATH, manifest), pkg-config, meson, meson-compat with the
# system's libibverbs-dev present (~10 s).
install-test: lib doctor man
	tests/install/run

# ibverbs-doctor names each cause in a fake world of its own, and the library says the same at
# VERBS_LOG_LEVEL 2 under LD_PRELOAD (~2 s; the library part needs root and no RDMA netlink).
doctor-test: lib doctor
	tests/doctor/run $(CURDIR)/$(OUT)

# make deb's package: lintian without errors; install, switch on/off, build with its pkg-config,
# purge, in a private mount namespace over an overlay of / (~30 s, lintian half of it).
deb-test: lib doctor man
	tests/deb/run $(CURDIR)/$(OUT)

# The man pages: libibverbs-dev's 127 names covered, no groff/man/lexgrog warning, our wording (~10 s).
man-test:
	tests/man/run

# Debian 12's real providers on the uverbs emulator (tests/providers/): each lifecycle's command
# stream and output under rdma-core and ours, every command failed once (EINVAL, ENOMEM, EIO, short)
# on a 6.x and a write()-only kernel, a node whose name is not UTF-8, threads under helgrind, and
# memcheck of mlx5's and rxe's EIO faults; then every rdma-core release's providers against that
# release's own libibverbs, without faults (--releases build: waits for the builds `releases`
# started, builds a missing one; ~15 s for the five). About 7 minutes on 2 cores; every provider's
# EIO faults under memcheck: tests/providers/run --valgrind quick (~15 min); also short answers and
# the write kernel: --valgrind full (hours).
providers: lib
	tools/deps.sh bench
	tests/providers/run --valgrind quick --valgrind-on mlx5,rxe --releases build

# Set-uid, set-gid and file-capability copies of a program under attacker-chosen variables
# (needs root; skipped with the reason otherwise).
secure-test: lib
	tests/secure/run $(OUT)

# Benchmarks report, they never fail on a number; BENCH_ARGS passes options (bench/run --help).
bench: lib
	tools/deps.sh bench
	bench/run host $(BENCH_ARGS)

bench-vm: lib
	tools/deps.sh bench
	bench/run vm $(BENCH_ARGS)

# tools/headers (a binary of the workspace) writes them; make lint runs it with --check.
headers:
	$(CARGO) run --release --quiet -p ibverbs-headers

# Copies what `make` built; never runs cargo (tools/install: one line and exit 1 if nothing was built).
INSTALL_VARS = DESTDIR="$(DESTDIR)" PREFIX="$(PREFIX)" BINDIR="$(BINDIR)" LIBDIR="$(LIBDIR)" \
  INCLUDEDIR="$(INCLUDEDIR)" PKGCONFIGDIR="$(PKGCONFIGDIR)" DATADIR="$(DATADIR)" MANDIR="$(MANDIR)" \
  LIBVERSION="$(LIBVERSION)" OUT="$(OUT)"
install:
	$(foreach f,$(OUT)/libibverbs.so.1 $(OUT)/ibverbs-doctor $(OUT)/man/man3/ibv_create_qp.3,$(if $(wildcard $(f)),,$(error make install: $(f) is missing: run 'make' first, as the user who builds (install copies what make built and never builds))))
	@$(INSTALL_VARS) tools/install install

uninstall:
	@$(INSTALL_VARS) tools/install uninstall

# A Debian package that sits beside libibverbs1 and is switched on and off (packaging/README.md).
deb: all
	packaging/build-deb $(OUT)

# The RPM for the RHEL family (packaging/README.md): the library built again with RHEL's provider
# directory compiled in (RPM_LIBDIR/libibverbs; packaging/build-rpm reads RPM_LIBDIR from here), in
# a target directory of its own, so that target/release keeps Debian's. RPM_ARCH: this machine's;
# another architecture's build is packaged with packaging/build-rpm OUT ARCH.
.PHONY: rpm rpm-build rpm-test
RPM_LIBDIR := /usr/lib64
RPM_ARCH   ?= $(shell uname -m)
RPM_OUT    := target/rpm/release
rpm-build:
	IBVERBS_PROVIDER_DIR=$(RPM_LIBDIR)/libibverbs CARGO_TARGET_DIR=$(CURDIR)/target/rpm \
	  $(MAKE) --no-print-directory OUT=$(RPM_OUT) all

rpm: rpm-build
	tools/deps.sh rpm
	packaging/build-rpm $(RPM_OUT) $(RPM_ARCH)

# The aarch64 RPM from a real cross build: the library and doctor built for arm64 in
# tools/cross-root's root (as make cross, with RPM_LIBDIR's provider directory), packaged here
# (~2 min after the root is set up): target/rpm/<arm64's rust target>/release/*.aarch64.rpm.
rpm-aarch64: shared
	tools/deps.sh rpm
	tools/deps.sh cross
	tools/cross-root setup
	tools/cross-root run bash -c 'export $$(tools/cross env arm64 | grep -v "^OUT="); \
	  IBVERBS_PROVIDER_DIR=$(RPM_LIBDIR)/libibverbs CARGO_TARGET_DIR=$(CURDIR)/target/rpm \
	  $(MAKE) --no-print-directory OUT=target/rpm/$$TARGET/release TARGET=$$TARGET all'
	packaging/build-rpm target/rpm/$$(tools/cross env arm64 | sed -n 's/^TARGET=//p')/release aarch64

# make rpm-test with the aarch64 package of rpm-aarch64 (rpmlint'ed) in place of the stand-in.
rpm-aarch64-test: rpm-build rpm-aarch64
	tests/rpm/run $(CURDIR)/$(RPM_OUT) $(CURDIR)/target/rpm/$$(tools/cross env arm64 | sed -n 's/^TARGET=//p')/release

# make rpm's package: rpmlint without errors; installed with rpm --root into an overlay of / in a
# private mount namespace: RHEL's paths, providers from RPM_LIBDIR/libibverbs first, switch on/off,
# erase leaves nothing; an aarch64 package from a stand-in build (~1 min after rpm-build).
rpm-test: rpm-build
	tools/deps.sh rpm
	tests/rpm/run $(CURDIR)/$(RPM_OUT)

clean:
	$(CARGO) clean
