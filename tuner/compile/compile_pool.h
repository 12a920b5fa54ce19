// Compiles the candidates of a sweep on several threads, ahead of the GPU, which takes them in
// order. NVRTC is thread-safe; each job is independent.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tuner {

class CompilePool {
 public:
  // Runs work(i, thread) for i in [0, count) on `threads` threads (thread in [0, threads)), started
  // in increasing order of i.
  CompilePool(std::size_t count, int threads, std::function<void(std::size_t, int)> work);
  ~CompilePool();  // stops taking new jobs and joins: the jobs under way finish, no other starts
  CompilePool(const CompilePool&) = delete;
  CompilePool& operator=(const CompilePool&) = delete;

  // Until work(index) has returned; rethrows what it threw (the other jobs go on).
  void WaitFor(std::size_t index);
  // As WaitFor, for at most `at_most`: false when work(index) is still running then.
  bool WaitFor(std::size_t index, std::chrono::milliseconds at_most);
  std::size_t Finished();  // jobs done so far

 private:
  void Loop(int thread);

  std::function<void(std::size_t, int)> work_;
  std::vector<char> done_;
  std::vector<std::exception_ptr> errors_;
  std::size_t count_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> stop_{false};
  std::mutex mutex_;
  std::condition_variable finished_;
  std::vector<std::thread> threads_;
};

}  // namespace tuner
