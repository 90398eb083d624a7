// The CUDA backend of @xtrust/native: cosine-similarity matrices and top-k search. Built as its own
// shared library (libxtrust_cuda.so, CUDA runtime linked statically) and opened with dlopen by the
// addon only when present, so machines without CUDA never need its libraries. A plain C interface:
// every function returns 0 on success, otherwise a non-zero code with a message in `err`.
#include <cuda_runtime.h>

#include <cfloat>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

// The dot-product tile: a block of 256 threads computes BM×BN outputs, each thread an 8×8 register
// tile (rows ty + 16u, columns tx + 16v, so that neighbouring threads read neighbouring shared-memory
// words and write neighbouring output columns). K advances BK values at a time through shared memory.
// With 64 multiply-adds per 16 shared-memory reads this runs near the FP32 pipes' rate, where one
// output per thread (the first version: 16 × 16 tiles) was bound by shared-memory traffic.
constexpr int BM = 128;
constexpr int BN = 128;
constexpr int BK = 8;
constexpr int DOT_THREADS = 256;
constexpr int KMAX = 64;        // top-k on the device for k ≤ KMAX; larger k runs on the CPU
constexpr int SEL_THREADS = 128;

void set_err(char* err, int len, const char* what, cudaError_t e) {
  if (err && len > 0) std::snprintf(err, len, "%s: %s", what, cudaGetErrorString(e));
}

#define XTC_CHECK(call, what)          \
  do {                                 \
    cudaError_t e_ = (call);           \
    if (e_ != cudaSuccess) {           \
      set_err(err, errlen, what, e_);  \
      goto fail;                       \
    }                                  \
  } while (0)

// out[i*ldo + j] = dot(q[i], c[j]) * inv[j] for i < m, j < n (q: m×d, c: n×d, row-major). The sum
// over d runs in the same order for every (i, j), so equal rows give bit-equal scores (ties stay ties).
__global__ void __launch_bounds__(DOT_THREADS) dots(const float* __restrict__ q, int m, const float* __restrict__ c,
                                                    const float* __restrict__ inv, int n, int d, float* __restrict__ out,
                                                    long long ldo) {
  __shared__ float qs[BK][BM + 4];
  __shared__ float cs[BK][BN + 4];
  const int tx = threadIdx.x % 16;
  const int ty = threadIdx.x / 16;
  const long long i0 = (long long)blockIdx.y * BM;
  const long long j0 = (long long)blockIdx.x * BN;
  float acc[8][8];
#pragma unroll
  for (int u = 0; u < 8; u++)
#pragma unroll
    for (int v = 0; v < 8; v++) acc[u][v] = 0.f;
  for (int p0 = 0; p0 < d; p0 += BK) {
    // 128 rows × 8 values of each operand: 4 per thread; consecutive threads read consecutive values of a row.
#pragma unroll
    for (int e = threadIdx.x; e < BM * BK; e += DOT_THREADS) {
      const int r = e / BK;
      const int p = p0 + e % BK;
      qs[e % BK][r] = (i0 + r < m && p < d) ? q[(i0 + r) * d + p] : 0.f;
      cs[e % BK][r] = (j0 + r < n && p < d) ? c[(j0 + r) * d + p] : 0.f;
    }
    __syncthreads();
#pragma unroll
    for (int p = 0; p < BK; p++) {
      float a[8], b[8];
#pragma unroll
      for (int u = 0; u < 8; u++) a[u] = qs[p][ty + 16 * u];
#pragma unroll
      for (int v = 0; v < 8; v++) b[v] = cs[p][tx + 16 * v];
#pragma unroll
      for (int u = 0; u < 8; u++)
#pragma unroll
        for (int v = 0; v < 8; v++) acc[u][v] = fmaf(a[u], b[v], acc[u][v]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int v = 0; v < 8; v++) {
    const long long j = j0 + tx + 16 * v;
    if (j >= n) continue;
    const float s = inv[j];
#pragma unroll
    for (int u = 0; u < 8; u++) {
      const long long i = i0 + ty + 16 * u;
      if (i < m) out[i * ldo + j] = acc[u][v] * s;
    }
  }
}

__device__ __forceinline__ bool better(float s, int j, float t, int l) { return s > t || (s == t && j < l); }

// One block per query: the k best of (the running list best[q], scores of this chunk), best first.
__global__ void select_topk(const float* __restrict__ scores, int rows, long long ld, int chunkStart, int k, float* bestS, int* bestI) {
  const int q = blockIdx.x;
  float ls[KMAX];
  int li[KMAX];
  for (int e = 0; e < k; e++) ls[e] = -FLT_MAX, li[e] = 0x7fffffff;
  auto offer = [&](float s, int j) {
    if (!better(s, j, ls[k - 1], li[k - 1])) return;
    int e = k - 1;
    while (e > 0 && better(s, j, ls[e - 1], li[e - 1])) {
      ls[e] = ls[e - 1];
      li[e] = li[e - 1];
      e--;
    }
    ls[e] = s;
    li[e] = j;
  };
  if (threadIdx.x == 0)
    for (int e = 0; e < k; e++)
      if (bestI[(long long)q * k + e] != 0x7fffffff) offer(bestS[(long long)q * k + e], bestI[(long long)q * k + e]);
  const float* row = scores + (long long)q * ld;
  for (int r = threadIdx.x; r < rows; r += blockDim.x) offer(row[r], chunkStart + r);
  // k rounds: every thread offers its best remaining entry; the block's best is taken.
  __shared__ float rs[SEL_THREADS];
  __shared__ int ri[SEL_THREADS];
  __shared__ int rt[SEL_THREADS];
  int head = 0;
  for (int e = 0; e < k; e++) {
    rs[threadIdx.x] = head < k ? ls[head] : -FLT_MAX;
    ri[threadIdx.x] = head < k ? li[head] : 0x7fffffff;
    rt[threadIdx.x] = threadIdx.x;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s && better(rs[threadIdx.x + s], ri[threadIdx.x + s], rs[threadIdx.x], ri[threadIdx.x])) {
        rs[threadIdx.x] = rs[threadIdx.x + s];
        ri[threadIdx.x] = ri[threadIdx.x + s];
        rt[threadIdx.x] = rt[threadIdx.x + s];
      }
      __syncthreads();
    }
    if (threadIdx.x == 0) {
      bestS[(long long)q * k + e] = rs[0];
      bestI[(long long)q * k + e] = ri[0];
    }
    if (threadIdx.x == rt[0]) head++;
    __syncthreads();
  }
}

}  // namespace

extern "C" {

// 1 when a device is usable (its name written to `name`), 0 otherwise (the reason in `err`).
int xtc_init(char* name, int namelen, char* err, int errlen) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    set_err(err, errlen, "cudaGetDeviceCount", e);
    return 0;
  }
  if (count == 0) {
    if (err && errlen > 0) std::snprintf(err, errlen, "no CUDA device");
    return 0;
  }
  cudaDeviceProp prop;
  e = cudaGetDeviceProperties(&prop, 0);
  if (e != cudaSuccess) {
    set_err(err, errlen, "cudaGetDeviceProperties", e);
    return 0;
  }
  if (name && namelen > 0) std::snprintf(name, namelen, "%s", prop.name);
  return 1;
}

int xtc_kmax() { return KMAX; }

// out (m×n, host) = cosine similarities of unit rows q with rows c scaled by inv.
int xtc_cosine(const float* q, long long m, const float* c, const float* inv, long long n, int d, float* out, char* err, int errlen) {
  float *dq = nullptr, *dc = nullptr, *dinv = nullptr, *dout = nullptr;
  // Output rows per pass: at most 4,096 and at most 2^28 floats (1 GiB) of device output.
  long long rowsPer = (1LL << 28) / (n > 0 ? n : 1);
  if (rowsPer > 4096) rowsPer = 4096;
  if (rowsPer > m) rowsPer = m;
  if (rowsPer < 1) rowsPer = 1;
  XTC_CHECK(cudaMalloc(&dq, sizeof(float) * m * d), "cudaMalloc");
  XTC_CHECK(cudaMalloc(&dc, sizeof(float) * n * d), "cudaMalloc");
  XTC_CHECK(cudaMalloc(&dinv, sizeof(float) * n), "cudaMalloc");
  XTC_CHECK(cudaMalloc(&dout, sizeof(float) * rowsPer * n), "cudaMalloc");
  XTC_CHECK(cudaMemcpy(dq, q, sizeof(float) * m * d, cudaMemcpyHostToDevice), "cudaMemcpy");
  XTC_CHECK(cudaMemcpy(dc, c, sizeof(float) * n * d, cudaMemcpyHostToDevice), "cudaMemcpy");
  XTC_CHECK(cudaMemcpy(dinv, inv, sizeof(float) * n, cudaMemcpyHostToDevice), "cudaMemcpy");
  for (long long i0 = 0; i0 < m; i0 += rowsPer) {
    const int rows = (int)(m - i0 < rowsPer ? m - i0 : rowsPer);
    dim3 grid((unsigned)((n + BN - 1) / BN), (unsigned)((rows + BM - 1) / BM));
    dots<<<grid, DOT_THREADS>>>(dq + i0 * d, rows, dc, dinv, (int)n, d, dout, n);
    XTC_CHECK(cudaGetLastError(), "dots kernel");
    XTC_CHECK(cudaMemcpy(out + i0 * n, dout, sizeof(float) * rows * n, cudaMemcpyDeviceToHost), "cudaMemcpy");
  }
  cudaFree(dq), cudaFree(dc), cudaFree(dinv), cudaFree(dout);
  return 0;
fail:
  cudaFree(dq), cudaFree(dc), cudaFree(dinv), cudaFree(dout);
  return 1;
}

// The k (≤ xtc_kmax()) best corpus rows of every query, best first; ties go to the smaller index.
int xtc_topk(const float* q, long long m, const float* c, const float* inv, long long n, int d, int k, int32_t* idx, float* sc,
             char* err, int errlen) {
  float *dq = nullptr, *dc = nullptr, *dinv = nullptr, *ds = nullptr, *dbs = nullptr;
  int* dbi = nullptr;
  const long long qBlock = m < 2048 ? m : 2048;
  const long long cBlock = n < 65536 ? n : 65536;
  if (k > KMAX) {
    if (err && errlen > 0) std::snprintf(err, errlen, "k = %d exceeds the device limit %d", k, KMAX);
    return 2;
  }
  XTC_CHECK(cudaMalloc(&dq, sizeof(float) * m * d), "cudaMalloc");
  XTC_CHECK(cudaMalloc(&dc, sizeof(float) * n * d), "cudaMalloc");
  XTC_CHECK(cudaMalloc(&dinv, sizeof(float) * n), "cudaMalloc");
  XTC_CHECK(cudaMalloc(&ds, sizeof(float) * qBlock * cBlock), "cudaMalloc");
  XTC_CHECK(cudaMalloc(&dbs, sizeof(float) * m * k), "cudaMalloc");
  XTC_CHECK(cudaMalloc(&dbi, sizeof(int) * m * k), "cudaMalloc");
  XTC_CHECK(cudaMemcpy(dq, q, sizeof(float) * m * d, cudaMemcpyHostToDevice), "cudaMemcpy");
  XTC_CHECK(cudaMemcpy(dc, c, sizeof(float) * n * d, cudaMemcpyHostToDevice), "cudaMemcpy");
  XTC_CHECK(cudaMemcpy(dinv, inv, sizeof(float) * n, cudaMemcpyHostToDevice), "cudaMemcpy");
  {
    // Empty running lists: index 0x7fffffff marks "no entry".
    int* init = new int[m * k];
    for (long long e = 0; e < m * k; e++) init[e] = 0x7fffffff;
    cudaError_t e = cudaMemcpy(dbi, init, sizeof(int) * m * k, cudaMemcpyHostToDevice);
    delete[] init;
    XTC_CHECK(e, "cudaMemcpy");
  }
  for (long long q0 = 0; q0 < m; q0 += qBlock) {
    const int rows = (int)(m - q0 < qBlock ? m - q0 : qBlock);
    for (long long c0 = 0; c0 < n; c0 += cBlock) {
      const int cols = (int)(n - c0 < cBlock ? n - c0 : cBlock);
      dim3 grid((unsigned)((cols + BN - 1) / BN), (unsigned)((rows + BM - 1) / BM));
      dots<<<grid, DOT_THREADS>>>(dq + q0 * d, rows, dc + c0 * d, dinv + c0, cols, d, ds, cBlock);
      XTC_CHECK(cudaGetLastError(), "dots kernel");
      select_topk<<<rows, SEL_THREADS>>>(ds, cols, cBlock, (int)c0, k, dbs + q0 * k, dbi + q0 * k);
      XTC_CHECK(cudaGetLastError(), "select_topk kernel");
    }
  }
  XTC_CHECK(cudaMemcpy(sc, dbs, sizeof(float) * m * k, cudaMemcpyDeviceToHost), "cudaMemcpy");
  XTC_CHECK(cudaMemcpy(idx, dbi, sizeof(int) * m * k, cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaFree(dq), cudaFree(dc), cudaFree(dinv), cudaFree(ds), cudaFree(dbs), cudaFree(dbi);
  return 0;
fail:
  cudaFree(dq), cudaFree(dc), cudaFree(dinv), cudaFree(ds), cudaFree(dbs), cudaFree(dbi);
  return 1;
}

}  // extern "C"
