// Cosine-similarity matrices and blocked top-k search on the CPU (and the hand-off to CUDA).
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "common.h"
#include "cosine.h"
#include "cuda_bridge.h"

namespace xt {

namespace {

[[noreturn]] void not_finite(const std::string& name, std::int64_t index) {
  throw ArgError{"INVALID_ARGUMENT", name, name + "[" + std::to_string(index) + "] is not a finite number; inputs must be finite"};
}

// 1/‖row‖ per row (0 for a zero row), in double precision; rejects non-finite values.
std::vector<float> inv_norms(const float* x, std::int64_t rows, int d, const std::string& name) {
  std::vector<float> inv(rows);
  FirstBad bad;
  const std::int64_t chunk = 4096;
  parallel_for((rows + chunk - 1) / chunk, [&](std::int64_t t) {
    const std::int64_t r1 = std::min(rows, (t + 1) * chunk);
    for (std::int64_t r = t * chunk; r < r1; r++) {
      const float* row = x + r * d;
      double s = 0;
      for (int p = 0; p < d; p++) s += static_cast<double>(row[p]) * row[p];
      if (!std::isfinite(s)) {
        for (int p = 0; p < d; p++)
          if (!std::isfinite(row[p])) {
            bad.offer(r * d + p);
            break;
          }
        // A finite row whose squared norm overflows float range is still fine in double.
      }
      inv[r] = s > 0 ? static_cast<float>(1.0 / std::sqrt(s)) : 0.0f;
    }
  });
  if (bad.get() >= 0) not_finite(name, bad.get());
  return inv;
}

// Unit rows packed in panels of NR vectors, p-major (NR floats per p); padding rows are zero.
std::vector<float> pack_unit(const float* x, std::int64_t rows, int d, const std::string& name) {
  const std::int64_t panels = (rows + NR - 1) / NR;
  std::vector<float> out(static_cast<std::size_t>(panels) * NR * d, 0.0f);
  FirstBad bad;
  parallel_for(panels, [&](std::int64_t pn) {
    float* dst = out.data() + pn * NR * d;
    for (int v = 0; v < NR; v++) {
      const std::int64_t r = pn * NR + v;
      if (r >= rows) break;
      const float* row = x + r * d;
      double s = 0;
      for (int p = 0; p < d; p++) {
        if (!std::isfinite(row[p])) bad.offer(r * d + p);
        s += static_cast<double>(row[p]) * row[p];
      }
      if (!(s > 0) || !std::isfinite(s)) continue;
      const double inv = 1.0 / std::sqrt(s);
      for (int p = 0; p < d; p++) dst[p * NR + v] = static_cast<float>(row[p] * inv);
    }
  });
  if (bad.get() >= 0) not_finite(name, bad.get());
  return out;
}

// Unit rows, row-major (for CUDA).
std::vector<float> unit_rows(const float* x, std::int64_t rows, int d, const std::string& name) {
  std::vector<float> inv = inv_norms(x, rows, d, name);
  std::vector<float> out(static_cast<std::size_t>(rows) * d);
  for (std::int64_t r = 0; r < rows; r++)
    for (int p = 0; p < d; p++) out[r * d + p] = static_cast<float>(static_cast<double>(x[r * d + p]) * inv[r]);
  return out;
}

// out[i][j] = out[j][i] for j < i (n×n), blocked so both sides stay in cache.
void mirror_upper(float* out, std::int64_t n) {
  const std::int64_t B = 64;
  parallel_for((n + B - 1) / B, [&](std::int64_t bi) {
    const std::int64_t i0 = bi * B, i1 = std::min(n, i0 + B);
    for (std::int64_t j0 = 0; j0 < i1; j0 += B)
      for (std::int64_t i = i0; i < i1; i++)
        for (std::int64_t j = j0; j < std::min(i, j0 + B); j++) out[i * n + j] = out[j * n + i];
  });
}

inline bool better(float s, std::int32_t j, float t, std::int32_t l) { return s > t || (s == t && j < l); }

// A k-entry min-heap (root: the worst kept) stored in hs/hi; candidates offered in any order.
inline void heap_offer(float* hs, std::int32_t* hi, int k, float s, std::int32_t j) {
  if (!better(s, j, hs[0], hi[0])) return;
  int p = 0;
  for (;;) {
    const int l = 2 * p + 1;
    if (l >= k) break;
    int w = l;
    const int r = l + 1;
    if (r < k && better(hs[l], hi[l], hs[r], hi[r])) w = r;
    if (!better(s, j, hs[w], hi[w])) break;
    hs[p] = hs[w];
    hi[p] = hi[w];
    p = w;
  }
  hs[p] = s;
  hi[p] = j;
}

}  // namespace

void cosine_matrix(const float* a, std::int64_t m, const float* b, std::int64_t n, int d, bool cuda, float* out) {
  if (cuda) {
    std::vector<float> ua = unit_rows(a, m, d, "a");
    std::vector<float> inv_b = inv_norms(b, n, d, "b");
    cuda_cosine(ua.data(), m, b, inv_b.data(), n, d, out);
    if (a == b && m == n) mirror_upper(out, m);
    return;
  }
  // b is packed (the vectorised side); rows of a are broadcast and scaled by 1/‖a_i‖ afterwards.
  std::vector<float> inv_a = inv_norms(a, m, d, "a");
  std::vector<float> pb = pack_unit(b, n, d, "b");
  const MicroFn micro = micro_kernel();
  const std::int64_t panels = (n + NR - 1) / NR;
  const std::int64_t rowBlock = MR * 16;    // 96 rows of a per task
  const std::int64_t panelBlock = 64;       // 1,024 vectors of b (≈ 400 KB for d = 100) per task
  const std::int64_t rb = (m + rowBlock - 1) / rowBlock, pbk = (panels + panelBlock - 1) / panelBlock;
  std::vector<float> zero(d, 0.0f);
  // a with itself: only blocks on or above the diagonal, then a mirror, so the result is exactly
  // symmetric (as a distance matrix built from it must be) for half the work.
  const bool self = a == b && m == n;
  parallel_for(rb * pbk, [&](std::int64_t task) {
    const std::int64_t i0 = (task / pbk) * rowBlock, i1 = std::min(m, i0 + rowBlock);
    const std::int64_t p0 = (task % pbk) * panelBlock, p1 = std::min(panels, p0 + panelBlock);
    if (self && p1 * NR <= i0) return;
    float tile[MR * NR];
    const float* rows[MR];
    for (std::int64_t i = i0; i < i1; i += MR) {
      const int mr = static_cast<int>(std::min<std::int64_t>(MR, i1 - i));
      for (int r = 0; r < MR; r++) rows[r] = r < mr ? a + (i + r) * d : zero.data();
      for (std::int64_t pn = p0; pn < p1; pn++) {
        const int nr = static_cast<int>(std::min<std::int64_t>(NR, n - pn * NR));
        micro(rows, pb.data() + pn * NR * d, d, tile, NR, MR, NR);
        for (int r = 0; r < mr; r++) {
          const float s = inv_a[i + r];
          float* o = out + (i + r) * n + pn * NR;
          for (int v = 0; v < nr; v++) o[v] = tile[r * NR + v] * s;
        }
      }
    }
  });
  if (self) mirror_upper(out, m);
}

void top_k(const float* q, std::int64_t m, const float* c, std::int64_t n, int d, int k, bool normalized, bool cuda,
           std::int32_t* idx, float* scores) {
  std::vector<float> inv_c;
  if (!normalized) inv_c = inv_norms(c, n, d, "corpus");
  if (cuda && cuda_topk_fits(k)) {
    std::vector<float> uq = unit_rows(q, m, d, "queries");
    if (normalized) inv_c.assign(n, 1.0f);
    cuda_topk(uq.data(), m, c, inv_c.data(), n, d, k, idx, scores);
    return;
  }
  // Queries are packed (the vectorised side); corpus rows are read in place, 6 at a time, and
  // scaled by their inverse norms. Tasks: (block of query panels) × (chunk of the corpus).
  std::vector<float> pq = pack_unit(q, m, d, "queries");
  const MicroFn micro = micro_kernel();
  const std::int64_t panels = (m + NR - 1) / NR;
  const std::int64_t panelBlock = 32;  // 512 queries (≈ 200 KB packed for d = 100) stay in L2
  const std::int64_t qb = (panels + panelBlock - 1) / panelBlock;
  std::int64_t chunks = 1;
  const std::int64_t want = 4LL * threads();
  if (qb < want) chunks = std::max<std::int64_t>(1, std::min<std::int64_t>((want + qb - 1) / qb, n / 4096));
  const std::int64_t chunkRows = ((n + chunks - 1) / chunks + MR - 1) / MR * MR;
  chunks = (n + chunkRows - 1) / chunkRows;
  // Partial heaps: chunk-major, then query, then k entries.
  std::vector<float> hs(static_cast<std::size_t>(chunks) * m * k, -std::numeric_limits<float>::infinity());
  std::vector<std::int32_t> hi(static_cast<std::size_t>(chunks) * m * k, std::numeric_limits<std::int32_t>::max());
  std::vector<float> zero(d, 0.0f);
  const TileMaskFn mask = tile_mask();
  parallel_for(qb * chunks, [&](std::int64_t task) {
    const std::int64_t b = task / chunks, ch = task % chunks;
    const std::int64_t p0 = b * panelBlock, p1 = std::min(panels, p0 + panelBlock);
    const std::int64_t j0 = ch * chunkRows, j1 = std::min(n, j0 + chunkRows);
    float* hsc = hs.data() + static_cast<std::size_t>(ch) * m * k;
    std::int32_t* hic = hi.data() + static_cast<std::size_t>(ch) * m * k;
    // thr[v]: the worst kept score of query p0*NR + v (+∞ for padding), so a tile with no score
    // above its queries' thresholds is dismissed by one vector compare. Candidates arrive in
    // increasing corpus order, so an equal score never displaces an entry here.
    std::vector<float> thr((p1 - p0) * NR, std::numeric_limits<float>::infinity());
    for (std::int64_t qi = p0 * NR; qi < std::min(m, p1 * NR); qi++) thr[qi - p0 * NR] = hsc[qi * k];
    float tile[MR * NR];
    const float* rows[MR];
    for (std::int64_t j = j0; j < j1; j += MR) {
      const int mr = static_cast<int>(std::min<std::int64_t>(MR, j1 - j));
      float inv[MR];
      for (int r = 0; r < MR; r++) {
        rows[r] = r < mr ? c + (j + r) * d : zero.data();
        inv[r] = r < mr ? (normalized ? 1.0f : inv_c[j + r]) : 0.0f;
      }
      for (std::int64_t pn = p0; pn < p1; pn++) {
        micro(rows, pq.data() + pn * NR * d, d, tile, NR, MR, NR);
        float* t = thr.data() + (pn - p0) * NR;
        std::uint32_t bits = mask(tile, inv, t);
        while (bits) {
          const int v = __builtin_ctz(bits);
          bits &= bits - 1;
          const std::int64_t qi = pn * NR + v;
          float* h = hsc + qi * k;
          std::int32_t* hx = hic + qi * k;
          for (int r = 0; r < mr; r++) {
            const float s = tile[r * NR + v] * inv[r];
            if (s > h[0]) heap_offer(h, hx, k, s, static_cast<std::int32_t>(j + r));
          }
          t[v] = h[0];
        }
      }
    }
  });
  // Merge the chunks' heaps and sort best first.
  parallel_for((m + 255) / 256, [&](std::int64_t t) {
    std::vector<std::int64_t> cand(static_cast<std::size_t>(chunks) * k);
    const std::int64_t q1 = std::min(m, (t + 1) * 256);
    for (std::int64_t qi = t * 256; qi < q1; qi++) {
      for (std::int64_t ch = 0; ch < chunks; ch++)
        for (int e = 0; e < k; e++) cand[ch * k + e] = (ch * m + qi) * k + e;
      std::partial_sort(cand.begin(), cand.begin() + k, cand.end(), [&](std::int64_t x, std::int64_t y) {
        return better(hs[x], hi[x], hs[y], hi[y]);
      });
      for (int e = 0; e < k; e++) {
        idx[qi * k + e] = hi[cand[e]];
        scores[qi * k + e] = hs[cand[e]];
      }
    }
  });
}

}  // namespace xt
