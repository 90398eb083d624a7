#pragma once
#include <cstdint>

namespace xt {
// Both throw ArgError for non-finite inputs. k ≤ n is the caller's business.
void cosine_matrix(const float* a, std::int64_t m, const float* b, std::int64_t n, int d, bool cuda, float* out);
void top_k(const float* q, std::int64_t m, const float* c, std::int64_t n, int d, int k, bool normalized, bool cuda,
           std::int32_t* idx, float* scores);
}  // namespace xt
