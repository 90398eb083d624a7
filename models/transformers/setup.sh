#!/usr/bin/env bash
# Set-up of the transformer model kit: Debian's PyTorch, ONNX and the threaded OpenBLAS, installed with
# apt when missing (root needed then), then a report of the BLAS torch uses and its matmul speed.
# Debian's torch links the reference BLAS (~3 GFLOP/s) unless libopenblas0-pthread is installed.
set -euo pipefail
PY=/usr/bin/python3
need=()
"$PY" -c 'import torch' 2>/dev/null || need+=(python3-torch)
"$PY" -c 'import onnx' 2>/dev/null || need+=(python3-onnx)
"$PY" -c 'import numpy' 2>/dev/null || need+=(python3-numpy)
dpkg -s libopenblas0-pthread >/dev/null 2>&1 || need+=(libopenblas0-pthread)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing: ${need[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${need[@]}"
fi
"$PY" - <<'PY'
import time, torch, onnx
torch.set_num_threads(2)
cfg = torch.__config__.show()
import re
blas = re.findall(r"(?:BLAS_INFO|LAPACK_INFO)=[^,]*", cfg)
print(f"torch {torch.__version__}, onnx {onnx.__version__}, {torch.get_num_threads()} threads")
print("build: " + ("; ".join(blas) if blas else "(no BLAS line in torch.__config__.show())"))
import os
lib = "/usr/lib/x86_64-linux-gnu/libblas.so.3"
if os.path.exists(lib):
    print(f"libblas.so.3 → {os.path.realpath(lib)}  (the BLAS torch's generic build calls)")
a = torch.randn(1024, 1024)
a @ a
t = time.time(); n = 10
for _ in range(n):
    a @ a
g = 2 * 1024 ** 3 * n / (time.time() - t) / 1e9
print(f"1024×1024 float32 matmul on 2 threads: {g:.0f} GFLOP/s" + ("  (slow: a loaded machine, or libblas.so.3 is not OpenBLAS)" if g < 20 else ""))
PY
