# libibverbs.so.1 from the Rust staticlib, relinked with our version script.
#
#   make                 build target/release/libibverbs.so.1 (+ libibverbs.so link)
#   make test            every test: lints (layers, fmt, clippy), cargo tests, abi-tests (symbols, layouts, header types and values,
#                        the compile matrix, behaviour diffs), install, real programs against our
#                        headers (clients, inline layer), a provider built against driver.h, the VM suite
#                        (with the rdma-core release matrix: tools/rdma-core-builds, cached in ~/.cache)
#   make headers         regenerate include/infiniband/ from the Rust types (cbindgen)
#   make install         PREFIX=/usr/local (or LIBDIR=, INCLUDEDIR=, DESTDIR=) as rdma-core lays it out
#   make bench           instructions per call, rdma-core vs ours, on fake sysfs trees (bench/README.md)
#   make bench-vm        the same for the control verbs on rxe0 in the soft-RoCE guest (slow)
#
# Why not a cdylib: rustc hands the linker its own anonymous version script for a cdylib, which
# cannot be combined with named version nodes; a staticlib linked by cc takes ours unchanged.
# The version script is generated: target/release/symbols.map (tools/symbols-map).

PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DESTDIR    ?=
CC         ?= cc
CARGO      ?= cargo

# rdma-core names the file libibverbs.so.1.<newest IBVERBS_1.x node>.<package version>.
LIBVERSION := 1.18.65.0
OUT        := target/release
LIB        := $(OUT)/libibverbs.so.1
NATIVE_LIBS := -lgcc_s -lpthread -ldl -lc

.PHONY: all lib deps releases demo test lint cargo-test abi-test install-test clients-test inline-test provider-test secure-test vm-test bench bench-vm headers install clean FORCE

all: lib
lib: $(LIB)

# The version script (and the bad-input sweep's prototype table) come from the #[export]
# declarations' records in the archive (tools/symbols-map); the records are dropped from the
# library itself.
$(LIB): FORCE
	$(CARGO) build --release --lib
	python3 tools/symbols-map $(OUT)/libibverbs.a $(OUT)/symbols.map $(OUT)/exports.txt
	$(CC) -shared -o $@.tmp -Wl,-soname,libibverbs.so.1 \
	  -Wl,--version-script=$(OUT)/symbols.map -Wl,-z,now -Wl,-z,relro -Wl,--no-undefined \
	  -Wl,--gc-sections -Wl,--strip-debug \
	  -Wl,--whole-archive $(OUT)/libibverbs.a -Wl,--no-whole-archive $(NATIVE_LIBS)
	objcopy --remove-section=.ibverbs.exports $@.tmp
	mv -f $@.tmp $@
	ln -sf libibverbs.so.1 $(OUT)/libibverbs.so

deps:
	tools/deps.sh

# The main job: the library, its symbol table and ABI checks, then real programs under it in the
# soft-RoCE guest (tools/vm-demo).
demo: deps lib
	@echo "== $(LIB): SONAME, version nodes, exported symbols"
	@readelf -d $(LIB) | grep SONAME
	@objdump -T $(LIB) | awk '/\*ABS\*/ {print "   node " $$NF}' | sort -V
	@objdump -T $(LIB) | awk '$$0 !~ /\*ABS\*|\*UND\*/ && / g / {print $$(NF-1)}' | sort | uniq -c | sort -k2 -V
	python3 abi-tests/run --lib $(OUT) symbols
	python3 abi-tests/run --lib $(OUT) layouts
	tools/deps.sh vm
	@echo "== soft-RoCE guest: device tools, traffic and pyverbs under our library"
	tools/vm-demo $(OUT)

test: deps releases lib lint cargo-test abi-test install-test clients-test inline-test provider-test secure-test vm-test

# The rdma-core releases the VM's release matrix runs (tools/rdma-core-builds), built once per
# machine into ~/.cache/ibverbs-rs and reused: started here in the background at low priority, so
# a cold cache builds beside the host tests (about 2 minutes of both cores each); the VM suite's
# own call waits for each release's lock and finds it built. Log: target/rdma-core-builds.log.
releases:
	tools/deps.sh releases
	mkdir -p target
	nohup nice -n 10 tools/rdma-core-builds > target/rdma-core-builds.txt 2> target/rdma-core-builds.log < /dev/null &

# The shape of the code: imports only down the layers and no circles (tools/layers), formatting,
# and clippy with every warning an error (the [lints] table in Cargo.toml adds the unsafe rules).
lint:
	python3 tools/layers
	$(CARGO) fmt --check
	$(CARGO) clippy --all-targets -- -D warnings

cargo-test:
	$(CARGO) test --all-targets

abi-test: lib
	python3 abi-tests/run --lib $(OUT)

vm-test: lib clients-test provider-test
	tools/deps.sh vm
	IBVERBS_RS_HDR=$(CURDIR)/$(OUT)/clients IBVERBS_RS_PROVIDER_BUILD=$(CURDIR)/$(OUT)/provider-build \
	  tests/vm/run $(CURDIR)/$(OUT)

# Real programs against `make install`'s headers (rdma-core's examples, perftest); the VM runs them.
clients-test: lib
	tests/clients/run $(CURDIR)/$(OUT)/clients

# driver.h for provider authors: rdma-core v44's rxe provider built against `make install`'s headers
# (the VM runs it), and the provider ABI selection.
provider-test: lib
	tests/provider-build/run $(CURDIR)/$(OUT)/provider-build

# verbs.h's inline layer: fake contexts, ours vs rdma-core's headers (C++ use: abi-tests/run matrix).
inline-test: lib
	tests/inline/run

install-test: lib
	tests/install/run

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

headers:
	IBVERBS_UPDATE_HEADERS=1 $(CARGO) test --test headers

install: lib
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(INCLUDEDIR)/infiniband $(DESTDIR)$(PKGCONFIGDIR)
	install -m 0755 $(LIB) $(DESTDIR)$(LIBDIR)/libibverbs.so.$(LIBVERSION)
	ln -sf libibverbs.so.$(LIBVERSION) $(DESTDIR)$(LIBDIR)/libibverbs.so.1
	ln -sf libibverbs.so.1 $(DESTDIR)$(LIBDIR)/libibverbs.so
	install -m 0644 include/infiniband/*.h $(DESTDIR)$(INCLUDEDIR)/infiniband/
	sed -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@VERSION@|$(LIBVERSION)|' \
	  meson-compat/libibverbs.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/libibverbs.pc

clean:
	$(CARGO) clean
