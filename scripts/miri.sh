#!/usr/bin/env bash
# Miri over rumba's pure-Rust core (issue 14): the layout module (arithmetic, slicing, reshape,
# copy planning), the CUDA Array Interface and DLPack forms, strided packing, the simulator's byte
# copies, views, atomics, local memory and the block helpers' hand-out, the pool's arena and size
# classes, the deferred queue, the memory history's per-thread chunks, host layouts and panic
# containment. Tests that start the runtime (threads of stream workers, mmap, mlock, sysconf) are
# outside what Miri can run and are left to the ordinary test run.
#
# Needs a nightly toolchain with the miri component; installs it through rustup when missing,
# and says SKIPPED (exit 0) when it cannot be installed — a Miri finding fails (exit 1).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! cargo +nightly miri --version >/dev/null 2>&1; then
  if ! rustup toolchain install nightly --profile minimal --component miri >/dev/null 2>&1; then
    echo "SKIPPED miri: a nightly toolchain with miri could not be installed through rustup"
    exit 0
  fi
fi
cargo +nightly miri setup >/dev/null 2>&1
MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation}" cargo +nightly miri test -p rumba \
  --no-default-features --lib -- \
  layout:: interop::cai_map interop::dlpack driver::strided_pack driver::sim::bytes \
  driver::sim::engine::view driver::sim::engine::local driver::sim::engine::buf \
  driver::sim::engine::atomics driver::sim::engine::shape driver::sim::engine::dim \
  driver::sim::staging memory::pool::bins memory::pool::arena memory::pending memory::history \
  host::layout \
  unwind error:: config:: \
  --skip config::tests::default_memory_is_a_fraction_of_ram
# The block helpers' hand-out runs on rayon pools: under Tree Borrows, since rayon's
# crossbeam-epoch fails Stacked Borrows' retagging rules, and with leaks ignored, since a pool's
# threads outlive the test that built it.
MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation} -Zmiri-tree-borrows -Zmiri-ignore-leaks" \
  cargo +nightly miri test -p rumba --no-default-features --lib -- driver::sim::engine::helpers
