// `tuner tune KERNEL --revalidate`: the stored leaders of each size of a template's current version
// on one card, measured again on the current toolchain and GPU and judged (db/query/revalidation.h):
// what holds is kept, regressions beyond the noise are flagged, a leader that no longer passes is
// stored with its failure (so nothing serves it), and a size whose winner changed, regressed or
// failed is tuned again. Each stored result is measured again in its own timing mode (base/
// timing_mode.h): the leaders of every (size, mode) are judged apart, as every ranking keeps modes
// apart. The measuring is behind Remeasurer, so that tests can feed it.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "base/timing_mode.h"
#include "cuda/device.h"
#include "db/query/revalidation.h"
#include "db/query/store.h"
#include "sweep/leaders.h"
#include "sweep/sweep.h"
#include "sweep/sweep_target.h"

namespace tuner {

class Remeasurer {
 public:
  virtual ~Remeasurer() = default;
  // Measures the target's candidates (the stored leaders of one size and mode) again, timed in
  // `timing`, stores them as a sweep would, and returns their new records.
  virtual std::vector<db::MeasurementRecord> Leaders(const SweepTarget& leaders, TimingMode timing) = 0;
  // Tunes the target (every candidate of the size) again from scratch in `timing`, storing the results.
  virtual void Retune(const SweepTarget& target, TimingMode timing) = 0;
  // Whether the command was stopped (Ctrl-C): the sizes not yet judged are left as they are.
  virtual bool Stopped() const { return false; }
};

// Remeasurer by sweeps on `gpu`: leaders timed in turns and a re-tune, both with --force.
class SweepRemeasurer : public Remeasurer {
 public:
  SweepRemeasurer(const GpuInfo& gpu, const SweepOptions& options, db::Store& store);
  std::vector<db::MeasurementRecord> Leaders(const SweepTarget& leaders, TimingMode timing) override;
  void Retune(const SweepTarget& target, TimingMode timing) override;
  bool Stopped() const override;

 private:
  const GpuInfo& gpu_;
  SweepOptions options_;
  db::Store& store_;
};

struct SizeRevalidation {
  std::string size_key;
  TimingMode timing = TimingMode::kIsolated;  // the mode its results were timed in, and measured again in
  db::SizeVerdict verdict;
  bool retuned = false;
  std::string best_after;  // params_json of the size's best in that mode now ("" when none passes)
};

// Every stored size and timing mode of `spec`'s version on the card `gpu_uuid` (of the mode `only`
// when given: tune --revalidate --timing): its `count` best ok results measured again in that mode,
// judged, the verdicts stored with them (the revalidation column) and the size tuned again in that
// mode where needed. Throws std::runtime_error when nothing of it is stored for the card.
std::vector<SizeRevalidation> Revalidate(const TemplateSpec& spec, const std::string& gpu_uuid, db::Store& store,
                                         Remeasurer& remeasurer, std::optional<TimingMode> only = std::nullopt,
                                         std::size_t count = kLeaders);

void PrintRevalidation(const std::vector<SizeRevalidation>& sizes, std::ostream& out);
// {"sizes": [{"size", "timing_mode", "leaders": [{"params", "verdict", "before_ms", "after_ms", "status", "text"}],
// "winner_before", "winner_after", "retuned", "best_after"}]}, parameters as objects.
nlohmann::ordered_json RevalidationJson(const std::vector<SizeRevalidation>& sizes);

}  // namespace tuner
