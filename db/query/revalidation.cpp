#include "db/query/revalidation.h"

#include <algorithm>
#include <cstdio>

#include "db/query/best.h"
#include "db/query/tie_rule.h"

namespace tuner::db {

namespace {

std::string Format(const char* format, double a, double b, double c, double d) {
  char text[160];
  std::snprintf(text, sizeof text, format, a, b, c, d);
  return text;
}

}  // namespace

std::string ToString(Verdict verdict) {
  switch (verdict) {
    case Verdict::kHeld:
      return "held";
    case Verdict::kRegressed:
      return "regressed";
    case Verdict::kFailed:
      return "failed";
  }
  return "";
}

std::string LeaderVerdict::Text() const {
  if (verdict == Verdict::kFailed)
    return std::string("failed: ") + ToText(after.status) + (after.reason.empty() ? "" : " (" + after.reason + ")");
  const double was = before.time_ms_median, now = after.time_ms_median;
  return ToString(verdict) + Format(": %.4f -> %.4f ms (%+.1f%%, noise %.1f%%)", was, now,
                                    was > 0 ? 100 * (now / was - 1) : 0,
                                    was > 0 ? 100 * NoiseMs(before, after) / was : 0);
}

LeaderVerdict Judge(const MeasurementRecord& before, const MeasurementRecord& after) {
  LeaderVerdict v{before, after, Verdict::kHeld};
  if (!IsOk(after.status))
    v.verdict = Verdict::kFailed;
  else if (after.time_ms_median - before.time_ms_median > NoiseMs(before, after))
    v.verdict = Verdict::kRegressed;
  return v;
}

bool SizeVerdict::NeedsRetune() const {
  const auto leader = [&](const std::string& params_json) -> const LeaderVerdict* {
    const auto found = std::find_if(leaders.begin(), leaders.end(),
                                    [&](const LeaderVerdict& v) { return v.before.params_json == params_json; });
    return found == leaders.end() ? nullptr : &*found;
  };
  const LeaderVerdict* stored = leader(winner_before);
  if (!stored || stored->verdict != Verdict::kHeld) return true;
  if (winner_after == winner_before) return false;
  const LeaderVerdict* fastest = leader(winner_after);
  if (!fastest) return true;
  // Another leader measured faster: within the two measurements' noise they tie and the stored
  // choice stands; beyond it the winner changed.
  return stored->after.time_ms_median - fastest->after.time_ms_median > NoiseMs(stored->after, fastest->after);
}

SizeVerdict JudgeLeaders(const std::vector<MeasurementRecord>& before, const std::vector<MeasurementRecord>& after) {
  SizeVerdict size;
  if (!before.empty()) size.winner_before = before.front().params_json;
  for (const MeasurementRecord& stored : before) {
    const auto again = std::find_if(after.begin(), after.end(),
                                    [&](const MeasurementRecord& r) { return r.params_json == stored.params_json; });
    if (again != after.end()) size.leaders.push_back(Judge(stored, *again));
  }
  const auto best = std::min_element(after.begin(), after.end(), FasterRecord);
  size.winner_after = best != after.end() && IsOk(best->status) ? best->params_json : "";
  return size;
}

}  // namespace tuner::db
