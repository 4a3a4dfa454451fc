#!/usr/bin/env bash
# Runs rumba on a GPU machine from the kit that scripts/gpu/build-kit.sh made (no cargo needed):
#
#   scripts/gpu/run-suite.sh first-contact  everything below in one bounded call (at most 8
#                                           minutes), writing $OUT/report.md: see
#                                           scripts/gpu/first_contact.py. Start here.
#   scripts/gpu/run-suite.sh [PART...]      PART: env detect selftest tests bench peers all
#                                           (default: all, in that order)
#
# Run it from the repository root (the scripts and the .cu sources travel with the working tree);
# the kit is KIT (default gpu-kit). Every part writes its logs into $OUT (default gpu-out):
#   env.log                  machine, driver, CUDA libraries found, Python peers installed
#   detect.log               rumba detect with RUMBA_BACKEND=cuda
#   selftest.log / .json     rumba selftest on CUDA (table, then the JSON form)
#   tests/<name>.log         each behaviour-test executable with RUMBA_TEST_BACKEND=cuda (at most
#                            TEST_TIMEOUT=120 s each; no new one starts after TESTS_BUDGET=540 s)
#   tests.tsv                per executable: exit status, seconds, its "test result:" or SKIPPED
#                            line, and how many of its tests said they were skipped on cuda
#   bench.log / bench.svg    rumba bench on CUDA next to CuPy / Numba-CUDA (peer_bench.py) and cudarc
#   peers.log                scripts/gpu/peer_ipc.py: IPC / CAI / DLPack with CuPy, Numba, PyTorch
#   summary.txt              one line per step: exit status and what ran
# The exit status is 0 only if every step that ran succeeded. Each part stays under the 10 minutes
# one remote command may take, but all of them together may not: run them in a few calls.
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
if [ "${1:-}" = first-contact ]; then
  exec python3 "$root/scripts/gpu/first_contact.py"
fi
kit=${KIT:-gpu-kit}
out=${OUT:-gpu-out}
mkdir -p "$out/tests"
out=$(cd "$out" && pwd)
parts=("$@")
[ ${#parts[@]} -eq 0 ] && parts=(all)
status=0

note() { printf '%s\n' "$*" | tee -a "$out/summary.txt"; }
want() {
  local p
  for p in "${parts[@]}"; do
    [ "$p" = all ] || [ "$p" = "$1" ] && return 0
  done
  return 1
}

# The kit: kit.tar.xz (unpacked here into $TMPDIR), or plain files (KIT_PLAIN=1 builds).
manifest=$(cd "$kit" 2>/dev/null && pwd)/MANIFEST
if [ -f "$kit/kit.tar.xz" ]; then
  unpacked=${TMPDIR:-/tmp}/rumba-gpu-kit
  rm -rf "$unpacked" && mkdir -p "$unpacked"
  xz -dc "$kit/kit.tar.xz" | tar -C "$unpacked" -xf -
  kit=$unpacked
fi
if [ ! -x "$kit/rumba" ]; then
  echo "no kit at $kit: build it with scripts/gpu/build-kit.sh and carry it to this machine" >&2
  exit 2
fi
kit=$(cd "$kit" && pwd)
rumba=$kit/rumba

# NVRTC compiles rumba's kernels at run time: every folder with a libnvrtc.so.<major> (CUDA
# toolkits, the wheels CuPy / PyTorch / Numba bring: nvidia/cu13/lib, nvidia/cuda_nvrtc/lib),
# newest first, goes on the loader path; rumba takes the newest its driver can load.
nvrtc_dir=$(python3 "$root/scripts/gpu/first_contact.py" --nvrtc-dirs 2>/dev/null | paste -sd: -)
if [ -n "$nvrtc_dir" ]; then
  export LD_LIBRARY_PATH="$nvrtc_dir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

: >"$out/summary.txt"
note "rumba GPU suite $(date -u +%Y-%m-%dT%H:%M:%SZ), kit $(head -n2 "$manifest" 2>/dev/null | tail -n1)"

if want env; then
  {
    echo "== uname"; uname -a
    echo "== nvidia-smi"; nvidia-smi 2>&1 || echo "nvidia-smi not available"
    echo "== libcuda"; ldconfig -p 2>/dev/null | grep -E 'libcuda\.so' || echo "libcuda not in the ldconfig cache"
    echo "== libnvrtc (folders on LD_LIBRARY_PATH, newest first)"
    echo "${nvrtc_dir:-NOT FOUND: rumba cannot compile its kernels}"
    for d in ${nvrtc_dir//:/ }; do ls -l "$d"/libnvrtc* 2>/dev/null; done
    echo "== python peers"
    python3 - <<'EOF' 2>&1
import importlib
for m in ("numpy", "cupy", "numba", "numba_cuda", "torch"):
    try:
        mod = importlib.import_module(m)
        print(m, getattr(mod, "__version__", "?"))
    except Exception as e:
        print(m, "NOT AVAILABLE:", type(e).__name__, e)
EOF
    echo "== kit"; cat "$manifest" 2>/dev/null
  } >"$out/env.log" 2>&1
  note "env: written (nvrtc: ${nvrtc_dir:-not found})"
fi

if want detect; then
  RUMBA_BACKEND=cuda "$rumba" detect --memory >"$out/detect.log" 2>&1
  rc=$?
  [ $rc -ne 0 ] && status=1
  note "detect: exit $rc — $(head -n1 "$out/detect.log")"
fi

if want selftest; then
  RUMBA_BACKEND=cuda timeout 590 "$rumba" selftest >"$out/selftest.log" 2>&1
  rc=$?
  RUMBA_BACKEND=cuda timeout 590 "$rumba" selftest --json >"$out/selftest.json" 2>"$out/selftest.json.err"
  [ $rc -ne 0 ] && status=1
  note "selftest: exit $rc — $(grep -E '^[0-9]+ check\(s\):' "$out/selftest.log" || echo 'no summary (see selftest.log)')"
fi

if want tests; then
  printf 'test\texit\tseconds\tresult\n' >"$out/tests.tsv"
  failed=0
  budget_end=$(($(date +%s) + ${TESTS_BUDGET:-540}))
  for exe in "$kit"/tests/*; do
    name=$(basename "$exe")
    start=$(date +%s)
    if [ "$start" -ge "$budget_end" ]; then
      printf '%s\t-\t0\tnot run: the tests part used its %s s (TESTS_BUDGET)\n' "$name" "${TESTS_BUDGET:-540}" >>"$out/tests.tsv"
      failed=$((failed + 1))
      continue
    fi
    RUMBA_TEST_BACKEND=cuda RUMBA_BIN="$rumba" RUMBA_SOURCE_ROOT="$root" \
      timeout "${TEST_TIMEOUT:-120}" "$exe" >"$out/tests/$name.log" 2>&1
    rc=$?
    secs=$(($(date +%s) - start))
    line=$(grep -E '^(test result:|SKIPPED)' "$out/tests/$name.log" | tail -n1)
    # Tests that cannot apply on CUDA return early after a `SKIPPED <test> on cuda: …` line.
    skipped=$(grep -c '^SKIPPED .* on cuda: ' "$out/tests/$name.log" || true)
    [ "${skipped:-0}" -gt 0 ] && line="$line ($skipped of them SKIPPED on cuda, see the log)"
    printf '%s\t%s\t%s\t%s\n' "$name" "$rc" "$secs" "${line:-no result line}" >>"$out/tests.tsv"
    [ $rc -ne 0 ] && failed=$((failed + 1))
  done
  [ $failed -ne 0 ] && status=1
  note "tests: $failed of $(ls "$kit"/tests | wc -l) executables failed (tests.tsv)"
fi

if want bench; then
  RUMBA_BACKEND=cuda timeout 590 "$rumba" bench --repeat 10 --plot "$out/bench.svg" \
    --gpu-peers "$root/scripts/gpu/peer_bench.py" --python python3 >"$out/bench.log" 2>&1
  rc=$?
  [ $rc -ne 0 ] && status=1
  note "bench: exit $rc (bench.log)"
fi

if want peers; then
  timeout 590 python3 "$root/scripts/gpu/peer_ipc.py" --rumba "$rumba" >"$out/peers.log" 2>&1
  rc=$?
  [ $rc -ne 0 ] && status=1
  note "peers: exit $rc — $(grep -c '"ok": true' "$out/peers.log") passed, $(grep -c '"ok": false' "$out/peers.log") failed, $(grep -c '^SKIPPED' "$out/peers.log") peer(s) skipped"
fi

note "overall: $([ $status -eq 0 ] && echo ok || echo FAILURES)"
exit $status
