#include "common/progress_bar.h"

#include <algorithm>

namespace tuner {

ProgressBar::ProgressBar(bool enabled, std::FILE* out)
    : enabled_(enabled), out_(out), start_(std::chrono::steady_clock::now()) {}

ProgressBar::~ProgressBar() { Finish(); }

void ProgressBar::Update(int part, std::size_t total, std::size_t done, std::size_t failures, double best_ms) {
  if (!enabled_) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  parts_[part] = {total, done, failures, best_ms};
  Draw();
}

void ProgressBar::Draw() {
  Part sum;
  for (const auto& [key, p] : parts_) {
    sum.total += p.total;
    sum.done += p.done;
    sum.failures += p.failures;
    if (p.best_ms > 0 && (sum.best_ms == 0 || p.best_ms < sum.best_ms)) sum.best_ms = p.best_ms;
  }
  if (sum.total == 0) return;
  constexpr int kWidth = 28;
  const double fraction = std::min(1.0, static_cast<double>(sum.done) / static_cast<double>(sum.total));
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double left = sum.done > 0 ? elapsed * (1 - fraction) / fraction : 0;
  std::string bar(static_cast<std::size_t>(fraction * kWidth), '#');
  bar.resize(kWidth, '.');
  char best[32] = "-";
  if (sum.best_ms > 0) std::snprintf(best, sizeof best, "%.4f ms", sum.best_ms);
  std::fprintf(out_, "\r\033[K[%s] %zu/%zu  failed %zu  best %s  %.0fs left", bar.c_str(), sum.done, sum.total,
               sum.failures, best, left);
  std::fflush(out_);
  drawn_ = true;
}

void ProgressBar::Finish() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (drawn_) std::fprintf(out_, "\r\033[K");
  std::fflush(out_);
  drawn_ = false;
}

}  // namespace tuner
