#!/usr/bin/env bash
# Builds the GPU kit: everything a GPU machine without cargo and without network needs to run
# rumba's behaviour tests on CUDA, `rumba selftest`, `rumba detect` and `rumba bench`.
#
#   scripts/gpu/build-kit.sh [KIT_DIR]        (default: gpu-kit, at the repository root)
#
# KIT_DIR gets, stripped of symbols and debug info:
#   rumba                the CLI (release, default features: CUDA loaded at run time)
#   tests/<name>         every integration-test executable of the workspace (release), i.e. the
#                        behaviour tests of crates/rumba/tests and the CLI tests
#   MANIFEST             what was built, from which commit, and the sizes
# The folder must stay ignored by git (gpu-kit is in .gitignore; any other folder is added to
# .git/info/exclude) and under 64 MiB, the most a `run` call carries to the GPU machine. When
# the plain files are bigger than that, they are packed into KIT_DIR/kit.tar.xz instead (about a
# quarter of the size), which scripts/gpu/run-suite.sh unpacks on the GPU machine.
# The scripts (scripts/gpu/*.sh, *.py) travel with the working tree, not in the kit.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
kit=${1:-gpu-kit}
limit=$((64 << 20))

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
  >"target/gpu-kit-tests.txt"

rm -rf "$kit"
mkdir -p "$kit/tests"
strip -s -o "$kit/rumba" target/release/rumba
while read -r name exe; do
  strip -s -o "$kit/tests/$name" "$exe"
done <"target/gpu-kit-tests.txt"

size=$(du -sb "$kit" | cut -f1)
if [ "$size" -gt "$limit" ]; then
  echo "== $((size >> 20)) MiB of plain files: packing them into $kit/kit.tar.xz"
  tar -C "$kit" -cf - rumba tests | xz -T0 -6 >"target/gpu-kit.tar.xz"
  rm -rf "$kit"
  mkdir -p "$kit"
  mv target/gpu-kit.tar.xz "$kit/kit.tar.xz"
  size=$(du -sb "$kit" | cut -f1)
fi
{
  echo "rumba GPU kit"
  echo "commit: $(git rev-parse HEAD)$(git diff --quiet HEAD -- . ':!'"$kit" || echo ' (with uncommitted changes)')"
  echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -srm) with $(rustc --version)"
  echo "size: $size bytes"
  echo "files:"
  (cd "$kit" && find . -type f ! -name MANIFEST -printf '  %p %s\n' | sort)
} >"$kit/MANIFEST"
cat "$kit/MANIFEST"
if [ "$size" -gt "$limit" ]; then
  echo "ERROR: $kit is $size bytes, over the 64 MiB a run call carries" >&2
  exit 1
fi
echo "== $kit ready: $(wc -l <target/gpu-kit-tests.txt) test executables + rumba, $((size >> 20)) MiB"
