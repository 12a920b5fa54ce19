// What "best" means, one rule for every ranking of results: `tuner tune`'s winner and table, the
// leaders of a sweep, `tuner query`, the reports, the dispatch table of sizes, the application
// library (`tuned_config`) and the SQL that keeps best_per_gpu. The objective (db/objective:
// --objective time|energy|edp) chooses the value; the rule is the same for all:
//   1. only a result with the objective's value can win: an `ok` one, with energy measured for the
//      energy objectives; a missing or non-finite value never wins;
//   2. the lower value wins;
//   3. on equal values, the shorter time;
//   4. on equal times, a tie's members by their place in it (tie_rank 1, 2, ...), before results of
//      no tie;
//   5. then the earlier stored measurement: the lower measurement id. Records not read from the
//      store (id 0, a sweep's own this run) stand equal here: the earlier in the list wins.
// A result's time is its median, or, for a member of a tie that its sweep reported (db/query/
// tie_rule.h: leaders within their noise), the tie's time (tie_ms, its fastest member's median): the
// members rank together, in the order the tie rule gave them, and the chosen one wins.
// So the same database always gives the same answer, whatever order its rows were read in.
#pragma once

#include <cstdint>
#include <optional>

#include "db/query/records.h"

namespace tuner::db {

// One result as the rule sees it.
struct Standing {
  std::optional<double> value;  // the objective's value (lower is better); none: it cannot win
  double time_ms = 0;           // RankingMs: the median, or the time of the tie it is a member of
  std::int64_t id = 0;          // the measurement's (MeasurementRecord::id)
  int tie_rank = 0;             // its place in that tie (1: chosen), 0: in none
};

// The time a record ranks at: its tie's (tie_ms) when it is a member of one, else its median.
double RankingMs(const MeasurementRecord& record);

// Whether it has a finite value: a result that has none never wins.
bool CanWin(const Standing& standing);
// Whether `a` wins over `b` by the rule above (false for equal standings).
bool RanksBefore(const Standing& a, const Standing& b);

// A record's standing by time (the objective of the query library): its ranking time if it is ok.
Standing TimeStanding(const MeasurementRecord& record);

// Whether record `a` wins over `b` by time: a strict weak order, ok records fastest first (for
// sorts; a stable sort keeps the others in their order).
bool FasterRecord(const MeasurementRecord& a, const MeasurementRecord& b);

// The rule by time as SQL's ORDER BY over measurements, for the statements that pick the row
// themselves (best_per_gpu); with `status = 'ok'` in their WHERE.
inline constexpr const char* kFastestFirstSql =
    "CASE WHEN tie_ms > 0 THEN tie_ms ELSE time_ms_median END, "
    "CASE WHEN tie_rank > 0 THEN tie_rank ELSE 2147483647 END, id";

}  // namespace tuner::db
