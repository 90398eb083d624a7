#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "common.h"

namespace xt {

int threads() {
  static int n = [] {
    if (const char* e = std::getenv("XTRUST_THREADS")) {
      int v = std::atoi(e);
      if (v > 0) return v;
    }
    unsigned h = std::thread::hardware_concurrency();
    return h == 0 ? 1 : static_cast<int>(h);
  }();
  return n;
}

namespace {

// A fixed pool of threads()−1 workers; the caller is the last worker. One job at a time.
class Pool {
 public:
  Pool() {
    for (int t = 1; t < threads(); t++) workers_.emplace_back([this] { loop(); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lk(m_);
      stop_ = true;
      gen_++;
    }
    cv_.notify_all();
    for (auto& w : workers_) w.join();
  }

  void run(std::int64_t tasks, const std::function<void(std::int64_t)>& fn) {
    std::lock_guard<std::mutex> job(job_);
    if (workers_.empty() || tasks <= 1) {
      for (std::int64_t t = 0; t < tasks; t++) fn(t);
      return;
    }
    {
      std::lock_guard<std::mutex> lk(m_);
      fn_ = &fn;
      tasks_ = tasks;
      next_.store(0);
      active_ = static_cast<int>(workers_.size());
      error_ = nullptr;
      gen_++;
    }
    cv_.notify_all();
    work();
    std::unique_lock<std::mutex> lk(m_);
    done_.wait(lk, [this] { return active_ == 0; });
    fn_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void work() {
    for (;;) {
      std::int64_t t = next_.fetch_add(1);
      if (t >= tasks_) break;
      try {
        (*fn_)(t);
      } catch (...) {
        std::lock_guard<std::mutex> lk(m_);
        if (!error_) error_ = std::current_exception();
        next_.store(tasks_);
      }
    }
  }
  void loop() {
    std::uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock<std::mutex> lk(m_);
        cv_.wait(lk, [&] { return gen_ != seen; });
        seen = gen_;
        if (stop_) return;
      }
      work();
      {
        std::lock_guard<std::mutex> lk(m_);
        if (--active_ == 0) done_.notify_one();
      }
    }
  }

  std::vector<std::thread> workers_;
  std::mutex job_, m_;
  std::exception_ptr error_;
  std::condition_variable cv_, done_;
  const std::function<void(std::int64_t)>* fn_ = nullptr;
  std::int64_t tasks_ = 0;
  std::atomic<std::int64_t> next_{0};
  int active_ = 0;
  std::uint64_t gen_ = 0;
  bool stop_ = false;
};

}  // namespace

void parallel_for(std::int64_t tasks, const std::function<void(std::int64_t)>& fn) {
  // Never destroyed: joining threads while Node exits is not worth the risk.
  static Pool* pool = new Pool();
  pool->run(tasks, fn);
}

}  // namespace xt
