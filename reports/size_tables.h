// A kernel tuned at several sizes on one GPU model (`tuner tune --sizes`): what each size loses
// with each other size's winner, and the dispatch table (the smallest set of configurations that
// keeps every size within 5% of its own best, db/query/size_dispatch.h) that the application library
// serves (TunedConfigs::Dispatch). As plain-text tables for the HTML and Markdown writers.
#pragma once

#include <string>
#include <vector>

#include "db/query/size_dispatch.h"
#include "reports/report_tables.h"

namespace tuner::report {

struct SizeDispatch {
  db::GpuRecord gpu;
  db::DispatchTable table;
};

// Each GPU model with current (not stale) `ok` results at two or more sizes, in the report's order.
std::vector<SizeDispatch> SizeDispatches(const KernelReport& kernel);

// "GPU · 3 sizes": the heading of one model's tables.
std::string SizesHeading(const SizeDispatch& sizes);
// "2 configurations keep all 4 sizes within 5% of their own best (exact smallest set)".
std::string DispatchSummary(const SizeDispatch& sizes);
// Rows: the sizes; columns: each size's winner; cells: the row size's loss with that winner.
Table LossMatrixTable(const SizeDispatch& sizes);
// Per size: its entry of the dispatch table, the entry's time there, its own best and the loss.
Table DispatchTableTable(const KernelReport& kernel, const SizeDispatch& sizes);

}  // namespace tuner::report
