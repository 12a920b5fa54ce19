#include "db/query/best.h"

#include <cmath>

namespace tuner::db {

bool CanWin(const Standing& s) { return s.value && std::isfinite(*s.value); }

bool RanksBefore(const Standing& a, const Standing& b) {
  if (CanWin(a) != CanWin(b)) return CanWin(a);
  if (!CanWin(a)) return false;  // neither can win: no order between them
  if (*a.value != *b.value) return *a.value < *b.value;
  if (a.time_ms != b.time_ms) return a.time_ms < b.time_ms;
  return a.id < b.id;
}

Standing TimeStanding(const MeasurementRecord& record) {
  Standing s;
  if (IsOk(record.status)) s.value = record.time_ms_median;
  s.time_ms = record.time_ms_median;
  s.id = record.id;
  return s;
}

bool FasterRecord(const MeasurementRecord& a, const MeasurementRecord& b) {
  return RanksBefore(TimeStanding(a), TimeStanding(b));
}

}  // namespace tuner::db
