#!/usr/bin/env bash
# Runs the distributed suite from the kit that scripts/gpu/dist-kit.sh made, on the GPU machine,
# as one rank (MPI's singleton mode: no mpirun, no daemons), with the MPI runtime the kit carries:
#
#   scripts/gpu/run-dist.sh [FILTER...]     (KIT, default gpu-kit; OUT, default gpu-out)
#
# Writes $OUT/dist-cuda.log: the whole suite on the CUDA backend (staged transport: device →
# pinned → MPI → pinned → device through rumba's CUDA copies and events) and the NCCL cases
# (NcclCommunicator bootstrapped over MPI, every collective enqueued on a rumba stream and
# checked against the host). It needs libnccl.so.2 on the loader path for the NCCL cases (the
# pip wheel nvidia-nccl-cu12 that PyTorch brings has one; the script looks for it). The
# closing line is `N passed, N failed`; the exit status is the suite's. About a minute.
set -uo pipefail
cd "$(dirname "$0")/../.."
kit=${KIT:-gpu-kit}/dist
out=${OUT:-gpu-out}
mkdir -p "$out"
[ -x "$kit/dist" ] || { echo "no kit at $kit: build it with scripts/gpu/dist-kit.sh" >&2; exit 2; }
kit=$(cd "$kit" && pwd)

# NCCL: a system copy, or the one in a Python environment's nvidia/nccl wheel.
nccl_dir=""
if ! ldconfig -p 2>/dev/null | grep -q 'libnccl\.so\.2'; then
  nccl_dir=$(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0] + "/lib")' 2>/dev/null || true)
fi

export LD_LIBRARY_PATH="$kit/lib${nccl_dir:+:$nccl_dir}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
# OpenMPI's run-time directories, relocated into the kit.
export OPAL_PKGLIBDIR="$kit/openmpi" OPAL_PKGDATADIR="$kit/share"
export OMPI_MCA_mca_base_component_path="$kit/openmpi"
export OMPI_MCA_ess_singleton_isolated=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export RUMBA_BACKEND=cuda

{
  echo "== rumba dist suite on CUDA, one rank ($(cat "$kit/MANIFEST" 2>/dev/null | head -1))"
  echo "NCCL from: ${nccl_dir:-the system loader path}"
  nvidia-smi -L 2>/dev/null || true
} | tee "$out/dist-cuda.log"
timeout 300 "$kit/dist" "$@" 2>&1 | tee -a "$out/dist-cuda.log"
status=${PIPESTATUS[0]}
echo "exit status $status" | tee -a "$out/dist-cuda.log"
exit "$status"
