#include "compile/compile_queue.h"

#include <stdexcept>
#include <string>

namespace tuner {

CompileQueue::CompileQueue(int threads, std::function<void(std::size_t, int)> work) : work_(std::move(work)) {
  for (int t = 0; t < threads; ++t) threads_.emplace_back([this, t] { Loop(t); });
}

CompileQueue::~CompileQueue() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    queue_.clear();
  }
  changed_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void CompileQueue::Loop(int thread) {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    const std::size_t key = queue_.front();
    queue_.pop_front();
    state_[key] = State::kRunning;
    ++started_;
    lock.unlock();
    std::exception_ptr error;
    try {
      work_(key, thread);
    } catch (...) {  // for Wait to rethrow; an exception leaving a thread would end the process
      error = std::current_exception();
    }
    lock.lock();
    state_[key] = State::kDone;
    if (error) errors_[key] = error;
    changed_.notify_all();
  }
}

void CompileQueue::Push(std::size_t key) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!state_.emplace(key, State::kQueued).second)
      throw std::logic_error("compile " + std::to_string(key) + " was queued before");
    queue_.push_back(key);
  }
  changed_.notify_all();
}

void CompileQueue::Wait(std::size_t key) {
  std::unique_lock<std::mutex> lock(mutex_);
  const auto it = state_.find(key);
  if (it == state_.end() || it->second == State::kDropped)
    throw std::logic_error("compile " + std::to_string(key) + " is not queued");
  changed_.wait(lock, [&] { return it->second == State::kDone; });
  const auto error = errors_.find(key);
  if (error != errors_.end()) std::rethrow_exception(error->second);
}

bool CompileQueue::Done(std::size_t key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = state_.find(key);
  return it != state_.end() && it->second == State::kDone;
}

std::size_t CompileQueue::DropQueued() {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::size_t dropped = queue_.size();
  for (const std::size_t key : queue_) state_[key] = State::kDropped;
  queue_.clear();
  return dropped;
}

std::size_t CompileQueue::started() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return started_;
}

}  // namespace tuner
