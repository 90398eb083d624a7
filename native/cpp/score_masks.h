#pragma once
#include <cstdint>
#include <vector>

namespace xt {

struct DenseLayer {
  int in = 0, out = 0;
  const float* weight = nullptr;  // in×out row-major
  const float* bias = nullptr;
};

// The forward pass of a built-in model (see MaskScoringNet in @xtrust/core).
struct MaskNet {
  bool bagOfWords = true;
  bool log1p = false;                 // bag-of-words transform
  int vocab = 0, dim = 0;             // dim: mean-embedding width
  const float* embeddings = nullptr;  // vocab×dim for mean-embedding
  std::vector<DenseLayer> layers;
};

// out (rows×classes) = softmax probabilities for each token-presence mask (rows×T, non-zero = kept).
void score_masks(const MaskNet& net, const std::int32_t* ids, int T, const std::uint8_t* masks, std::int64_t rows, float* out);

}  // namespace xt
