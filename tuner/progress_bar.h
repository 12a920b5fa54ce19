// A one-line progress bar on stderr, drawn only when stderr is a terminal, so scripts and --json
// output stay clean.
#pragma once

#include <chrono>
#include <string>

namespace tuner {

class ProgressBar {
 public:
  ProgressBar(std::size_t total, bool enabled);
  ~ProgressBar();

  void Update(std::size_t done, std::size_t failures, const std::string& best);
  void Finish();

 private:
  std::size_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace tuner
