// Batched weighted ridge regression, exactly scikit-learn's Ridge(alpha, fit_intercept=True) with
// sample_weight (solver "cholesky"): X and y are centred by their weighted means, rows scaled by √w,
// then (XsᵀXs + αI)β = Xsᵀys is solved by Cholesky in double precision — or, when there are more
// columns than rows, the dual (XsXsᵀ + αI)a = ys, β = Xsᵀa, as sklearn does.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common.h"
#include "ridge.h"

namespace xt {

namespace {

inline double xval(const RidgeIn& p, std::int64_t i) { return p.xf ? static_cast<double>(p.xf[i]) : static_cast<double>(p.xb[i]); }
inline double yval(const RidgeIn& p, int r) { return p.yf ? static_cast<double>(p.yf[r]) : p.yd[r]; }
inline double wval(const RidgeIn& p, int r) { return p.wf ? static_cast<double>(p.wf[r]) : p.wd ? p.wd[r] : 1.0; }

// In-place Cholesky of the symmetric n×n matrix a (row stride ld, lower triangle read and written),
// then solves for b (overwritten). False when a is not positive definite.
bool chol_solve(double* a, int n, int ld, double* b) {
  for (int j = 0; j < n; j++) {
    double dj = a[static_cast<std::int64_t>(j) * ld + j];
    const double* rj = a + static_cast<std::int64_t>(j) * ld;
    for (int p = 0; p < j; p++) dj -= rj[p] * rj[p];
    if (!(dj > 0)) return false;
    const double ljj = std::sqrt(dj);
    a[static_cast<std::int64_t>(j) * ld + j] = ljj;
    for (int i = j + 1; i < n; i++) {
      double* ri = a + static_cast<std::int64_t>(i) * ld;
      double s = ri[j];
      for (int p = 0; p < j; p++) s -= ri[p] * rj[p];
      ri[j] = s / ljj;
    }
  }
  for (int i = 0; i < n; i++) {
    const double* ri = a + static_cast<std::int64_t>(i) * ld;
    double s = b[i];
    for (int p = 0; p < i; p++) s -= ri[p] * b[p];
    b[i] = s / ri[i];
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = b[i];
    for (int p = i + 1; p < n; p++) s -= a[static_cast<std::int64_t>(p) * ld + i] * b[p];
    b[i] = s / a[static_cast<std::int64_t>(i) * ld + i];
  }
  return true;
}

void solve_one(const RidgeIn& p, RidgeOut& o, const GramTileFn gram) {
  const int n = p.rows, d = p.cols;
  double sw = 0, ym = 0;
  std::vector<double> xm(d, 0.0);
  for (int r = 0; r < n; r++) {
    const double w = wval(p, r);
    sw += w;
    ym += w * yval(p, r);
    const std::int64_t row = static_cast<std::int64_t>(r) * d;
    if (p.xf) {
      for (int c = 0; c < d; c++) xm[c] += w * p.xf[row + c];
    } else {
      for (int c = 0; c < d; c++) xm[c] += w * p.xb[row + c];
    }
  }
  if (p.xf) {
    for (int c = 0; c < d; c++) {
      if (!std::isfinite(xm[c])) {
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(n) * d; i++)
          if (!std::isfinite(p.xf[i])) {
            o.errorArgument = "x";
            o.error = "x[" + std::to_string(i) + "] is not a finite number; inputs must be finite";
            return;
          }
      }
    }
  }
  ym /= sw;
  for (int c = 0; c < d; c++) xm[c] /= sw;

  // Centred, √w-scaled rows, padded to a multiple of 12 columns for the Gram tiles.
  const int ld = (d + 11) / 12 * 12;
  thread_local std::vector<double> xs, ys, g;
  xs.assign(static_cast<std::size_t>(n) * ld, 0.0);
  ys.assign(n, 0.0);
  for (int r = 0; r < n; r++) {
    const double s = std::sqrt(wval(p, r));
    ys[r] = s * (yval(p, r) - ym);
    double* dst = xs.data() + static_cast<std::int64_t>(r) * ld;
    const std::int64_t row = static_cast<std::int64_t>(r) * d;
    for (int c = 0; c < d; c++) dst[c] = s * (xval(p, row + c) - xm[c]);
  }
  o.coef.assign(d, 0.0);
  bool ok;
  if (d <= n) {
    g.assign(static_cast<std::size_t>(ld) * ld, 0.0);
    // Rows in chunks of 128, each packed into 4-column panels (128×4 contiguous doubles), so every
    // 4×12 tile streams four contiguous panels from L1.
    const int chunk = 128, panels = ld / 4;
    thread_local std::vector<double> pk;
    pk.resize(static_cast<std::size_t>(panels) * chunk * 4);
    for (int r0 = 0; r0 < n; r0 += chunk) {
      const int rc = std::min(chunk, n - r0);
      for (int r = 0; r < rc; r++) {
        const double* src = xs.data() + static_cast<std::int64_t>(r0 + r) * ld;
        for (int pn = 0; pn < panels; pn++)
          for (int c = 0; c < 4; c++) pk[(static_cast<std::size_t>(pn) * chunk + r) * 4 + c] = src[pn * 4 + c];
      }
      auto panel = [&](int pn) { return pk.data() + static_cast<std::size_t>(pn) * chunk * 4; };
      for (int i0 = 0; i0 < d; i0 += 4)
        for (int j0 = i0 / 12 * 12; j0 < d; j0 += 12)
          gram(panel(i0 / 4), panel(j0 / 4), panel(j0 / 4 + 1), panel(j0 / 4 + 2), rc, g.data() + static_cast<std::int64_t>(i0) * ld + j0, ld);
    }
    // Upper triangle (j ≥ i) is complete; mirror it into the lower one read by the solver.
    for (int i = 0; i < d; i++) {
      for (int j = 0; j < i; j++) g[static_cast<std::int64_t>(i) * ld + j] = g[static_cast<std::int64_t>(j) * ld + i];
      g[static_cast<std::int64_t>(i) * ld + i] += p.alpha;
    }
    for (int r = 0; r < n; r++) {
      const double* row = xs.data() + static_cast<std::int64_t>(r) * ld;
      const double yr = ys[r];
      for (int c = 0; c < d; c++) o.coef[c] += row[c] * yr;
    }
    ok = chol_solve(g.data(), d, ld, o.coef.data());
  } else {
    g.assign(static_cast<std::size_t>(n) * n, 0.0);
    for (int i = 0; i < n; i++) {
      const double* ri = xs.data() + static_cast<std::int64_t>(i) * ld;
      for (int j = 0; j <= i; j++) {
        const double* rj = xs.data() + static_cast<std::int64_t>(j) * ld;
        double s = 0;
        for (int c = 0; c < d; c++) s += ri[c] * rj[c];
        g[static_cast<std::int64_t>(i) * n + j] = s;
      }
      g[static_cast<std::int64_t>(i) * n + i] += p.alpha;
    }
    std::vector<double> a(ys.begin(), ys.end());
    ok = chol_solve(g.data(), n, n, a.data());
    if (ok)
      for (int r = 0; r < n; r++) {
        const double* row = xs.data() + static_cast<std::int64_t>(r) * ld;
        for (int c = 0; c < d; c++) o.coef[c] += row[c] * a[r];
      }
  }
  if (!ok) {
    o.error = "the ridge system is singular (alpha = 0 with collinear columns?)";
    return;
  }
  double intercept = ym;
  for (int c = 0; c < d; c++) intercept -= xm[c] * o.coef[c];
  double num = 0, den = 0, first = 0;
  for (int r = 0; r < n; r++) {
    double pred = intercept;
    const std::int64_t row = static_cast<std::int64_t>(r) * d;
    if (p.xf) {
      for (int c = 0; c < d; c++) pred += p.xf[row + c] * o.coef[c];
    } else {
      for (int c = 0; c < d; c++)
        if (p.xb[row + c]) pred += p.xb[row + c] * o.coef[c];
    }
    if (r == 0) first = pred;
    const double w = wval(p, r), y = yval(p, r);
    num += w * (y - pred) * (y - pred);
    den += w * (y - ym) * (y - ym);
  }
  o.intercept = intercept;
  o.first = first;
  // sklearn's r2_score with force_finite: a constant y gives 1 for a perfect fit, else 0.
  // sklearn's r2_score is NaN for fewer than two samples.
  o.score = n < 2 ? std::nan("") : den != 0 ? 1 - num / den : (num == 0 ? 1.0 : 0.0);
}

}  // namespace

void ridge_batch(const std::vector<RidgeIn>& in, std::vector<RidgeOut>& out) {
  out.assign(in.size(), RidgeOut{});
  const GramTileFn gram = gram_tile();
  parallel_for(static_cast<std::int64_t>(in.size()), [&](std::int64_t i) { solve_one(in[i], out[i], gram); });
}

}  // namespace xt
