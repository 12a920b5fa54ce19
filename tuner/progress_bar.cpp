#include "progress_bar.h"

#include <cstdio>

namespace tuner {

ProgressBar::ProgressBar(std::size_t total, bool enabled)
    : total_(total), enabled_(enabled && total > 0), start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() { Finish(); }

void ProgressBar::Update(std::size_t done, std::size_t failures, const std::string& best) {
  if (!enabled_) return;
  constexpr int kWidth = 28;
  const double fraction = static_cast<double>(done) / static_cast<double>(total_);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double left = done > 0 ? elapsed * static_cast<double>(total_ - done) / static_cast<double>(done) : 0;
  std::string bar(static_cast<std::size_t>(fraction * kWidth), '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "\r\033[K[%s] %zu/%zu  failed %zu  best %s  %.0fs left", bar.c_str(), done, total_, failures,
               best.empty() ? "-" : best.c_str(), left);
  std::fflush(stderr);
  drawn_ = true;
}

void ProgressBar::Finish() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
  drawn_ = false;
}

}  // namespace tuner
