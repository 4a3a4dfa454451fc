#!/usr/bin/env bash
# Installs the CPU peers `rumba bench --peers` compares rumba with:
#   - PoCL, OpenCL on the CPU (Debian/Ubuntu packages pocl-opencl-icd, ocl-icd-libopencl1), driven
#     through pyopencl;
#   - Numba's CUDA simulator (numba and numba-cuda; the CUDA runtime wheel is there only so that
#     numba-cuda imports on a machine without CUDA).
# Usage: scripts/peers/setup.sh [VENV_DIR]     (default: .peers-venv)
# Then:  cargo run --release -p rumba-cli -- bench --peers VENV_DIR
set -euo pipefail
venv=${1:-.peers-venv}
here=$(cd "$(dirname "$0")" && pwd)

if ! dpkg -s pocl-opencl-icd ocl-icd-libopencl1 >/dev/null 2>&1; then
  sudo_=""; [ "$(id -u)" = 0 ] || sudo_="sudo"
  $sudo_ apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq pocl-opencl-icd ocl-icd-libopencl1 >/dev/null
fi

python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check numpy numba numba-cuda \
  nvidia-cuda-runtime-cu12 pyopencl

# A quick check that both peers run: their small workloads, once each.
"$venv/bin/python" "$here/pocl.py" --quick --repeat 1
"$venv/bin/python" "$here/numba_sim.py" --repeat 1
echo "peers ready in $venv: cargo run --release -p rumba-cli -- bench --peers $venv"
