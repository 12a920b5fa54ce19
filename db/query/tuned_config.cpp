#include "db/query/tuned_config.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>

#include "base/default_paths.h"
#include "db/query/imported_gpu.h"
#include "db/query/selection.h"
#include "db/query/size_dispatch.h"
#include "db/query/store.h"
#include "db/query/toolchain.h"

namespace tuner {

namespace {

db::GpuRecord ToRecord(const GpuIdentity& gpu) { return {gpu, "", "", 0}; }

void ReadDims(const nlohmann::json& launch, const char* key, unsigned (&dims)[3]) {
  const auto found = launch.find(key);
  if (found == launch.end() || !found->is_array()) return;
  for (std::size_t i = 0; i < 3 && i < found->size(); ++i) dims[i] = (*found)[i].get<unsigned>();
}

// Parameters and launch geometry from their stored JSON; left empty if malformed.
void ReadJson(const db::MeasurementRecord& m, TunedConfig* config) {
  try {
    const nlohmann::ordered_json params = nlohmann::ordered_json::parse(m.params_json);  // outlives items()
    for (const auto& [name, value] : params.items()) config->params.emplace_back(name, value.get<long long>());
    if (m.launch_json.empty()) return;
    const nlohmann::json launch = nlohmann::json::parse(m.launch_json);
    ReadDims(launch, "grid", config->grid);
    ReadDims(launch, "block", config->block);
    config->shared_bytes = launch.value("shared_bytes", std::size_t{0});
  } catch (const nlohmann::json::exception& e) {
    config->note += std::string(" (stored parameters unreadable: ") + e.what() + ")";
  }
}

// What a row gives every lookup that selects it: parsed once, when the kernel is first looked up.
TunedConfig FromRow(const db::MeasurementRow& row) {
  TunedConfig config;
  const db::MeasurementRecord& m = row.measurement;
  ReadJson(m, &config);
  config.time_ms = m.time_ms_median;
  config.perf_value = m.perf_value;
  config.perf_unit = m.perf_unit;
  config.size_key = row.size_key;
  config.gpu_name = row.gpu.name;
  config.gpu_uuid = row.gpu.uuid;
  config.template_hash = row.templ.hash;
  config.measured_at = m.measured_at;
  config.timing_mode = m.timing_mode;
  config.toolchain = m.toolchain;
  return config;
}

// The rows of one kernel, ready for repeated lookups. A row's parameters and launch geometry are
// parsed when a lookup first selects it: parsing all of them would cost the first lookup ~1 ms.
class KernelConfigs {
 public:
  explicit KernelConfigs(std::vector<db::MeasurementRow> rows)
      : best_(std::move(rows)), configs_(best_.rows().size()) {}
  const db::BestRows& best() const { return best_; }

  TunedConfig Config(std::size_t index) const {
    std::lock_guard<std::mutex> lock(mutex_);
    std::optional<TunedConfig>& config = configs_[index];
    if (!config) config = FromRow(best_.rows()[index]);
    return *config;
  }

 private:
  db::BestRows best_;
  mutable std::mutex mutex_;  // guards configs_
  mutable std::vector<std::optional<TunedConfig>> configs_;
};

TunedConfig ToConfig(const KernelConfigs& kernel, const db::Selection& s, const db::LookupTarget& target) {
  TunedConfig config = s.status == db::LookupStatus::kNotFound ? TunedConfig() : kernel.Config(s.index);
  config.status = static_cast<TunedStatus>(s.status);
  config.fallback = static_cast<TunedFallback>(s.fallback);
  config.note = s.Describe(target) + config.note;
  return config;
}

// Orders selections: found before stale before nothing, then the nearer fallback, size, time, id.
bool Better(const db::Selection& a, const db::Selection& b) {
  if (a.status != b.status) return a.status < b.status;
  if (a.fallback != b.fallback) return a.fallback < b.fallback;
  if (a.size_distance != b.size_distance) return a.size_distance < b.size_distance;
  return db::Faster(a.row, b.row);
}

// Whether a model named `gpu_name` among `models` is an imported one, for the note of a lookup that left it out.
bool ImportedModelNamed(const std::vector<db::GpuRecord>& models, const std::string& gpu_name) {
  const std::vector<db::GpuRecord> named = db::ModelsNamed(models, gpu_name);
  return std::any_of(named.begin(), named.end(), [](const db::GpuRecord& m) { return db::IsImportedModel(m); });
}

}  // namespace

static_assert(static_cast<int>(TunedStatus::kNotFound) == static_cast<int>(db::LookupStatus::kNotFound));
static_assert(static_cast<int>(TunedFallback::kSameArchitecture) == static_cast<int>(db::Fallback::kSameArchitecture));

const char* ToString(TunedStatus status) { return db::ToString(static_cast<db::LookupStatus>(status)); }
const char* ToString(TunedFallback fallback) { return db::ToString(static_cast<db::Fallback>(fallback)); }

long long TunedConfig::Param(const std::string& name, long long default_value) const {
  for (const auto& [key, value] : params)
    if (key == name) return value;
  return default_value;
}

bool TunedConfig::FromOtherToolchain(const std::string& current) const {
  return !db::ToolchainChanges(db::ParseToolchain(toolchain), db::ParseToolchain(current)).empty();
}

// One GPU card's current `ok` rows of a kernel and their dispatch table.
struct CardDispatch {
  std::vector<db::MeasurementRow> rows;
  db::DispatchTable table;
};

struct TunedConfigs::Impl {
  db::Store store;
  std::mutex mutex;  // guards the connection and the caches
  std::map<std::string, std::shared_ptr<const KernelConfigs>> cache;
  std::map<std::pair<std::string, std::string>, std::shared_ptr<const CardDispatch>> dispatch;  // by kernel, GPU uuid

  std::shared_ptr<const CardDispatch> Dispatch(const std::string& kernel, const std::string& uuid) {
    std::lock_guard<std::mutex> lock(mutex);
    auto& card = dispatch[{kernel, uuid}];
    if (card) return card;
    auto built = std::make_shared<CardDispatch>();
    for (db::MeasurementRow& row : store.ListMeasurements({kernel, "", "", CandidateStatus::kOk, true}))
      if (row.gpu.uuid == uuid) built->rows.push_back(std::move(row));
    built->table = db::BuildDispatchTable(db::TimesBySize(built->rows));
    card = built;
    return card;
  }

  std::shared_ptr<const KernelConfigs> Kernel(const std::string& kernel) {
    std::lock_guard<std::mutex> lock(mutex);
    auto& configs = cache[kernel];
    if (!configs) configs = std::make_shared<const KernelConfigs>(store.BestForLookup(kernel));
    return configs;
  }
};

TunedConfigs::TunedConfigs(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TunedConfigs::~TunedConfigs() = default;
TunedConfigs::TunedConfigs(TunedConfigs&&) noexcept = default;
TunedConfigs& TunedConfigs::operator=(TunedConfigs&&) noexcept = default;

TunedConfigs TunedConfigs::Open(const std::string& path) {
  // No quick_check: it reads every page (30 ms for 30,000 measurements); SQLite notices a corrupt
  // page when a lookup reads it.
  db::Store store =
      db::Store::Open(ResolveDatabasePath(path), db::OpenMode::kReadOnly, db::IntegrityCheck::kHeaderAndVersion);
  store.PrepareBestForLookup();
  return TunedConfigs(std::unique_ptr<Impl>(new Impl{std::move(store), {}, {}, {}}));
}

const std::string& TunedConfigs::path() const { return impl_->store.path(); }

TunedConfig TunedConfigs::Lookup(const std::string& kernel, const GpuIdentity& gpu,
                                 const std::vector<long long>& sizes) const {
  const auto configs = impl_->Kernel(kernel);
  const db::LookupTarget target{ToRecord(gpu), sizes};
  TunedConfig config = ToConfig(*configs, configs->best().Select(target), target);
  if (configs->best().rows().empty()) config.note = "no result of '" + kernel + "' is stored in " + path();
  return config;
}

TunedConfig TunedConfigs::Dispatch(const std::string& kernel, const GpuIdentity& gpu,
                                   const std::vector<long long>& sizes) const {
  const TunedConfig best = Lookup(kernel, gpu, sizes);
  if (!best) return best;
  const auto card = impl_->Dispatch(kernel, best.gpu_uuid);
  const db::DispatchTable& table = card->table;
  const auto size = table.IndexOf(best.size_key);
  if (!size) return best;  // not reached: the size Lookup chose has ok rows of this card
  const std::string& config = table.configs[table.entry[*size]];
  const auto row = std::find_if(card->rows.begin(), card->rows.end(), [&](const db::MeasurementRow& r) {
    return r.size_key == best.size_key && r.measurement.params_json == config;
  });
  TunedConfig entry = FromRow(*row);
  entry.status = best.status;
  entry.fallback = best.fallback;
  char loss[32];
  std::snprintf(loss, sizeof loss, "%.1f%%", 100 * (table.entry_ms[*size] / table.best_ms[*size] - 1));
  entry.note = best.note + "; dispatch table entry " + std::to_string(table.entry[*size] + 1) + " of " +
               std::to_string(table.configs.size()) + " for " + std::to_string(table.size_keys.size()) +
               " tuned sizes (" + table.Method() + "), " + loss + " slower than this size's own best";
  return entry;
}

TunedConfig TunedConfigs::Lookup(const std::string& kernel, const std::string& gpu_name,
                                 const std::vector<long long>& sizes, Imported imported) const {
  const auto configs = impl_->Kernel(kernel);
  db::Selection best;
  db::LookupTarget best_target{{}, sizes};
  for (const db::GpuRecord& model : db::ModelsNamed(configs->best().models(), gpu_name)) {
    if (imported == Imported::kExclude && db::IsImportedModel(model)) continue;
    const db::LookupTarget target{model, sizes};
    db::Selection selection = configs->best().Select(target);
    if (Better(selection, best)) {
      best = std::move(selection);
      best_target = target;
    }
  }
  TunedConfig config = ToConfig(*configs, best, best_target);
  if (best.status == db::LookupStatus::kNotFound)
    config.note = "no result of '" + kernel + "' for a GPU whose name contains '" + gpu_name + "' in " + path() +
                  (ImportedModelNamed(configs->best().models(), gpu_name)
                       ? " measured here (imported results are used only with Imported::kInclude)"
                       : "");
  return config;
}

}  // namespace tuner
