// What `tuner tune` shows of its sweeps: each sweep's candidates, its best and its leaders as text,
// or its document of `tune --json` (a contract scripts read: its keys stay as they are); over the
// sweeps of several GPUs, the best of each model; over the sweeps of several sizes, one line per size.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "db/objective.h"
#include "sweep/sweep.h"
#include "template/template_spec.h"

namespace tuner {

// One sweep's table of candidates, its best (by `objective`, else the fastest) and its leaders.
void PrintSummary(const TemplateSpec& spec, const SweepOutcome& out, db::Objective objective, std::ostream& os);

// One sweep's document of `tune --json`.
nlohmann::json OutcomeJson(const TemplateSpec& spec, const SweepOutcome& out, db::Objective objective);

// One sweep, as text or as its JSON document (`json`). Returns whether a candidate passed the check.
bool ReportSweep(const TemplateSpec& spec, const SweepOutcome& out, bool json, db::Objective objective,
                 std::ostream& os);

// The sweeps of several GPUs (`--gpus`), then the best of each model over its GPUs' shares; as text,
// or as one JSON document. Returns whether every model has a best.
bool ReportSweeps(const TemplateSpec& spec, const std::vector<SweepOutcome>& outcomes, bool json,
                  db::Objective objective, std::ostream& os);

// The sweeps of several sizes (`--sizes`) of `templ`, then one line per size; as text, or as one JSON
// document. Returns whether every size has a best.
bool ReportSizes(const TemplateSpec& templ, const std::vector<SweepOutcome>& outcomes, bool json,
                 db::Objective objective, std::ostream& os);

}  // namespace tuner
