// Revalidation: a stored leader measured again on the current toolchain and GPU, judged against
// what was stored. It holds when it still works and is not slower beyond the noise (its median
// then, plus NoiseMs of db/query/tie_rule.h: the interquartile ranges of both together, at least the
// reproducibility floor, the noise that makes a tie); it regressed when it is slower beyond that;
// it failed when it no longer passes (it no longer compiles, launches or gives the right result:
// a status other than ok, which no ranking serves). The outcome is kept with the result (the
// `revalidation` column) as "held ...", "regressed ..." or "failed ...".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "db/query/records.h"

namespace tuner::db {

enum class Verdict { kHeld, kRegressed, kFailed };
std::string ToString(Verdict verdict);  // "held", "regressed", "failed"

struct LeaderVerdict {
  MeasurementRecord before;  // as stored
  MeasurementRecord after;   // measured again
  Verdict verdict = Verdict::kHeld;
  std::string Text() const;  // "held: 1.0000 -> 1.0040 ms (+0.4%, noise 2.0%)", the revalidation column
};

// One leader judged; `after` is its new measurement (of the same candidate).
LeaderVerdict Judge(const MeasurementRecord& before, const MeasurementRecord& after);

// A size's leaders judged, and whether its winner changed.
struct SizeVerdict {
  std::vector<LeaderVerdict> leaders;  // as stored: the winner first
  std::string winner_before;           // params_json of the stored winner
  std::string winner_after;            // the best by the rule of the leaders measured again ("": none passes)
  // Whether the size must be tuned again: the stored winner regressed or failed (another candidate,
  // not among the leaders, may now be faster), or another leader is now faster than it beyond the
  // noise of their new measurements (within it they tie, and the stored choice stands).
  bool NeedsRetune() const;
};

// `before`: the stored leaders, best first; `after`: their new measurements (any order; one with
// no new measurement is not judged).
SizeVerdict JudgeLeaders(const std::vector<MeasurementRecord>& before, const std::vector<MeasurementRecord>& after);

}  // namespace tuner::db
