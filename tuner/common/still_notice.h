// A phase that shows nothing else says that it is still under way, so that a user (or a batch
// log) never watches a silent minute: "tuner tune: gemm: still compiling its first candidates
// (3 of 16 done, 20 s)", once it has run 10 s, then every 10 s.
#pragma once

#include <chrono>
#include <functional>
#include <ostream>
#include <string>

namespace tuner {

inline constexpr double kStillNoticeS = 10;

class StillNotice {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  // `who` starts each line ("tuner tune: gemm").
  explicit StillNotice(std::string who, std::ostream* out = nullptr, Clock now = std::chrono::steady_clock::now);

  // Writes "WHO: still DOING (N s)" when the next notice is due; `doing` is made only then.
  void Tick(const std::function<std::string()>& doing);
  // A new phase: its first notice after kStillNoticeS again.
  void Restart();

 private:
  std::string who_;
  std::ostream* out_;
  Clock now_;
  std::chrono::steady_clock::time_point start_;
  double next_s_ = kStillNoticeS;
};

}  // namespace tuner
