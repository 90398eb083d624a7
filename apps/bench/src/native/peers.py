#!/usr/bin/python3
"""Peers of the @xtrust/native benchmarks, run with Debian's numpy (OpenBLAS) and SciPy.

    peers.py topk    <corpus.f32> <n> <d> <queries.f32> <m> <k> <block>
    peers.py cluster <x.f32> <n> <d>

Prints one JSON object with the timings (seconds, time.perf_counter) on stdout.
"""
import json
import resource
import sys
import time

import numpy as np


def blas_name():
    try:
        from numpy.__config__ import CONFIG  # numpy >= 1.25

        return CONFIG["Build Dependencies"]["blas"]["name"]
    except Exception:
        pass
    try:
        info = np.__config__.get_info("blas_opt_info") or np.__config__.get_info("blas_info")
        libs = info.get("libraries", []) if info else []
        name = ",".join(libs)
        # Debian links numpy to libblas.so.3, an alternative that OpenBLAS provides when installed.
        import os

        real = os.path.realpath("/usr/lib/x86_64-linux-gnu/libblas.so.3")
        return f"{name} -> {real}" if name else real
    except Exception as e:  # pragma: no cover
        return f"unknown ({e})"


def cpu_seconds():
    """CPU time of this process, all threads (OpenBLAS's included)."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def topk(corpus_file, n, d, queries_file, m, k, block):
    c = np.fromfile(corpus_file, dtype=np.float32).reshape(n, d)
    q = np.fromfile(queries_file, dtype=np.float32).reshape(m, d)
    c0 = cpu_seconds()
    t0 = time.perf_counter()
    cn = np.linalg.norm(c, axis=1, keepdims=True)
    cn[cn == 0] = 1
    c = c / cn
    qn = np.linalg.norm(q, axis=1, keepdims=True)
    qn[qn == 0] = 1
    q = q / qn
    ct = np.ascontiguousarray(c.T)
    t_norm = time.perf_counter() - t0
    s = np.empty((block, n), dtype=np.float32)
    t_mm = 0.0
    c_mm = 0.0
    t_sel = 0.0
    idx = np.empty((m, k), dtype=np.int64)
    for i0 in range(0, m, block):
        qb = q[i0 : i0 + block]
        out = s[: qb.shape[0]]
        t = time.perf_counter()
        cpu_start = cpu_seconds()
        np.matmul(qb, ct, out=out)
        t_mm += time.perf_counter() - t
        c_mm += cpu_seconds() - cpu_start
        t = time.perf_counter()
        part = np.argpartition(-out, k, axis=1)[:, :k]
        vals = np.take_along_axis(out, part, axis=1)
        order = np.argsort(-vals, axis=1, kind="stable")
        idx[i0 : i0 + qb.shape[0]] = np.take_along_axis(part, order, axis=1)
        t_sel += time.perf_counter() - t
    return {
        "normalize_s": t_norm,
        "matmul_s": t_mm,
        "select_s": t_sel,
        "total_s": t_norm + t_mm + t_sel,
        "cpu_s": cpu_seconds() - c0,
        "matmul_cpu_s": c_mm,
        "first_neighbours": idx[0].tolist(),
        "blas": blas_name(),
        "numpy": np.__version__,
    }


def cluster(x_file, n, d):
    from scipy import __version__ as scipy_version
    from scipy.cluster.hierarchy import linkage
    from scipy.spatial.distance import pdist

    x = np.fromfile(x_file, dtype=np.float32).reshape(n, d).astype(np.float64)
    c0 = cpu_seconds()
    t0 = time.perf_counter()
    dist = pdist(x, "cosine")
    t1 = time.perf_counter()
    z = linkage(dist, method="average")
    t2 = time.perf_counter()
    return {"pdist_s": t1 - t0, "linkage_s": t2 - t1, "total_s": t2 - t0, "cpu_s": cpu_seconds() - c0, "last_height": float(z[-1, 2]), "scipy": scipy_version}


def main():
    cmd = sys.argv[1]
    if cmd == "topk":
        f, n, d, qf, m, k, block = sys.argv[2:9]
        out = topk(f, int(n), int(d), qf, int(m), int(k), int(block))
    elif cmd == "cluster":
        f, n, d = sys.argv[2:5]
        out = cluster(f, int(n), int(d))
    else:
        raise SystemExit(f"unknown command {cmd}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
