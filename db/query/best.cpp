#include "db/query/best.h"

#include <cmath>
#include <limits>

namespace tuner::db {

bool CanWin(const Standing& s) { return s.value && std::isfinite(*s.value); }

namespace {

// A tie's members before a result of no tie at the same time.
int TiePlace(const Standing& s) { return s.tie_rank > 0 ? s.tie_rank : std::numeric_limits<int>::max(); }

}  // namespace

bool RanksBefore(const Standing& a, const Standing& b) {
  if (CanWin(a) != CanWin(b)) return CanWin(a);
  if (!CanWin(a)) return false;  // neither can win: no order between them
  if (*a.value != *b.value) return *a.value < *b.value;
  if (a.time_ms != b.time_ms) return a.time_ms < b.time_ms;
  if (TiePlace(a) != TiePlace(b)) return TiePlace(a) < TiePlace(b);
  return a.id < b.id;
}

double RankingMs(const MeasurementRecord& record) { return record.tie_ms > 0 ? record.tie_ms : record.time_ms_median; }

Standing TimeStanding(const MeasurementRecord& record) {
  Standing s;
  if (IsOk(record.status)) s.value = RankingMs(record);
  s.time_ms = RankingMs(record);
  s.tie_rank = record.tie_rank;
  s.id = record.id;
  return s;
}

bool FasterRecord(const MeasurementRecord& a, const MeasurementRecord& b) {
  return RanksBefore(TimeStanding(a), TimeStanding(b));
}

}  // namespace tuner::db
