// Compiles that a guided search asks for one at a time, on several threads: each job is queued
// when the search picks its candidate, started in the order queued, and the jobs no thread has
// started yet can be dropped once the search no longer wants them (it stopped), so that nothing
// waits on a compile that will not be used.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace tuner {

class CompileQueue {
 public:
  // work(key, thread) runs on one of `threads` threads (thread in [0, threads)).
  CompileQueue(int threads, std::function<void(std::size_t key, int thread)> work);
  ~CompileQueue();  // drops the queued jobs and joins: the jobs under way finish
  CompileQueue(const CompileQueue&) = delete;
  CompileQueue& operator=(const CompileQueue&) = delete;

  // Queues work(key) after the jobs queued before it. Throws std::logic_error for a key queued before.
  void Push(std::size_t key);
  // Until work(key) has returned; rethrows what it threw. Throws std::logic_error for a key never
  // queued or dropped.
  void Wait(std::size_t key);
  bool Done(std::size_t key) const;
  bool Queued(std::size_t key) const;  // ever pushed
  // The first of `keys` (in their order) whose job is done, waiting until one is, or for at most
  // `timeout` when given (nullopt then if none is). Dropped keys never finish.
  std::optional<std::size_t> FirstDone(const std::vector<std::size_t>& keys,
                                       std::optional<std::chrono::milliseconds> timeout = std::nullopt);
  // How long the job has run: so far while it runs, in all once done; nullopt before it starts.
  std::optional<double> Seconds(std::size_t key) const;
  // Drops every job not started yet; returns how many.
  std::size_t DropQueued();
  std::size_t started() const;  // jobs a thread took, finished or not
  std::size_t done() const;     // jobs finished

 private:
  using Clock = std::chrono::steady_clock;
  enum class State { kQueued, kRunning, kDone, kDropped };
  void Loop(int thread);
  std::optional<std::size_t> FirstDoneLocked(const std::vector<std::size_t>& keys) const;

  std::function<void(std::size_t, int)> work_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::size_t> queue_;
  std::map<std::size_t, State> state_;
  std::map<std::size_t, std::exception_ptr> errors_;
  std::map<std::size_t, Clock::time_point> started_at_;
  std::map<std::size_t, double> seconds_;  // of the jobs done
  std::size_t started_ = 0;
  bool stop_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace tuner
