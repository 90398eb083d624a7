#include "common.h"

namespace xt {
namespace base {
void micro(const float* const*, const float*, int, float*, int, int, int);
void gram(const double*, const double*, const double*, const double*, int, double*, int);
float min_plus(const float*, const float*, std::int64_t);
std::uint32_t tile_mask(const float*, const float*, const float*);
}  // namespace base
#if defined(XT_HAVE_AVX)
namespace avx {
void micro(const float* const*, const float*, int, float*, int, int, int);
void gram(const double*, const double*, const double*, const double*, int, double*, int);
float min_plus(const float*, const float*, std::int64_t);
std::uint32_t tile_mask(const float*, const float*, const float*);
}  // namespace avx
#endif

namespace {
bool use_avx() {
#if defined(XT_HAVE_AVX) && (defined(__GNUC__) || defined(__clang__))
  static const bool ok = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx") && __builtin_cpu_supports("fma");
  }();
  return ok;
#else
  return false;
#endif
}
}  // namespace

const char* simd_name() {
  if (use_avx()) return "avx+fma";
#if defined(__x86_64__) || defined(_M_X64)
  return "sse4.2";
#elif defined(__aarch64__)
  return "neon";
#else
  return "generic";
#endif
}

#if defined(XT_HAVE_AVX)
MicroFn micro_kernel() { return use_avx() ? avx::micro : base::micro; }
GramTileFn gram_tile() { return use_avx() ? avx::gram : base::gram; }
MinFn min_plus() { return use_avx() ? avx::min_plus : base::min_plus; }
TileMaskFn tile_mask() { return use_avx() ? avx::tile_mask : base::tile_mask; }
#else
MicroFn micro_kernel() { return base::micro; }
GramTileFn gram_tile() { return base::gram; }
MinFn min_plus() { return base::min_plus; }
TileMaskFn tile_mask() { return base::tile_mask; }
#endif

}  // namespace xt
