// Shared pieces of the xtrust native kernels: argument errors, the thread pool, SIMD dispatch.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace xt {

// A bad argument found while reading values (NaN, asymmetry…). Thrown on the calling thread only;
// the addon turns it into a JS error that the TS wrapper rethrows as an XtrustError.
struct ArgError {
  std::string code;      // XtrustErrorCode
  std::string argument;  // the argument's name, e.g. "corpus" or "problems[3].x"
  std::string message;
};

// Records the first bad index seen by any worker (lowest wins), to report after a parallel pass.
struct FirstBad {
  std::atomic<std::int64_t> index{-1};
  void offer(std::int64_t i) {
    std::int64_t cur = index.load();
    while ((cur < 0 || i < cur) && !index.compare_exchange_weak(cur, i)) {
    }
  }
  std::int64_t get() const { return index.load(); }
};

// Number of worker threads (XTRUST_THREADS, else hardware_concurrency), at least 1.
int threads();
// Runs fn(task) for task in [0, tasks) over the pool; the calling thread works too. Not reentrant.
// An exception thrown by fn is rethrown on the calling thread after the job ends.
void parallel_for(std::int64_t tasks, const std::function<void(std::int64_t)>& fn);

// SIMD level chosen at load time: "avx+fma" or "sse4.2" on x86-64, "neon" / "generic" elsewhere.
const char* simd_name();

// ---- kernels with one implementation per SIMD level (kernels_impl.inc) ----
// The dot-product tile: MR rows of a row-major matrix (given by row pointers, each d long) against a
// packed panel of NR vectors (p-major: NR floats per p). c[i*ldc + j] = dot(rows[i], panel vector j)
// for i < mr, j < nr.
constexpr int MR = 6;
constexpr int NR = 16;
using MicroFn = void (*)(const float* const* rows, const float* panel, int d, float* c, int ldc, int mr, int nr);
// The 4×12 tile of a Gram matrix from packed 4-column panels (rows×4, row-major): g[i*ldg + j] +=
// Σ_r a[r][i] · (b0|b1|b2)[r][j], for i < 4, j < 12 (b0, b1, b2: columns 0–3, 4–7, 8–11).
using GramTileFn = void (*)(const double* a, const double* b0, const double* b1, const double* b2, int rows, double* g, int ldg);
// min over v[i] + pen[i] for i in [0, n) (float), returned as float.
using MinFn = float (*)(const float* v, const float* pen, std::int64_t n);
// Bit v set when max over r < MR of tile[r*NR + v] * scale[r] exceeds thr[v] (v < NR): the queries of
// a top-k tile that may have a new neighbour.
using TileMaskFn = std::uint32_t (*)(const float* tile, const float* scale, const float* thr);

MicroFn micro_kernel();
GramTileFn gram_tile();
MinFn min_plus();
TileMaskFn tile_mask();

}  // namespace xt
