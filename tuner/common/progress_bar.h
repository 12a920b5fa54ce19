// A long task's progress on stderr, so that output on stdout (--json) stays clean. On a terminal, a
// one-line bar redrawn in place; elsewhere (a batch job's log) a plain line once the task has run
// 10 s, then every 10 s or every 5% of the work, whichever comes first, and one at the end: done of
// total, failures, best so far, time left. A task shorter than 10 s prints no line. After its first
// 10 s, a task whose pace says it takes more than 3 minutes in all says so once, in either style.
// Several sweeps
// (one per GPU) may share one report: each gives its own counts as a part, and it shows their sums.
#pragma once

#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <mutex>
#include <string>

namespace tuner {

enum class ProgressStyle { kOff, kBar, kLines };

// kBar when stderr is a terminal, else kLines.
ProgressStyle ProgressStyleFor(bool terminal);

// "45s", "3m 05s", "2h 07m".
std::string DurationText(double seconds);

// One part's counts; best_ms 0 means none yet. `searching`: a search that stops by itself, so
// `total` is the most it may do, not what it will: no bar, no time left, no estimate.
struct ProgressCounts {
  std::size_t total = 0, done = 0, failures = 0;
  double best_ms = 0;
  bool searching = false;
};

class ProgressBar {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  // `what` starts each plain line ("tuner tune"); `shows_best`: whether the task has a best time.
  ProgressBar(ProgressStyle style, std::string what, bool shows_best = true, std::FILE* out = stderr,
              Clock now = std::chrono::steady_clock::now);
  ~ProgressBar();

  // The counts of one part (a sweep, keyed by its GPU). Thread-safe.
  void Update(int part, const ProgressCounts& counts);
  // Clears the bar, or writes the last plain line when any was written, so that what follows
  // starts on a clean line.
  void Finish();

 private:
  ProgressCounts Sum() const;
  std::string Counts(const ProgressCounts& sum, double elapsed_s) const;
  void DrawBar(const ProgressCounts& sum, double elapsed_s);
  void MaybeWriteLine(const ProgressCounts& sum, double elapsed_s);
  void WriteLine(const ProgressCounts& sum, double elapsed_s);
  void MaybeEstimate(const ProgressCounts& sum, double elapsed_s);

  ProgressStyle style_;
  std::string what_;
  bool shows_best_;
  std::FILE* out_;
  Clock now_;
  std::chrono::steady_clock::time_point start_;
  std::map<int, ProgressCounts> parts_;
  std::mutex mutex_;
  bool drawn_ = false;          // a bar is on the line
  bool estimated_ = false;      // the estimate was considered
  int lines_ = 0;               // plain lines written
  double last_line_s_ = 0;      // when the last plain line was written
  std::size_t last_line_done_ = 0;
};

}  // namespace tuner
