#include "compile/compile_pool.h"

namespace tuner {

CompilePool::CompilePool(std::size_t count, int threads, std::function<void(std::size_t, int)> work)
    : work_(std::move(work)), done_(count, 0), errors_(count), count_(count) {
  for (int t = 0; t < threads; ++t) threads_.emplace_back([this, t] { Loop(t); });
}

CompilePool::~CompilePool() {
  stop_ = true;
  for (std::thread& t : threads_) t.join();
}

void CompilePool::Loop(int thread) {
  for (std::size_t i = next_++; i < count_ && !stop_; i = next_++) {
    std::exception_ptr error;
    try {
      work_(i, thread);
    } catch (...) {  // for the caller to see in WaitFor; an exception leaving a thread would end the process
      error = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex_);
    errors_[i] = error;
    done_[i] = 1;
    finished_.notify_all();
  }
}

void CompilePool::WaitFor(std::size_t index) {
  std::unique_lock<std::mutex> lock(mutex_);
  finished_.wait(lock, [&] { return done_.at(index) != 0; });
  if (errors_[index]) std::rethrow_exception(errors_[index]);
}

}  // namespace tuner
