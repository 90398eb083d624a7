#!/usr/bin/env python3
"""PyTorch peer of the CUDA benchmark (apps/bench/src/native/cuda.ts), on the same GPU.

    cuda_peer.py <corpus.f32> <n> <d> <queries.f32> <m> <k> <block> <repeats>

Top-k cosine neighbours of m queries over n corpus rows, float32: normalise, matrix product in
blocks of `block` queries, torch.topk, indices back on the host. Timed two ways per repeat:
"end to end" copies the corpus and the queries to the device every time (as @xtrust/native's
topK does on every call) and "resident" starts with both already on the device. Prints one JSON
object; {"skip": reason} when torch or a CUDA device is missing.
"""
import json
import sys
import time

import numpy as np


def main():
    f, n, d, qf, m, k, block, repeats = sys.argv[1:9]
    n, d, m, k, block, repeats = int(n), int(d), int(m), int(k), int(block), int(repeats)
    try:
        import torch
    except Exception as e:  # pragma: no cover
        print(json.dumps({"skip": f"torch does not import: {e}"}))
        return
    if not torch.cuda.is_available():
        print(json.dumps({"skip": f"torch {torch.__version__} sees no CUDA device"}))
        return
    dev = torch.device("cuda")
    c_host = torch.from_numpy(np.fromfile(f, dtype=np.float32).reshape(n, d))
    q_host = torch.from_numpy(np.fromfile(qf, dtype=np.float32).reshape(m, d))

    def search(c, q):
        cn = torch.nn.functional.normalize(c, dim=1)
        qn = torch.nn.functional.normalize(q, dim=1)
        idx = []
        for i0 in range(0, m, block):
            s = qn[i0 : i0 + block] @ cn.T
            idx.append(torch.topk(s, k, dim=1).indices)
        return torch.cat(idx).to(torch.int32).cpu()

    def end_to_end():
        return search(c_host.to(dev), q_host.to(dev))

    c_dev, q_dev = c_host.to(dev), q_host.to(dev)
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    first = end_to_end()  # includes cuBLAS's and the caching allocator's first use
    first_s = time.perf_counter() - t0
    e2e, resident = [], []
    for _ in range(repeats):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        idx = end_to_end()
        e2e.append(time.perf_counter() - t0)
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        search(c_dev, q_dev)
        resident.append(time.perf_counter() - t0)
    print(
        json.dumps(
            {
                "first_s": first_s,
                "end_to_end_s": e2e,
                "resident_s": resident,
                "indices": idx.flatten().tolist(),
                "torch": torch.__version__,
                "device": torch.cuda.get_device_name(0),
                "tf32": bool(torch.backends.cuda.matmul.allow_tf32),
            }
        )
    )


if __name__ == "__main__":
    main()
