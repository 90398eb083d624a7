"""Pins the CPU kernels torch's arithmetic dispatches to, so that the kit's seeded builds give the same
bytes on every x86-64 machine, not only on machines of one CPU family.

Debian's torch calls the BLAS behind libblas.so.3 (OpenBLAS, a DYNAMIC_ARCH build) for its matmuls and
its own ATen / oneDNN kernels for the rest; each picks a kernel for the CPU it finds (OpenBLAS chose
"Cooperlake", with AVX-512, on an AMD EPYC here, "Haswell" elsewhere). Kernels for different vector
widths sum in different orders, so the same seeded training drifted apart by rounding and the exported
graphs differed in their bytes (same test accuracy). Pinning every library to its AVX2 kernels, which every
x86-64 CPU of the last decade runs, removes that choice. Each variable is only set when the caller has not
set it, and only takes effect when set before torch is first imported.
"""
from __future__ import annotations

import os
import sys

PINS = {
    "OPENBLAS_CORETYPE": "Haswell",  # OpenBLAS's AVX2 kernels
    "ATEN_CPU_CAPABILITY": "avx2",  # torch's own vectorised kernels
    "ONEDNN_MAX_CPU_ISA": "AVX2",  # oneDNN (Debian's torch is built with it)
    "DNNL_MAX_CPU_ISA": "AVX2",  # the same for older oneDNN releases
}


def pin_cpu_kernels() -> dict:
    """Sets the pins the environment does not already set; returns the settings in force.

    Once torch is loaded the pins can no longer change anything: a second call (finetune.py pins, imports
    torch, then imports build.py, which pins at import) is fine when every variable is already set, and an
    error when one is missing — torch then runs unpinned kernels."""
    if "torch" in sys.modules:
        if all(name in os.environ for name in PINS):
            return {name: os.environ[name] for name in PINS}
        raise RuntimeError("pin_cpu_kernels() must run before torch is imported: the libraries read these variables when they load")
    for name, value in PINS.items():
        os.environ.setdefault(name, value)
    return {name: os.environ[name] for name in PINS}
