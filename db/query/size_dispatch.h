// One kernel tuned at several sizes on one GPU: what each size loses with another size's winner
// (the loss matrix), and the smallest set of configurations that keeps every size within a
// tolerance (5%) of its own best: the dispatch table an application serves its sizes from. Pure
// computation on stored `ok` times, shared by `tuner report` and the application library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db/query/best.h"
#include "db/query/store.h"

namespace tuner::db {

// The `ok` times of one size (RankingMs: a tie's members stand at the tie's time), by candidate
// (params_json), and their standings by the rule
// of db/query/best.h (a tie's chosen member first, then equal times by the lower id): a size's
// winner is its best by that rule; a candidate without a standing stands at its time alone, and
// among equals the first by params_json wins.
struct SizeTimes {
  std::string size_key;
  std::map<std::string, double> time_ms;
  std::map<std::string, Standing> standing = {};
};

// Up to this many sizes the smallest set is searched exactly (breadth-first over the sets of
// sizes covered); beyond, greedily (the configuration covering most uncovered sizes first, at
// most ln(sizes) + 1 times the smallest).
constexpr std::size_t kExactCoverMaxSizes = 16;
constexpr double kDispatchTolerance = 0.05;

struct DispatchTable {
  std::vector<std::string> size_keys;  // the sizes, as given
  std::vector<std::string> winners;    // params_json of each size's fastest
  std::vector<double> best_ms;
  // loss[i][j]: size i's time with size j's winner over its own best, minus 1 (0.12: 12% slower);
  // empty when size j's winner was not measured at size i.
  std::vector<std::vector<std::optional<double>>> loss;
  std::vector<std::string> configs;  // the smallest set, params_json, by how many sizes use each
  std::vector<std::size_t> entry;    // per size: its configuration in `configs` (its fastest there)
  std::vector<double> entry_ms;      // per size: that configuration's time there
  bool exact = true;                 // false: the set was found greedily
  double tolerance = kDispatchTolerance;

  // The entry of a size key; nullopt when that size is not in the table.
  std::optional<std::size_t> IndexOf(const std::string& size_key) const;
  std::string Method() const;  // "exact" or "greedy set cover"
};

// The `ok` times of `rows` (one GPU card, one template version), one entry per size, smallest first.
std::vector<SizeTimes> TimesBySize(const std::vector<MeasurementRow>& rows);

// Every size needs at least one `ok` time (sizes without are left out by the callers). A size's
// own winner always covers it, so a table always exists.
DispatchTable BuildDispatchTable(const std::vector<SizeTimes>& sizes, double tolerance = kDispatchTolerance);

}  // namespace tuner::db
