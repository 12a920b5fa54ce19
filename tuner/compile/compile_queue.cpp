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
    started_at_[key] = Clock::now();
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
    seconds_[key] = std::chrono::duration<double>(Clock::now() - started_at_[key]).count();
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

bool CompileQueue::Queued(std::size_t key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return state_.count(key) > 0;
}

std::optional<std::size_t> CompileQueue::FirstDoneLocked(const std::vector<std::size_t>& keys) const {
  for (const std::size_t key : keys) {
    const auto it = state_.find(key);
    if (it != state_.end() && it->second == State::kDone) return key;
  }
  return std::nullopt;
}

std::optional<std::size_t> CompileQueue::FirstDone(const std::vector<std::size_t>& keys,
                                                   std::optional<std::chrono::milliseconds> timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  const auto any_done = [&] { return FirstDoneLocked(keys).has_value(); };
  if (timeout)
    changed_.wait_for(lock, *timeout, any_done);
  else
    changed_.wait(lock, any_done);
  return FirstDoneLocked(keys);
}

std::optional<double> CompileQueue::Seconds(std::size_t key) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (const auto done = seconds_.find(key); done != seconds_.end()) return done->second;
  const auto started = started_at_.find(key);
  if (started == started_at_.end()) return std::nullopt;
  return std::chrono::duration<double>(Clock::now() - started->second).count();
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

std::size_t CompileQueue::done() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return seconds_.size();
}

}  // namespace tuner
