#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace xt {

// One weighted ridge problem; exactly one of xf/xb, of yf/yd, and at most one of wf/wd are set.
struct RidgeIn {
  const float* xf = nullptr;
  const std::uint8_t* xb = nullptr;
  int rows = 0, cols = 0;
  const float* yf = nullptr;
  const double* yd = nullptr;
  const float* wf = nullptr;
  const double* wd = nullptr;
  double alpha = 1.0;
};

struct RidgeOut {
  std::vector<double> coef;
  double intercept = 0, score = 0, first = 0;
  std::string error;          // set when the problem could not be solved
  std::string errorArgument;  // the field the error is about ("x" or "")
};

// Solves every problem (in parallel across problems); never throws for a bad problem, it sets error.
void ridge_batch(const std::vector<RidgeIn>& in, std::vector<RidgeOut>& out);

}  // namespace xt
