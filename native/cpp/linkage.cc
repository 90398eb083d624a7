// Average linkage (UPGMA) by the nearest-neighbour chain, as scipy's nn_chain: O(n²) time. The
// working matrix is a full symmetric float copy so that every nearest-neighbour search is one
// contiguous, vectorised row scan; dead clusters are masked by a penalty row instead of being
// overwritten. Lance–Williams updates are computed in double.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "common.h"
#include "linkage.h"

namespace xt {

void check_distances(const float* d, std::int64_t n) {
  const std::int64_t B = 64, blocks = (n + B - 1) / B;
  FirstBad nonFinite, asym;
  parallel_for(blocks, [&](std::int64_t bi) {
    const std::int64_t i0 = bi * B, i1 = std::min(n, i0 + B);
    for (std::int64_t i = i0; i < i1; i++)
      for (std::int64_t j = 0; j < n; j++)
        if (!std::isfinite(d[i * n + j])) {
          nonFinite.offer(i * n + j);
          break;
        }
    for (std::int64_t j0 = i0; j0 < n; j0 += B) {
      const std::int64_t j1 = std::min(n, j0 + B);
      for (std::int64_t i = i0; i < i1; i++)
        for (std::int64_t j = std::max(j0, i + 1); j < j1; j++) {
          const float a = d[i * n + j], b = d[j * n + i];
          const float scale = std::max(1.0f, std::max(std::fabs(a), std::fabs(b)));
          if (std::fabs(a - b) > 1e-6f * scale) asym.offer(i * n + j);
        }
    }
  });
  if (nonFinite.get() >= 0) {
    const std::int64_t k = nonFinite.get();
    throw ArgError{"INVALID_ARGUMENT", "distances", "distances[" + std::to_string(k) + "] is not a finite number; inputs must be finite"};
  }
  if (asym.get() >= 0) {
    const std::int64_t i = asym.get() / n, j = asym.get() % n;
    throw ArgError{"INVALID_ARGUMENT", "distances",
                   "distances is not symmetric: [" + std::to_string(i) + "][" + std::to_string(j) + "] = " + std::to_string(d[i * n + j]) +
                       " but [" + std::to_string(j) + "][" + std::to_string(i) + "] = " + std::to_string(d[j * n + i])};
  }
}

Linkage average_linkage(const float* d, std::int64_t n) {
  const float inf = std::numeric_limits<float>::infinity();
  Linkage out;
  if (n <= 1) return out;
  // Symmetric working copy from the upper triangle, diagonal +∞; blocked so both writes stay in cache.
  std::vector<float> w(static_cast<std::size_t>(n) * n);
  const std::int64_t B = 64, blocks = (n + B - 1) / B;
  parallel_for(blocks, [&](std::int64_t bi) {
    const std::int64_t i0 = bi * B, i1 = std::min(n, i0 + B);
    for (std::int64_t j0 = i0; j0 < n; j0 += B) {
      const std::int64_t j1 = std::min(n, j0 + B);
      for (std::int64_t i = i0; i < i1; i++)
        for (std::int64_t j = std::max(j0, i + 1); j < j1; j++) w[i * n + j] = w[j * n + i] = d[i * n + j];
    }
    for (std::int64_t i = i0; i < i1; i++) w[i * n + i] = inf;
  });
  std::vector<float> pen(n, 0.0f);  // +∞ for clusters merged away
  std::vector<std::int64_t> size(n, 1), alive(n), chain;
  std::iota(alive.begin(), alive.end(), 0);
  std::vector<std::int64_t> pos(n);  // index of each cluster in `alive`
  std::iota(pos.begin(), pos.end(), 0);
  chain.reserve(n);
  std::vector<std::int32_t> sa(n - 1), sb(n - 1);
  std::vector<double> dist(n - 1);
  const MinFn minPlus = min_plus();

  for (std::int64_t step = 0; step < n - 1; step++) {
    if (chain.empty()) {
      // Restart from the smallest live cluster, as scipy (and the TS twin) do.
      std::int64_t first = 0;
      while (pen[first] != 0.0f) first++;
      chain.push_back(first);
    }
    std::int64_t x, y;
    float best;
    for (;;) {
      x = chain.back();
      const float* row = w.data() + x * n;
      y = chain.size() > 1 ? chain[chain.size() - 2] : -1;
      best = y >= 0 ? row[y] : inf;
      const float m = minPlus(row, pen.data(), n);
      if (m < best) {
        best = m;
        for (std::int64_t i = 0; i < n; i++)
          if (row[i] + pen[i] == m) {
            y = i;
            break;
          }
      }
      if (chain.size() > 1 && y == chain[chain.size() - 2]) break;
      chain.push_back(y);
    }
    chain.pop_back();
    chain.pop_back();
    if (x > y) std::swap(x, y);
    sa[step] = static_cast<std::int32_t>(x);
    sb[step] = static_cast<std::int32_t>(y);
    dist[step] = best;
    const double nx = static_cast<double>(size[x]), ny = static_cast<double>(size[y]), inv = 1.0 / (nx + ny);
    // x is gone; the merged cluster lives on in y.
    pen[x] = inf;
    size[y] += size[x];
    size[x] = 0;
    const std::int64_t px = pos[x], last = alive.back();
    alive[px] = last;
    pos[last] = px;
    alive.pop_back();
    float* wx = w.data() + x * n;
    float* wy = w.data() + y * n;
    for (const std::int64_t i : alive) {
      if (i == y) continue;
      const float v = static_cast<float>((nx * wx[i] + ny * wy[i]) * inv);
      wy[i] = v;
      w[i * n + y] = v;
    }
  }
  // scipy's convention: stable sort by height, then cluster ids by union–find.
  std::vector<std::int64_t> order(n - 1);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return dist[a] < dist[b]; });
  std::vector<std::int64_t> parent(2 * n - 1);
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](std::int64_t v) {
    std::int64_t r = v;
    while (parent[r] != r) r = parent[r];
    while (parent[v] != r) {
      const std::int64_t nv = parent[v];
      parent[v] = r;
      v = nv;
    }
    return r;
  };
  out.merges.resize(2 * (n - 1));
  out.heights.resize(n - 1);
  for (std::int64_t t = 0; t < n - 1; t++) {
    const std::int64_t s = order[t];
    const std::int64_t a = find(sa[s]), b = find(sb[s]);
    out.merges[2 * t] = static_cast<std::int32_t>(std::min(a, b));
    out.merges[2 * t + 1] = static_cast<std::int32_t>(std::max(a, b));
    out.heights[t] = dist[s];
    parent[a] = n + t;
    parent[b] = n + t;
  }
  return out;
}

}  // namespace xt
