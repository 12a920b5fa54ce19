#include "common/progress_bar.h"

#include <algorithm>
#include <cmath>

namespace tuner {

ProgressStyle ProgressStyleFor(bool terminal) { return terminal ? ProgressStyle::kBar : ProgressStyle::kLines; }

std::string DurationText(double seconds) {
  const long long s = std::max(0LL, std::llround(seconds));
  char text[32];
  if (s < 60)
    std::snprintf(text, sizeof text, "%llds", s);
  else if (s < 3600)
    std::snprintf(text, sizeof text, "%lldm %02llds", s / 60, s % 60);
  else
    std::snprintf(text, sizeof text, "%lldh %02lldm", s / 3600, s / 60 % 60);
  return text;
}

ProgressBar::ProgressBar(ProgressStyle style, std::string what, bool shows_best, std::FILE* out, Clock now)
    : style_(style), what_(std::move(what)), shows_best_(shows_best), out_(out), now_(std::move(now)), start_(now_()) {}

ProgressBar::~ProgressBar() { Finish(); }

void ProgressBar::Update(int part, const ProgressCounts& counts) {
  if (style_ == ProgressStyle::kOff) return;
  const std::lock_guard<std::mutex> lock(mutex_);
  parts_[part] = counts;
  const ProgressCounts sum = Sum();
  if (sum.total == 0) return;
  const double elapsed_s = std::chrono::duration<double>(now_() - start_).count();
  MaybeEstimate(sum, elapsed_s);
  if (style_ == ProgressStyle::kBar)
    DrawBar(sum, elapsed_s);
  else
    MaybeWriteLine(sum, elapsed_s);
}

ProgressCounts ProgressBar::Sum() const {
  ProgressCounts sum;
  for (const auto& [key, p] : parts_) {
    sum.total += p.total;
    sum.done += p.done;
    sum.failures += p.failures;
    sum.searching = sum.searching || p.searching;
    if (p.best_ms > 0 && (sum.best_ms == 0 || p.best_ms < sum.best_ms)) sum.best_ms = p.best_ms;
  }
  return sum;
}

// "120/4362  failed 3  best 0.1234 ms  5m 20s left" (the time left from the pace so far); a search's
// "120 of 4362 searched  failed 3  best 0.1234 ms".
std::string ProgressBar::Counts(const ProgressCounts& sum, double elapsed_s) const {
  const double fraction =
      sum.searching ? 0 : std::min(1.0, static_cast<double>(sum.done) / static_cast<double>(sum.total));
  std::string text = std::to_string(sum.done) + (sum.searching ? " of " : "/") + std::to_string(sum.total) +
                     (sum.searching ? " searched" : "") + "  failed " + std::to_string(sum.failures);
  if (shows_best_) {
    char best[32] = "-";
    if (sum.best_ms > 0) std::snprintf(best, sizeof best, "%.4f ms", sum.best_ms);
    text += std::string("  best ") + best;
  }
  if (fraction > 0) text += "  " + DurationText(elapsed_s * (1 - fraction) / fraction) + " left";
  return text;
}

void ProgressBar::MaybeEstimate(const ProgressCounts& sum, double elapsed_s) {
  constexpr double kPaceS = 10, kLongS = 180;
  if (estimated_ || sum.searching || elapsed_s < kPaceS || sum.done == 0) return;
  estimated_ = true;
  const double all_s = elapsed_s * static_cast<double>(sum.total) / static_cast<double>(sum.done);
  if (all_s <= kLongS) return;
  if (drawn_) std::fprintf(out_, "\r\033[K");
  std::fprintf(out_, "%s: %zu to do; at the pace of the first %s, about %s in all\n", what_.c_str(), sum.total,
               DurationText(elapsed_s).c_str(), DurationText(all_s).c_str());
  std::fflush(out_);
  drawn_ = false;
}

void ProgressBar::DrawBar(const ProgressCounts& sum, double elapsed_s) {
  constexpr int kWidth = 28;
  const double fraction = std::min(1.0, static_cast<double>(sum.done) / static_cast<double>(sum.total));
  std::string bar(static_cast<std::size_t>(fraction * kWidth), '#');
  bar.resize(kWidth, '.');
  if (sum.searching) bar = "searching";
  std::fprintf(out_, "\r\033[K[%s] %s", bar.c_str(), Counts(sum, elapsed_s).c_str());
  std::fflush(out_);
  drawn_ = true;
}

void ProgressBar::MaybeWriteLine(const ProgressCounts& sum, double elapsed_s) {
  constexpr double kQuietS = 10, kEveryS = 10, kEveryShare = 0.05;
  if (elapsed_s < kQuietS) return;
  const bool time_passed = lines_ == 0 || elapsed_s - last_line_s_ >= kEveryS;
  const bool work_done = static_cast<double>(sum.done - std::min(sum.done, last_line_done_)) >=
                         kEveryShare * static_cast<double>(sum.total);
  if (time_passed || work_done) WriteLine(sum, elapsed_s);
}

void ProgressBar::WriteLine(const ProgressCounts& sum, double elapsed_s) {
  std::fprintf(out_, "%s: %s (%s so far)\n", what_.c_str(), Counts(sum, elapsed_s).c_str(),
               DurationText(elapsed_s).c_str());
  std::fflush(out_);
  ++lines_;
  last_line_s_ = elapsed_s;
  last_line_done_ = sum.done;
}

void ProgressBar::Finish() {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (drawn_) std::fprintf(out_, "\r\033[K");
  const ProgressCounts sum = Sum();
  if (lines_ > 0 && sum.done != last_line_done_)
    WriteLine(sum, std::chrono::duration<double>(now_() - start_).count());
  std::fflush(out_);
  drawn_ = false;
  lines_ = 0;
}

}  // namespace tuner
