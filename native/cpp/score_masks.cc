// Probabilities of a built-in model for many token-presence masks of one text (the C++ twin of
// scoreMasksTs): the first layer gathers only the kept tokens' weight rows, so a row costs O(T·h),
// never O(V). Rows are split across the thread pool.
#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <vector>

#include "common.h"
#include "score_masks.h"

namespace xt {

void score_masks(const MaskNet& net, const std::int32_t* ids, int T, const std::uint8_t* masks, std::int64_t rows, float* out) {
  const DenseLayer& first = net.layers.front();
  const int k = net.layers.back().out;
  int maxWidth = 0;
  for (const auto& l : net.layers) maxWidth = std::max(maxWidth, l.out);
  // Distinct vocabulary ids of the text, so counts need no O(V) buffer.
  std::vector<int> slot(T, -1), distinct;
  {
    std::unordered_map<int, int> seen;
    for (int t = 0; t < T; t++) {
      if (ids[t] < 0) continue;
      auto it = seen.find(ids[t]);
      if (it == seen.end()) it = seen.emplace(ids[t], static_cast<int>(distinct.size())).first, distinct.push_back(ids[t]);
      slot[t] = it->second;
    }
  }
  // log1p of every possible count (a word occurs at most T times): one table lookup per kept word
  // instead of a transcendental call per word and row — the same values, bit for bit.
  std::vector<double> log1pOf(net.bagOfWords ? T + 1 : 0);
  for (std::size_t c = 0; c < log1pOf.size(); c++) log1pOf[c] = net.log1p ? std::log1p(static_cast<double>(c)) : 1.0;
  const std::int64_t chunk = 64;
  parallel_for((rows + chunk - 1) / chunk, [&](std::int64_t task) {
    std::vector<double> cur(maxWidth), next(maxWidth), mean(net.bagOfWords ? 0 : net.dim);
    std::vector<int> counts(distinct.size());
    const std::int64_t r1 = std::min(rows, (task + 1) * chunk);
    for (std::int64_t r = task * chunk; r < r1; r++) {
      const std::uint8_t* m = masks + r * T;
      for (int o = 0; o < first.out; o++) cur[o] = first.bias[o];
      if (net.bagOfWords) {
        std::fill(counts.begin(), counts.end(), 0);
        for (int t = 0; t < T; t++)
          if (m[t] != 0 && slot[t] >= 0) counts[slot[t]] += 1;
        for (std::size_t s = 0; s < distinct.size(); s++) {
          const int c = counts[s];
          if (c == 0) continue;
          const double f = log1pOf[c];
          const float* w = first.weight + static_cast<std::int64_t>(distinct[s]) * first.out;
          for (int o = 0; o < first.out; o++) cur[o] += f * w[o];
        }
      } else {
        std::fill(mean.begin(), mean.end(), 0.0);
        int kept = 0;
        for (int t = 0; t < T; t++) {
          if (m[t] == 0 || ids[t] < 0) continue;
          const float* e = net.embeddings + static_cast<std::int64_t>(ids[t]) * net.dim;
          for (int d = 0; d < net.dim; d++) mean[d] += e[d];
          kept++;
        }
        if (kept > 0) {
          for (int d = 0; d < net.dim; d++) {
            const double x = mean[d] / kept;
            if (x == 0) continue;
            const float* w = first.weight + static_cast<std::int64_t>(d) * first.out;
            for (int o = 0; o < first.out; o++) cur[o] += x * w[o];
          }
        }
      }
      int width = first.out;
      for (std::size_t li = 1; li < net.layers.size(); li++) {
        const DenseLayer& l = net.layers[li];
        for (int o = 0; o < l.out; o++) next[o] = l.bias[o];
        for (int i = 0; i < width; i++) {
          const double x = cur[i] > 0 ? cur[i] : 0;
          if (x == 0) continue;
          const float* w = l.weight + static_cast<std::int64_t>(i) * l.out;
          for (int o = 0; o < l.out; o++) next[o] += x * w[o];
        }
        std::swap(cur, next);
        width = l.out;
      }
      double mx = -INFINITY;
      for (int c = 0; c < k; c++) mx = std::max(mx, cur[c]);
      double sum = 0;
      for (int c = 0; c < k; c++) sum += std::exp(cur[c] - mx);
      for (int c = 0; c < k; c++) out[r * k + c] = static_cast<float>(std::exp(cur[c] - mx) / sum);
    }
  });
}

}  // namespace xt
