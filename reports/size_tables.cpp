#include "reports/size_tables.h"

#include <algorithm>

#include "db/query/gpu_model.h"
#include "reports/report_format.h"

namespace tuner::report {

namespace {

std::string Loss(double fraction) { return fraction <= 0 ? "0%" : "+" + FormatPercent(fraction); }

std::size_t DistinctWinners(const db::DispatchTable& t) {
  std::vector<std::string> distinct = t.winners;
  std::sort(distinct.begin(), distinct.end());
  return static_cast<std::size_t>(std::unique(distinct.begin(), distinct.end()) - distinct.begin());
}

}  // namespace

std::vector<SizeDispatch> SizeDispatches(const KernelReport& kernel) {
  std::vector<SizeDispatch> cards;
  std::vector<std::vector<db::MeasurementRow>> rows;  // parallel to cards
  for (const Run& run : kernel.runs) {
    if (run.stale || !run.Best()) continue;
    const auto card =
        std::find_if(cards.begin(), cards.end(), [&](const SizeDispatch& c) { return db::SameModel(c.gpu, run.gpu); });
    const std::size_t index = static_cast<std::size_t>(card - cards.begin());
    if (index == cards.size()) {
      cards.push_back({run.gpu, {}});
      rows.emplace_back();
    }
    auto& card_rows = rows[index];
    card_rows.insert(card_rows.end(), run.rows.begin(), run.rows.end());
  }
  std::vector<SizeDispatch> several;
  for (std::size_t i = 0; i < cards.size(); ++i) {
    const std::vector<db::SizeTimes> times = db::TimesBySize(rows[i]);
    if (times.size() >= 2) several.push_back({cards[i].gpu, db::BuildDispatchTable(times)});
  }
  return several;
}

std::string SizesHeading(const SizeDispatch& sizes) {
  return ShortGpuName(sizes.gpu.name) + " \u00b7 " + std::to_string(sizes.table.size_keys.size()) + " sizes";
}

std::string DispatchSummary(const SizeDispatch& sizes) {
  const db::DispatchTable& t = sizes.table;
  const std::size_t n = t.configs.size();
  return std::to_string(n) + (n == 1 ? " configuration keeps" : " configurations keep") + " all " +
         std::to_string(t.size_keys.size()) + " sizes within " + FormatPercent(t.tolerance) + " of their own best (" +
         (t.exact ? "exact smallest set" : "greedy set cover: at most ln(sizes) + 1 times the smallest") +
         "), where the sizes' own winners are " + std::to_string(DistinctWinners(t)) +
         ". Applications get each size's entry from TunedConfigs::Dispatch (db/README.md).";
}

Table LossMatrixTable(const SizeDispatch& sizes) {
  const db::DispatchTable& t = sizes.table;
  Table table{{"Size / winner of"}, {}, {false}, {}};
  for (const std::string& key : t.size_keys) {
    table.header.push_back(key);
    table.numeric.push_back(true);
  }
  for (std::size_t i = 0; i < t.size_keys.size(); ++i) {
    std::vector<std::string> row = {t.size_keys[i]};
    for (std::size_t j = 0; j < t.size_keys.size(); ++j)
      row.push_back(i == j ? "best" : t.loss[i][j] ? Loss(*t.loss[i][j]) : "not measured");
    table.rows.push_back(row);
  }
  return table;
}

Table DispatchTableTable(const KernelReport& kernel, const SizeDispatch& sizes) {
  const db::DispatchTable& t = sizes.table;
  Table table{{"Size", "Entry", "Parameters", "Time (median)", "Own best", "Loss"},
              {},
              {false, true, false, true, true, true},
              {}};
  for (std::size_t i = 0; i < t.size_keys.size(); ++i) {
    table.rows.push_back({t.size_keys[i], std::to_string(t.entry[i] + 1),
                          ParamsText(t.configs[t.entry[i]], kernel.labels.get()), FormatMs(t.entry_ms[i]),
                          FormatMs(t.best_ms[i]), Loss(t.entry_ms[i] / t.best_ms[i] - 1)});
    table.row_status.push_back("ok");
  }
  return table;
}

}  // namespace tuner::report
