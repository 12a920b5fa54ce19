#include "db/query/size_dispatch.h"

#include <algorithm>
#include <bitset>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "base/number_text.h"
#include "db/query/best.h"
#include "db/query/selection.h"

namespace tuner::db {

namespace {

using Mask = std::uint32_t;

// Beyond this many steps (sets of sizes times coverings) the exact search gives way to the greedy one.
constexpr double kMaxExactSteps = 5e7;

// A set of sizes one or more configurations keep within the tolerance, with the configuration
// that does it at the lowest total time relative to each size's best.
struct Covering {
  Mask mask = 0;
  std::string config;
  double relative = 0;  // sum over the covered sizes of time / best
};

int Count(Mask mask) { return static_cast<int>(std::bitset<32>(mask).count()); }

// How many sizes `config` is the winner of: among coverings of equal cost, the one that is more
// sizes' own best (a tie's chosen member, db/query/tie_rule.h) is kept.
long Wins(const std::vector<std::string>& winners, const std::string& config) {
  return std::count(winners.begin(), winners.end(), config);
}

std::vector<Covering> Coverings(const std::vector<SizeTimes>& sizes, const std::vector<double>& best,
                                const std::vector<std::string>& winners, double tolerance) {
  std::map<std::string, Covering> by_config;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    for (const auto& [config, ms] : sizes[i].time_ms)
      if (ms <= best[i] * (1 + tolerance)) {
        Covering& c = by_config[config];
        c.config = config;
        c.mask |= Mask{1} << i;
        c.relative += ms / best[i];
      }
  std::map<Mask, Covering> by_mask;  // one configuration per set of sizes: the cheapest
  for (auto& [config, c] : by_config) {
    auto [it, fresh] = by_mask.emplace(c.mask, c);
    if (!fresh && (c.relative < it->second.relative ||
                   (c.relative == it->second.relative && Wins(winners, c.config) > Wins(winners, it->second.config))))
      it->second = c;
  }
  std::vector<Covering> kept;  // a set inside another never makes a smaller cover
  for (const auto& [mask, c] : by_mask) {
    bool inside = false;
    for (const auto& [other, unused] : by_mask) inside |= other != mask && (other & mask) == mask;
    if (!inside) kept.push_back(c);
  }
  std::sort(kept.begin(), kept.end(), [&](const Covering& a, const Covering& b) {
    if (Count(a.mask) != Count(b.mask)) return Count(a.mask) > Count(b.mask);
    if (a.relative / Count(a.mask) != b.relative / Count(b.mask))
      return a.relative / Count(a.mask) < b.relative / Count(b.mask);
    if (Wins(winners, a.config) != Wins(winners, b.config)) return Wins(winners, a.config) > Wins(winners, b.config);
    return a.config < b.config;
  });
  return kept;
}

// The fewest coverings whose union is every size: breadth first over the sets of sizes reached.
std::vector<std::size_t> ExactCover(const std::vector<Covering>& coverings, std::size_t n) {
  const Mask all = n == 32 ? ~Mask{0} : (Mask{1} << n) - 1;
  std::vector<int> via(std::size_t{1} << n, -1);
  std::vector<Mask> from(std::size_t{1} << n, 0);
  std::vector<Mask> frontier = {0};
  via[0] = -2;
  while (via[all] == -1 && !frontier.empty()) {
    std::vector<Mask> next;
    for (const Mask reached : frontier)
      for (std::size_t k = 0; k < coverings.size(); ++k) {
        const Mask to = reached | coverings[k].mask;
        if (via[to] != -1) continue;
        via[to] = static_cast<int>(k);
        from[to] = reached;
        next.push_back(to);
      }
    frontier = std::move(next);
  }
  std::vector<std::size_t> chosen;
  for (Mask at = all; at != 0; at = from[at]) chosen.push_back(static_cast<std::size_t>(via[at]));
  return chosen;
}

std::vector<std::size_t> GreedyCover(const std::vector<Covering>& coverings, std::size_t n) {
  const Mask all = n == 32 ? ~Mask{0} : (Mask{1} << n) - 1;
  std::vector<std::size_t> chosen;
  for (Mask reached = 0; reached != all;) {
    std::size_t pick = 0;
    int most = -1;
    for (std::size_t k = 0; k < coverings.size(); ++k)  // ties: the earlier, which is cheaper
      if (Count(coverings[k].mask & ~reached) > most) {
        most = Count(coverings[k].mask & ~reached);
        pick = k;
      }
    chosen.push_back(pick);
    reached |= coverings[pick].mask;
  }
  return chosen;
}

}  // namespace

std::vector<SizeTimes> TimesBySize(const std::vector<MeasurementRow>& rows) {
  std::map<std::vector<long long>, SizeTimes> by_size;
  for (const MeasurementRow& row : rows) {
    if (!IsOk(row.measurement.status)) continue;
    SizeTimes& times = by_size[ParseSizeKey(row.size_key)];
    times.size_key = row.size_key;
    times.time_ms[row.measurement.params_json] = RankingMs(row.measurement);  // a tie's members: its time
    times.standing[row.measurement.params_json] = TimeStanding(row.measurement);
  }
  std::vector<SizeTimes> sizes;
  for (auto& [key, times] : by_size) sizes.push_back(std::move(times));
  return sizes;
}

std::optional<std::size_t> DispatchTable::IndexOf(const std::string& size_key) const {
  const auto it = std::find(size_keys.begin(), size_keys.end(), size_key);
  if (it == size_keys.end()) return std::nullopt;
  return static_cast<std::size_t>(it - size_keys.begin());
}

std::string DispatchTable::Method() const { return exact ? "exact" : "greedy set cover"; }

DispatchTable BuildDispatchTable(const std::vector<SizeTimes>& sizes, double tolerance) {
  DispatchTable table;
  table.tolerance = tolerance;
  if (sizes.size() > 32) throw std::invalid_argument("a dispatch table covers at most 32 sizes");
  for (const SizeTimes& s : sizes) {
    if (s.time_ms.empty()) throw std::invalid_argument("size " + s.size_key + " has no ok time");
    const auto standing = [&](const std::pair<const std::string, double>& entry) {
      const auto known = s.standing.find(entry.first);
      return known == s.standing.end() ? Standing{entry.second, entry.second} : known->second;
    };
    const auto best = std::min_element(s.time_ms.begin(), s.time_ms.end(), [&](const auto& a, const auto& b) {
      return RanksBefore(standing(a), standing(b));
    });
    table.size_keys.push_back(s.size_key);
    table.winners.push_back(best->first);
    table.best_ms.push_back(best->second);
  }
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    table.loss.emplace_back();
    for (const std::string& winner : table.winners) {
      const auto it = sizes[i].time_ms.find(winner);
      table.loss[i].push_back(it == sizes[i].time_ms.end() ? std::nullopt
                                                           : std::optional<double>(it->second / table.best_ms[i] - 1));
    }
  }
  const std::vector<Covering> coverings = Coverings(sizes, table.best_ms, table.winners, tolerance);
  table.exact =
      sizes.size() <= kExactCoverMaxSizes &&
      static_cast<double>(std::size_t{1} << sizes.size()) * static_cast<double>(coverings.size()) <= kMaxExactSteps;
  const std::vector<std::size_t> chosen =
      table.exact ? ExactCover(coverings, sizes.size()) : GreedyCover(coverings, sizes.size());
  // Each size takes the fastest chosen configuration there; configurations no size takes are dropped.
  std::vector<std::string> used;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    std::string pick;
    double pick_ms = std::numeric_limits<double>::infinity();
    for (const std::size_t k : chosen) {
      const auto it = sizes[i].time_ms.find(coverings[k].config);
      if (it != sizes[i].time_ms.end() &&
          (it->second < pick_ms || (it->second == pick_ms && it->first == table.winners[i]))) {
        pick = it->first;
        pick_ms = it->second;
      }
    }
    used.push_back(pick);
    table.entry_ms.push_back(pick_ms);
  }
  for (const std::string& config : used)
    if (std::find(table.configs.begin(), table.configs.end(), config) == table.configs.end())
      table.configs.push_back(config);
  std::stable_sort(table.configs.begin(), table.configs.end(), [&](const std::string& a, const std::string& b) {
    return std::count(used.begin(), used.end(), a) > std::count(used.begin(), used.end(), b);
  });
  for (const std::string& config : used)
    table.entry.push_back(static_cast<std::size_t>(std::find(table.configs.begin(), table.configs.end(), config) -
                                                   table.configs.begin()));
  return table;
}

}  // namespace tuner::db
