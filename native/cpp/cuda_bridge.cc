#include "cuda_bridge.h"

#include <string>

#include "common.h"

#if defined(__unix__) || defined(__APPLE__)
#include <dlfcn.h>
#define XT_HAVE_DLOPEN 1
#endif

namespace xt {

namespace {

using InitFn = int (*)(char*, int, char*, int);
using KmaxFn = int (*)();
using CosFn = int (*)(const float*, long long, const float*, const float*, long long, int, float*, char*, int);
using TopkFn = int (*)(const float*, long long, const float*, const float*, long long, int, int, std::int32_t*, float*, char*, int);

struct Lib {
  CudaStatus status;
  KmaxFn kmax = nullptr;
  CosFn cosine = nullptr;
  TopkFn topk = nullptr;
};

Lib& lib() {
  static Lib l = [] {
    Lib l;
#if defined(XT_HAVE_DLOPEN)
    // libxtrust_cuda.so sits next to this addon.
    Dl_info info;
    if (dladdr(reinterpret_cast<void*>(&cuda_status), &info) == 0 || info.dli_fname == nullptr) {
      l.status.reason = "cannot locate the addon's folder";
      return l;
    }
    std::string dir(info.dli_fname);
    dir = dir.substr(0, dir.find_last_of('/') + 1);
    const std::string path = dir + "libxtrust_cuda.so";
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      l.status.reason = std::string("built without CUDA or its library failed to load (") + dlerror() + ")";
      return l;
    }
    l.status.compiled = true;
    auto init = reinterpret_cast<InitFn>(dlsym(h, "xtc_init"));
    l.kmax = reinterpret_cast<KmaxFn>(dlsym(h, "xtc_kmax"));
    l.cosine = reinterpret_cast<CosFn>(dlsym(h, "xtc_cosine"));
    l.topk = reinterpret_cast<TopkFn>(dlsym(h, "xtc_topk"));
    if (!init || !l.kmax || !l.cosine || !l.topk) {
      l.status.reason = "libxtrust_cuda.so lacks its entry points";
      return l;
    }
    char name[256] = {0}, err[512] = {0};
    if (init(name, sizeof name, err, sizeof err) == 1) {
      l.status.available = true;
      l.status.device = name;
    } else {
      l.status.reason = err;
    }
#else
    l.status.reason = "dlopen is not available on this platform";
#endif
    return l;
  }();
  return l;
}

[[noreturn]] void fail(const char* what, const char* err) {
  throw ArgError{"BACKEND_UNAVAILABLE", "", std::string("CUDA ") + what + " failed: " + err};
}

}  // namespace

const CudaStatus& cuda_status() { return lib().status; }

void cuda_cosine(const float* q_unit, std::int64_t m, const float* c, const float* inv_c, std::int64_t n, int d, float* out) {
  char err[512] = {0};
  if (lib().cosine(q_unit, m, c, inv_c, n, d, out, err, sizeof err) != 0) fail("cosineMatrix", err);
}

bool cuda_topk_fits(int k) { return lib().kmax && k <= lib().kmax(); }

void cuda_topk(const float* q_unit, std::int64_t m, const float* c, const float* inv_c, std::int64_t n, int d, int k, std::int32_t* idx,
               float* scores) {
  char err[512] = {0};
  if (lib().topk(q_unit, m, c, inv_c, n, d, k, idx, scores, err, sizeof err) != 0) fail("topK", err);
}

}  // namespace xt
