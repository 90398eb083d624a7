#pragma once
#include <cstdint>
#include <vector>

namespace xt {

struct Linkage {
  std::vector<std::int32_t> merges;  // (n−1)×2, scipy's convention
  std::vector<double> heights;       // (n−1), non-decreasing
};

// Throws ArgError unless the n×n matrix is finite and symmetric (within 1e-6 relative).
void check_distances(const float* d, std::int64_t n);
// UPGMA by the nearest-neighbour chain on the upper triangle of d: O(n²) time, one n×n float copy.
Linkage average_linkage(const float* d, std::int64_t n);

}  // namespace xt
