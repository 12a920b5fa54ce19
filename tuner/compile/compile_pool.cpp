#include "compile/compile_pool.h"

#include <algorithm>

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

bool CompilePool::WaitFor(std::size_t index, std::chrono::milliseconds at_most) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!finished_.wait_for(lock, at_most, [&] { return done_.at(index) != 0; })) return false;
  if (errors_[index]) std::rethrow_exception(errors_[index]);
  return true;
}

std::size_t CompilePool::Finished() {
  std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<std::size_t>(std::count(done_.begin(), done_.end(), 1));
}

}  // namespace tuner
