#!/usr/bin/env bash
# Builds the distributed part of the GPU kit (rumba::dist, features `mpi` and `nccl`), apart from
# build-kit.sh / run-suite.sh:
#
#   scripts/gpu/dist-kit.sh [KIT_DIR]       (default: gpu-kit; writes KIT_DIR/dist)
#
# KIT_DIR/dist gets (stripped):
#   dist                 the distributed suite (crates/rumba/tests/dist), release, with the NCCL
#                        cases: MPI linked, CUDA and NCCL loaded at run time
#   lib/                 the MPI runtime it links (libmpi and every library it and OpenMPI's
#                        plugins need, but glibc's), so a GPU machine without OpenMPI runs it
#   openmpi/             OpenMPI's plugins (its pkglibdir), and share/ its help texts
# scripts/gpu/run-dist.sh runs it there as one rank (MPI's singleton mode: no mpirun, no
# daemons). Needs OpenMPI installed here (Debian: openmpi-bin libopenmpi-dev libclang-dev clang)
# and jq.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
kit=${1:-gpu-kit}
dist=$kit/dist
if ! git check-ignore -q "$kit/"; then
  exclude=$(git rev-parse --git-path info/exclude)
  echo "/$kit/" >>"$exclude"
  echo "added /$kit/ to $exclude"
fi

echo "== building the distributed suite (release, features nccl)"
exe=$(cargo test --release -p rumba --features nccl --test dist --no-run \
  --message-format=json-render-diagnostics \
  | jq -r 'select(.reason == "compiler-artifact" and .target.name == "dist" and .executable != null)
           | .executable' | tail -1)
[ -x "$exe" ] || { echo "no dist executable built" >&2; exit 1; }

rm -rf "$dist"
mkdir -p "$dist/lib" "$dist/openmpi" "$dist/share"
strip -s -o "$dist/dist" "$exe"

libmpi=$(ldd "$exe" | awk '/libmpi\.so/ {print $3}')
[ -n "$libmpi" ] || { echo "the suite does not link libmpi" >&2; exit 1; }
pkglibdir=$(ompi_info --path pkglibdir --parsable 2>/dev/null | sed -n 's/^path:pkglibdir://p')
pkgdatadir=$(ompi_info --path pkgdatadir --parsable 2>/dev/null | sed -n 's/^path:pkgdatadir://p')
cp -a "$pkglibdir/." "$dist/openmpi/"
cp -a "$pkgdatadir/." "$dist/share/"

# Every shared library of the suite and the plugins, but the C library's own.
skip='/(libc|libm|libdl|libpthread|librt|libgcc_s|libstdc\+\+|ld-linux[^/]*)\.so'
{
  ldd "$exe"
  for p in "$dist"/openmpi/*.so; do ldd "$p" 2>/dev/null || true; done
} | awk '/=> \// {print $3}' | grep -Ev "$skip" | sort -u | while read -r lib; do
  cp -L "$lib" "$dist/lib/"
done

{
  echo "rumba dist kit: $(git rev-parse HEAD) built $(date -u +%FT%TZ)"
  echo "MPI: $(mpirun --version 2>/dev/null | head -1)"
  du -sh "$dist" | cut -f1
} >"$dist/MANIFEST"
cat "$dist/MANIFEST"
