# Sourced by tests/vm/guest.sh, section releases: rdma-core releases built in place
# (tools/rdma-core-builds, listed by tests/vm/run in $IBVERBS_RS_RELEASES_LIST as "VERSION BUILD_DIR",
# or "VERSION -" when the build failed), each run under its own libibverbs and under ours:
#   - its ibv_devinfo -v prints the same (stdout, stderr, exit code) under both;
#   - its ibv_rc_pingpong runs both ends under ours, with that release's rxe provider mapped in both
#     processes (LD_DEBUG=files) and none of its own libibverbs, and prints what it prints under its
#     own library (numbers masked);
#   - its pyverbs suite (bin/run_tests.py) loses under ours no test that passes under its own library
#     (the oldest and the newest release's in make test, every release's in make vm-releases).
# "ours" is what a distribution shipping that release would see with our library installed: our
# libibverbs.so.1 first on LD_LIBRARY_PATH, the release's providers as its provider directory
# (IBVERBS_RS_PROVIDER_DIR=BUILD/lib) and, as its config directory, one "driver NAME" file per
# provider the release builds (what its packages install; the in-place build's own files name
# absolute paths instead). "its own" is the release's lib/ on LD_LIBRARY_PATH (its binaries'
# RUNPATH says the same), reading the in-place build's config directory compiled into it.
# Uses guest.sh's run, run_pair, mask, $lib, $out and pass/fail counters.

# The test modules of a pyverbs suite (DIR/test_*.py, as "tests.test_x") that can run on rxe: all but
# those of one vendor's hardware or a GPU (test_mlx5_*, test_efa*, test_hns*, test_mana*, test_bnxt*,
# test_cuda*), whose every test skips on rxe under either library, and each after setting up a
# device, a PD and more: 40% of a suite's tests and of its time in the guest.
# IBVERBS_RS_VM_PYVERBS_ALL=1 runs every module.
rxe_modules() {
  [ -z "${IBVERBS_RS_VM_PYVERBS_ALL:-}" ] || return 0
  local f m
  for f in "$1"/test_*.py; do
    m=$(basename "$f" .py)
    case $m in test_mlx5*|test_efa*|test_hns*|test_mana*|test_bnxt*|test_cuda*) ;; *) echo "tests.$m" ;; esac
  done
}

release_result() { # ok|not-ok, label, detail lines on stdin
  if [ "$1" = ok ]; then echo "ok - vm release $rel_name: $2"; pass=$((pass+1))
  else echo "not ok - vm release $rel_name: $2"; fail=$((fail+1)); fi
  sed 's/^/#   /'
}

# The objects the dynamic loader loaded, by path, for processes traced with LD_DEBUG=files
# (LD_DEBUG_OUTPUT=$1: one file per process, $1.PID): a dlopen by path ("file=/..."), an object
# that needs another ("needed by /..."), an object's constructors ("calling init: /..."; a
# DT_NEEDED library is named by its SONAME alone in the file= lines).
opened() {
  cat "$1".* 2>/dev/null | grep -oE 'file=/[^ ]*|needed by /[^ ]*|calling init: /[^ ]*' |
    sed -E 's/^(file=|needed by |calling init: )//' | sort -u
}

# One release: $1 version, $2 build directory (or -).
release_run() {
  local v=$1 b=$2 t0=$SECONDS pabi f n what nostart bad name srv cli side mode k
  if [ "$b" = - ] || [ ! -x "$b/bin/ibv_devinfo" ]; then
    rel_name=$v; release_result not-ok "not built (tools/rdma-core-builds failed on the host)" < /dev/null
    return
  fi
  f=$(ls "$b"/lib/librxe-rdmav*.so 2>/dev/null | head -1); pabi=${f##*-rdmav}; pabi=${pabi%.so}
  rel_name="$v (provider ABI $pabi)"; rel=$b; rel_cfg=$out/rel.$v.cfg
  mkdir -p "$rel_cfg"
  for f in "$b"/etc/libibverbs.d/*.driver; do n=${f##*/}; echo "driver ${n%.driver}" > "$rel_cfg/$n"; done

  # Does ours start its programs at all? A release whose private node we lack (its ibv_devinfo
  # imports ibv_query_gid_type@IBVERBS_PRIVATE_<ABI>) is reported once per check, without the runs.
  run "rel.$v.start" ours "$b/bin/ibv_devinfo" -l
  nostart=$(grep -o "version .IBVERBS_PRIVATE_[0-9]*. not found" "$out/rel.$v.start.ours.err" | head -1)
  if [ -n "$nostart" ]; then
    for what in "ibv_devinfo -v" "ibv_rc_pingpong under ours" "pyverbs suite under ours"; do
      release_result not-ok "$what: does not start under ours: $nostart (rc $(cat "$out/rel.$v.start.ours.rc"))" < /dev/null
    done
    echo "# release $v: $((SECONDS - t0))s"
    return
  fi

  # 1. ibv_devinfo -v, and which libraries each run maps.
  name=rel.$v.devinfo
  rm -f "$out/$name".*.ld.*
  run "$name" own env LD_DEBUG=files LD_DEBUG_OUTPUT="$out/$name.own.ld" "$b/bin/ibv_devinfo" -v
  run "$name" ours env LD_DEBUG=files LD_DEBUG_OUTPUT="$out/$name.ours.ld" "$b/bin/ibv_devinfo" -v
  bad=""
  for k in out err rc; do cmp -s "$out/$name.own.$k" "$out/$name.ours.$k" || bad="$bad $k"; done
  grep -q '^hca_id:' "$out/$name.own.out" || bad="$bad (no device under its own library: rc $(cat "$out/$name.own.rc"))"
  if [ -z "$bad" ]; then
    release_result ok "its ibv_devinfo -v the same under ours as under its own libibverbs (rc $(cat "$out/$name.own.rc"), $(wc -l < "$out/$name.own.out") lines)" < /dev/null
  else
    for k in out err rc; do diff "$out/$name.own.$k" "$out/$name.ours.$k" | head -8; done |
      release_result not-ok "its ibv_devinfo -v differs under ours in:$bad"
  fi
  bad=""
  opened "$out/$name.own.ld" > "$out/$name.own.files"; opened "$out/$name.ours.ld" > "$out/$name.ours.files"
  grep -qx "$b/lib/libibverbs.so.1" "$out/$name.own.files" || bad="$bad own:not-its-libibverbs"
  grep -qx "$b/lib/librxe-rdmav$pabi.so" "$out/$name.own.files" || bad="$bad own:no-librxe-rdmav$pabi"
  grep -qx "$lib/libibverbs.so.1" "$out/$name.ours.files" || bad="$bad ours:not-our-library"
  grep -qx "$b/lib/librxe-rdmav$pabi.so" "$out/$name.ours.files" || bad="$bad ours:no-librxe-rdmav$pabi"
  grep -v "^$lib/" "$out/$name.ours.files" | grep -q 'libibverbs\.so' && bad="$bad ours:another-libibverbs"
  if [ -z "$bad" ]; then
    release_result ok "its librxe-rdmav$pabi.so is the provider both libraries load (LD_DEBUG=files: its ibv_devinfo under its own libibverbs, and under ours with no other libibverbs)" < /dev/null
  else
    grep -E 'libibverbs|rdmav' "$out/$name.own.files" "$out/$name.ours.files" | head -10 |
      release_result not-ok "libraries loaded by its ibv_devinfo:$bad"
  fi

  # The layout ours read its provider with, where its ABI has several (rdma-core v54-v56 built
  # ABI 34's with an eight-argument ibv_cmd_reg_dmabuf_mr, v59-v61 ABI 59's without v62's ops):
  # told by the release installed beside the provider (its lib/libibverbs.so.1.<m>.<release>.<n>).
  want=""
  case "$pabi:${v%%.*}" in
    34:5[4-6]) want="provider ABI 34, rdma-core v54-v56 layout: rdma-core ${v%%.*} is installed with it";;
    34:*) want="provider ABI 34, rdma-core v36-v53 layout: rdma-core ${v%%.*} is installed with it";;
    59:6[2-3]) want="provider ABI 59, rdma-core v62/v63 layout";;
    59:*) want="provider ABI 59, rdma-core v59-v61 layout: rdma-core ${v%%.*} is installed with it";;
  esac
  if [ -n "$want" ]; then
    name=rel.$v.layout
    rm -f "$out/$name.log"
    run "$name" ours env VERBS_LOG_LEVEL=4 VERBS_LOG_FILE="$out/$name.log" "$b/bin/ibv_devinfo" -l
    if grep -q "librxe-rdmav$pabi.so (ops at [^)]*): $want" "$out/$name.log"; then
      release_result ok "ours reads its librxe-rdmav$pabi.so in its release's layout (the verbs log: \"$want\")" < /dev/null
    else
      grep -h 'provider ABI' "$out/$name.log" | head -4 |
        release_result not-ok "ours did not log the layout of its release's provider: \"$want\""
    fi
  fi

  # 2. ibv_rc_pingpong, both ends under ours (and under its own library for the expected output).
  name=rel.$v.rc_pingpong
  rm -f "$out/$name".*.ld.*
  for mode in own ours; do
    srv="LD_DEBUG=files LD_DEBUG_OUTPUT=$out/$name.$mode.srv.ld $b/bin/ibv_rc_pingpong -d $rel_dev -g 0 -n 100 -p $rel_port"
    cli="LD_DEBUG=files LD_DEBUG_OUTPUT=$out/$name.$mode.cli.ld $b/bin/ibv_rc_pingpong -d $rel_dev -g 0 -n 100 -p $rel_port $rel_addr"
    run_pair "$name" "$mode" "$srv" "$cli" "$rel_port"
  done
  bad=""
  [ "$(cat "$out/$name.ours.prc")" = "server 0 client 0" ] || bad="$bad exit:[$(cat "$out/$name.ours.prc")]"
  cmp -s "$out/$name.own.prc" "$out/$name.ours.prc" || bad="$bad exit-codes-differ"
  for side in srv cli; do
    mask "$out/$name.own.$side" > "$out/$name.own.$side.m"; mask "$out/$name.ours.$side" > "$out/$name.ours.$side.m"
    cmp -s "$out/$name.own.$side.m" "$out/$name.ours.$side.m" || bad="$bad $side-output"
    opened "$out/$name.ours.$side.ld" > "$out/$name.ours.$side.files"
    grep -qx "$b/lib/librxe-rdmav$pabi.so" "$out/$name.ours.$side.files" || bad="$bad $side:no-librxe-rdmav$pabi"
    grep -qx "$lib/libibverbs.so.1" "$out/$name.ours.$side.files" || bad="$bad $side:not-our-library"
    grep -v "^$lib/" "$out/$name.ours.$side.files" | grep -q 'libibverbs\.so' && bad="$bad $side:another-libibverbs"
  done
  if [ -z "$bad" ]; then
    release_result ok "its ibv_rc_pingpong, both ends under ours with its librxe-rdmav$pabi.so mapped ($(cat "$out/$name.ours.prc"); output as under its own libibverbs)" < /dev/null
  else
    { echo "own: $(cat "$out/$name.own.prc"); ours: $(cat "$out/$name.ours.prc")"
      for side in srv cli; do diff "$out/$name.own.$side.m" "$out/$name.ours.$side.m" | head -6 | sed "s/^/$side /"; done
    } | release_result not-ok "its ibv_rc_pingpong under ours:$bad"
  fi

  # 3. its pyverbs suite, from its build directory, without the modules of other hardware: in make
  # test for the oldest and the newest release of the list only (rel_pyverbs_wanted).
  if ! rel_pyverbs_wanted "$v"; then
    echo "# release $v: its pyverbs suite not run (IBVERBS_RS_VM_RELEASE_PYVERBS=ends: the oldest and newest release's; make vm-releases runs every release's)"
  elif [ -x "$b/bin/run_tests.py" ]; then
    local mods; mods=$(rxe_modules "$b/../tests")
    for mode in own ours; do
      pyverbs_run "rel.$v.$mode" "$b" run_mode "$mode" timeout "${IBVERBS_RS_VM_PYVERBS_TIMEOUT:-900}" "$b/bin/run_tests.py" --dev "$rel_dev" -v $mods
    done
    pyverbs_reference "rel.$v.own" "its own libibverbs"
    pyverbs_compare "rel.$v.own" "rel.$v.ours" "vm release $rel_name: its pyverbs suite under ours"
  else
    release_result not-ok "its pyverbs suite: not built (no bin/run_tests.py)" < /dev/null
  fi
  echo "# release $v: $((SECONDS - t0))s"
}

# Which releases run their pyverbs suite (two runs of 2-3 minutes each in the guest, two-thirds of
# the section): IBVERBS_RS_VM_RELEASE_PYVERBS=all every release's (make vm-releases); unset or
# "ends" (make test) the oldest and the newest release of the list. The middle releases' suites
# repeat those two's test for test, and what is particular to a middle release's provider ABI (its op
# table, read by ours) runs in every case: its ibv_devinfo -v and ibv_rc_pingpong here, and every
# release's providers through their lifecycles under its own library and ours on the host's uverbs
# emulator (make providers, --releases).
rel_pyverbs_wanted() { # version
  [ "${IBVERBS_RS_VM_RELEASE_PYVERBS:-ends}" = all ] && return 0
  [ "$1" = "$(head -1 "$IBVERBS_RS_RELEASES_LIST" | cut -d' ' -f1)" ] || [ "$1" = "$(tail -1 "$IBVERBS_RS_RELEASES_LIST" | cut -d' ' -f1)" ]
}

# Two lanes: the releases are taken in turn by two workers, one on rxe0 and one on a second device,
# rxe1 on dummy1 (10.99.1.1), created for this section and removed after it, each with its own
# pingpong port; a release's runs under both libraries stay on one device, one after the other.
# The guest's two CPUs are then both busy (a pyverbs suite keeps one busy; the section is
# two-thirds pyverbs). Results are printed per release in list order once both lanes are done.
# IBVERBS_RS_VM_LANES=1: one lane, on rxe0.
# The lanes take the releases that run a pyverbs suite first ($rel_order), the short ones after.
release_lane() { # lane number, device, address, port
  local lane=$1 v b
  rel_dev=$2; rel_addr=$3; rel_port=$4
  while read -r v b; do
    mkdir "$rel_claims/$v" 2> /dev/null || continue  # another lane has it
    echo "# release $v: lane $lane ($rel_dev)" > "$out/rel.$v.tap"
    release_run "$v" "$b" < /dev/null >> "$out/rel.$v.tap" 2>&1
  done < "$rel_order"
}

if want releases; then
  if [ -z "${IBVERBS_RS_RELEASES_LIST:-}" ] || [ ! -s "$IBVERBS_RS_RELEASES_LIST" ]; then
    echo "not ok - vm releases: no release builds listed (tools/rdma-core-builds)"; fail=$((fail+1))
  else
    lanes=${IBVERBS_RS_VM_LANES:-2}
    rel_claims=$(mktemp -d); rel_order=$rel_claims.order
    while read -r v b; do rel_pyverbs_wanted "$v" && echo "$v $b"; done < "$IBVERBS_RS_RELEASES_LIST" > "$rel_order"
    while read -r v b; do rel_pyverbs_wanted "$v" || echo "$v $b"; done < "$IBVERBS_RS_RELEASES_LIST" >> "$rel_order"
    if [ "$lanes" -gt 1 ]; then
      if ip link add dummy1 type dummy && ip link set dummy1 up && ip addr add 10.99.1.1/24 dev dummy1 &&
         rdma link add rxe1 type rxe netdev dummy1; then
        for i in $(seq 100); do rdma link show rxe1/1 2>/dev/null | grep -q 'state ACTIVE' && break; sleep 0.2; done
      else
        echo "# releases: no second device (rxe1), one lane"; lanes=1
      fi
    fi
    t_rel=$SECONDS
    release_lane 1 rxe0 10.99.0.1 18515 &
    [ "$lanes" -gt 1 ] && release_lane 2 rxe1 10.99.1.1 18516 &
    wait
    if [ "$lanes" -gt 1 ]; then rdma link delete rxe1; ip link delete dummy1; fi
    while read -r v b; do
      cat "$out/rel.$v.tap"
      pass=$((pass + $(grep -c '^ok - ' "$out/rel.$v.tap"))); fail=$((fail + $(grep -c '^not ok - ' "$out/rel.$v.tap")))
    done < "$IBVERBS_RS_RELEASES_LIST"
    echo "# releases: $((SECONDS - t_rel))s in $lanes lane(s)"
  fi
  echo "# releases: ${SECONDS}s so far"
fi
