// N-API glue of @xtrust/native. The TS wrapper (src/index.ts) has already checked types and shapes;
// value checks that need a pass over large arrays (NaN, symmetry) happen here and come back as JS
// errors carrying `xtrustCode` and `argument`, which the wrapper rethrows as XtrustError.
#include <napi.h>

#include <new>
#include <string>
#include <vector>

#include "common.h"
#include "cosine.h"
#include "cuda_bridge.h"
#include "linkage.h"
#include "ridge.h"
#include "score_masks.h"

namespace {

using xt::ArgError;

template <typename F>
Napi::Value guard(const Napi::CallbackInfo& info, F&& body) {
  Napi::Env env = info.Env();
  try {
    return body(env);
  } catch (const ArgError& e) {
    Napi::Error err = Napi::Error::New(env, e.message);
    err.Set("xtrustCode", Napi::String::New(env, e.code));
    err.Set("argument", Napi::String::New(env, e.argument));
    throw err;
  } catch (const std::bad_alloc&) {
    Napi::Error err = Napi::Error::New(env, "out of memory in the native kernel");
    err.Set("xtrustCode", Napi::String::New(env, "INVALID_ARGUMENT"));
    throw err;
  } catch (const Napi::Error&) {
    throw;
  } catch (const std::exception& e) {
    throw Napi::Error::New(env, std::string("native kernel failed: ") + e.what());
  }
}

template <typename T>
const T* data_of(const Napi::TypedArrayOf<T>& a) {
  return a.Data();
}

Napi::Value Info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  Napi::Object o = Napi::Object::New(env);
  o.Set("threads", xt::threads());
  o.Set("simd", xt::simd_name());
  const xt::CudaStatus& cs = xt::cuda_status();
  Napi::Object c = Napi::Object::New(env);
  c.Set("compiled", cs.compiled);
  c.Set("available", cs.available);
  if (!cs.device.empty()) c.Set("device", cs.device);
  if (!cs.reason.empty()) c.Set("reason", cs.reason);
  o.Set("cuda", c);
  return o;
}

Napi::Value CosineMatrix(const Napi::CallbackInfo& info) {
  return guard(info, [&](Napi::Env env) -> Napi::Value {
    auto a = info[0].As<Napi::Float32Array>();
    auto b = info[1].As<Napi::Float32Array>();
    const int d = info[2].As<Napi::Number>().Int32Value();
    const bool cuda = info[3].As<Napi::Boolean>().Value();
    const std::int64_t m = a.ElementLength() / d, n = b.ElementLength() / d;
    auto out = Napi::Float32Array::New(env, static_cast<std::size_t>(m * n));
    xt::cosine_matrix(data_of(a), m, data_of(b), n, d, cuda, out.Data());
    return out;
  });
}

Napi::Value TopK(const Napi::CallbackInfo& info) {
  return guard(info, [&](Napi::Env env) -> Napi::Value {
    auto q = info[0].As<Napi::Float32Array>();
    auto c = info[1].As<Napi::Float32Array>();
    const int d = info[2].As<Napi::Number>().Int32Value();
    const int k = info[3].As<Napi::Number>().Int32Value();
    const bool normalized = info[4].As<Napi::Boolean>().Value();
    const bool cuda = info[5].As<Napi::Boolean>().Value();
    const std::int64_t m = q.ElementLength() / d, n = c.ElementLength() / d;
    auto idx = Napi::Int32Array::New(env, static_cast<std::size_t>(m * k));
    auto sc = Napi::Float32Array::New(env, static_cast<std::size_t>(m * k));
    xt::top_k(data_of(q), m, data_of(c), n, d, k, normalized, cuda, idx.Data(), sc.Data());
    Napi::Object o = Napi::Object::New(env);
    o.Set("indices", idx);
    o.Set("scores", sc);
    return o;
  });
}

Napi::Value RidgeBatch(const Napi::CallbackInfo& info) {
  return guard(info, [&](Napi::Env env) -> Napi::Value {
    auto arr = info[0].As<Napi::Array>();
    const std::uint32_t count = arr.Length();
    std::vector<xt::RidgeIn> in(count);
    for (std::uint32_t i = 0; i < count; i++) {
      Napi::Object p = arr.Get(i).As<Napi::Object>();
      xt::RidgeIn& r = in[i];
      r.rows = p.Get("rows").As<Napi::Number>().Int32Value();
      r.cols = p.Get("cols").As<Napi::Number>().Int32Value();
      r.alpha = p.Get("alpha").As<Napi::Number>().DoubleValue();
      auto x = p.Get("x").As<Napi::TypedArray>();
      if (x.TypedArrayType() == napi_float32_array) r.xf = x.As<Napi::Float32Array>().Data();
      else r.xb = x.As<Napi::Uint8Array>().Data();
      auto y = p.Get("y").As<Napi::TypedArray>();
      if (y.TypedArrayType() == napi_float32_array) r.yf = y.As<Napi::Float32Array>().Data();
      else r.yd = y.As<Napi::Float64Array>().Data();
      Napi::Value wv = p.Get("sampleWeight");
      if (!wv.IsUndefined()) {
        auto w = wv.As<Napi::TypedArray>();
        if (w.TypedArrayType() == napi_float32_array) r.wf = w.As<Napi::Float32Array>().Data();
        else r.wd = w.As<Napi::Float64Array>().Data();
      }
    }
    std::vector<xt::RidgeOut> out;
    xt::ridge_batch(in, out);
    Napi::Array res = Napi::Array::New(env, count);
    for (std::uint32_t i = 0; i < count; i++) {
      Napi::Object o = Napi::Object::New(env);
      if (!out[i].error.empty()) {
        o.Set("error", out[i].error);
        o.Set("errorArgument", out[i].errorArgument);
      } else {
        auto coef = Napi::Float64Array::New(env, out[i].coef.size());
        std::copy(out[i].coef.begin(), out[i].coef.end(), coef.Data());
        o.Set("coef", coef);
        o.Set("intercept", out[i].intercept);
        o.Set("score", out[i].score);
        o.Set("firstPrediction", out[i].first);
      }
      res.Set(i, o);
    }
    return res;
  });
}

Napi::Value ScoreMasks(const Napi::CallbackInfo& info) {
  return guard(info, [&](Napi::Env env) -> Napi::Value {
    Napi::Object net = info[0].As<Napi::Object>();
    auto ids = info[1].As<Napi::Int32Array>();
    auto masks = info[2].As<Napi::Uint8Array>();
    const std::int64_t rows = info[3].As<Napi::Number>().Int64Value();
    const int classes = info[4].As<Napi::Number>().Int32Value();
    xt::MaskNet mn;
    Napi::Object input = net.Get("input").As<Napi::Object>();
    mn.bagOfWords = input.Get("kind").As<Napi::String>().Utf8Value() == "bag-of-words";
    mn.vocab = input.Get("vocabSize").As<Napi::Number>().Int32Value();
    if (mn.bagOfWords) {
      mn.log1p = input.Get("transform").As<Napi::String>().Utf8Value() == "log1p";
    } else {
      mn.dim = input.Get("dim").As<Napi::Number>().Int32Value();
      mn.embeddings = input.Get("embeddings").As<Napi::Float32Array>().Data();
    }
    Napi::Array layers = net.Get("layers").As<Napi::Array>();
    for (std::uint32_t i = 0; i < layers.Length(); i++) {
      Napi::Object l = layers.Get(i).As<Napi::Object>();
      xt::DenseLayer dl;
      dl.in = l.Get("inDim").As<Napi::Number>().Int32Value();
      dl.out = l.Get("outDim").As<Napi::Number>().Int32Value();
      dl.weight = l.Get("weight").As<Napi::Float32Array>().Data();
      dl.bias = l.Get("bias").As<Napi::Float32Array>().Data();
      mn.layers.push_back(dl);
    }
    const int T = static_cast<int>(ids.ElementLength());
    auto out = Napi::Float32Array::New(env, static_cast<std::size_t>(rows * classes));
    xt::score_masks(mn, ids.Data(), T, masks.Data(), rows, out.Data());
    return out;
  });
}

Napi::Value AverageLinkage(const Napi::CallbackInfo& info) {
  return guard(info, [&](Napi::Env env) -> Napi::Value {
    auto d = info[0].As<Napi::Float32Array>();
    const std::int64_t n = info[1].As<Napi::Number>().Int64Value();
    xt::check_distances(d.Data(), n);
    xt::Linkage lk = xt::average_linkage(d.Data(), n);
    auto merges = Napi::Int32Array::New(env, lk.merges.size());
    std::copy(lk.merges.begin(), lk.merges.end(), merges.Data());
    auto heights = Napi::Float64Array::New(env, lk.heights.size());
    std::copy(lk.heights.begin(), lk.heights.end(), heights.Data());
    Napi::Object o = Napi::Object::New(env);
    o.Set("merges", merges);
    o.Set("heights", heights);
    return o;
  });
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("info", Napi::Function::New(env, Info));
  exports.Set("cosineMatrix", Napi::Function::New(env, CosineMatrix));
  exports.Set("topK", Napi::Function::New(env, TopK));
  exports.Set("ridgeBatch", Napi::Function::New(env, RidgeBatch));
  exports.Set("scoreMasks", Napi::Function::New(env, ScoreMasks));
  exports.Set("averageLinkage", Napi::Function::New(env, AverageLinkage));
  return exports;
}

}  // namespace

NODE_API_MODULE(xtrust_native, Init)
