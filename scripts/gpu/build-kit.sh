#!/usr/bin/env bash
# Builds the GPU kit: everything a GPU machine without cargo and without network needs to run
# rumba's behaviour tests on CUDA, `rumba selftest`, `rumba detect` and `rumba bench`.
#
#   scripts/gpu/build-kit.sh [KIT_DIR]        (default: gpu-kit, at the repository root)
#
# KIT_DIR gets kit.tar.xz, holding (stripped of symbols and debug info):
#   rumba                the CLI (release, default features: CUDA loaded at run time)
#   tests/<name>         every integration-test executable of the workspace (release), i.e. the
#                        behaviour tests of crates/rumba/tests and the CLI tests
# and MANIFEST: what was built, from which commit, and the sizes. Packed, the kit is about 21 MiB
# instead of about 172 (64 executables share most of their code); scripts/gpu/run-suite.sh
# unpacks it on the GPU machine. KIT_PLAIN=1 leaves the files unpacked while they fit.
# The folder must stay ignored by git (gpu-kit is in .gitignore; any other folder is added to
# .git/info/exclude) and under 64 MiB, the most a `run` call carries to the GPU machine.
# The scripts (scripts/gpu/*.sh, *.py) travel with the working tree, not in the kit.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
kit=${1:-gpu-kit}
limit=$((64 << 20))
target=${CARGO_TARGET_DIR:-target}
mkdir -p "$target"

if ! git check-ignore -q "$kit/"; then
  exclude=$(git rev-parse --git-path info/exclude)
  echo "/$kit/" >>"$exclude"
  echo "added /$kit/ to $exclude"
fi

echo "== building release binaries (cuda feature on by default; no CUDA needed to build)"
cargo build --release -p rumba-cli
# One JSON line per artifact; keep the integration-test executables (target kind "test").
cargo test --release --workspace --no-run --message-format=json-render-diagnostics \
  | jq -r 'select(.reason == "compiler-artifact" and .executable != null and .profile.test == true
                  and (.target.kind | index("test")) != null) | "\(.target.name) \(.executable)"' \
  >"$target/gpu-kit-tests.txt"

rm -rf "$kit"
mkdir -p "$kit/tests"
strip -s -o "$kit/rumba" "$target/release/rumba"
while read -r name exe; do
  strip -s -o "$kit/tests/$name" "$exe"
done <"$target/gpu-kit-tests.txt"

plain=$(du -sb "$kit" | cut -f1)
{
  echo "rumba GPU kit"
  echo "commit: $(git rev-parse HEAD)$(git diff --quiet HEAD -- . ':!'"$kit" || echo ' (with uncommitted changes)')"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -srm) with $(rustc --version)"
  echo "unpacked: $plain bytes"
  echo "files:"
  (cd "$kit" && find . -type f -printf '  %p %s\n' | sort)
} >"$target/gpu-kit-MANIFEST"
if [ -z "${KIT_PLAIN:-}" ] || [ "$plain" -gt "$limit" ]; then
  tar -C "$kit" -cf - rumba tests | xz -T0 -6 >"$target/gpu-kit.tar.xz"
  rm -rf "$kit"
  mkdir -p "$kit"
  mv "$target/gpu-kit.tar.xz" "$kit/kit.tar.xz"
fi
cp "$target/gpu-kit-MANIFEST" "$kit/MANIFEST"
size=$(du -sb "$kit" | cut -f1)
echo "carried: $size bytes" >>"$kit/MANIFEST"
cat "$kit/MANIFEST"
if [ "$size" -gt "$limit" ]; then
  echo "ERROR: $kit is $size bytes, over the 64 MiB a run call carries" >&2
  exit 1
fi
echo "== $kit ready: $(wc -l <"$target/gpu-kit-tests.txt") test executables + rumba, $((size >> 20)) MiB to carry ($((plain >> 20)) MiB unpacked)"
