// A one-line progress bar on stderr, drawn only when stderr is a terminal, so scripts and --json
// output stay clean. Several sweeps (one per GPU) may share one bar: each reports its own counts
// as a part, and the bar shows their sums.
#pragma once

#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <string>

namespace tuner {

class ProgressBar {
 public:
  explicit ProgressBar(bool enabled, std::FILE* out = stderr);
  ~ProgressBar();

  // The counts of one part (a sweep, keyed by its GPU); best_ms 0 means none yet. Thread-safe.
  void Update(int part, std::size_t total, std::size_t done, std::size_t failures, double best_ms);
  // Clears the line, so that what follows is printed on a clean one.
  void Finish();

 private:
  struct Part {
    std::size_t total = 0, done = 0, failures = 0;
    double best_ms = 0;
  };
  void Draw();

  bool enabled_;
  std::FILE* out_;
  bool drawn_ = false;
  std::map<int, Part> parts_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace tuner
