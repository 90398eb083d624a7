// The optional CUDA backend: libxtrust_cuda.so, opened with dlopen at run time so that the addon
// itself never depends on the CUDA runtime or driver being installed.
#pragma once
#include <cstdint>
#include <string>

namespace xt {

struct CudaStatus {
  bool compiled = false;   // libxtrust_cuda was built next to the addon
  bool available = false;  // it loaded and found a device
  std::string device;      // the device's name
  std::string reason;      // why not, when not available
};

const CudaStatus& cuda_status();

// out (m×n) = cosine similarities; q_unit are unit rows (m×d), c raw rows (n×d) with inverse norms.
void cuda_cosine(const float* q_unit, std::int64_t m, const float* c, const float* inv_c, std::int64_t n, int d, float* out);
// Whether the device top-k handles this k (larger k runs on the CPU).
bool cuda_topk_fits(int k);
// The k best corpus rows per query (ties: smaller index), best first.
void cuda_topk(const float* q_unit, std::int64_t m, const float* c, const float* inv_c, std::int64_t n, int d, int k,
               std::int32_t* idx, float* scores);

}  // namespace xt
