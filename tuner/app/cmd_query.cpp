// tuner query: the stored best configuration of a kernel for a GPU and a problem size, with the
// fallback used (db/query/selection.h) always named.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/cli.h"
#include "app/command_options.h"
#include "app/commands.h"
#include "app/stored_template.h"
#include "base/errors.h"
#include "base/number_text.h"
#include "common/option_values.h"
#include "cuda/device.h"
#include "db/counters.h"
#include "db/objective.h"
#include "db/query/selection.h"
#include "db/query/store.h"
#include "db/query/timing_filter.h"
#include "db/query/toolchain.h"
#include "db/query/tuned_config.h"
#include "db/row_json.h"
#include "db/query/imported_gpu.h"
#include "reports/report_format.h"
#include "sweep/current_toolchain.h"
#include "template/problem_size.h"
#include "template/template_library.h"

namespace tuner {

namespace {

using nlohmann::ordered_json;

// A card of this machine as the store's rows name one (no versions: the lookup compares the identity).
db::GpuRecord ToRecord(const GpuInfo& gpu) { return {gpu, "", "", 0}; }

// --gpu N: that card, its own results first (read before the database is opened). --device NAME:
// every stored model whose name contains NAME. Neither: GPU 0's model if this machine has one, else
// every stored model. A model's cards share its sweep (tune --gpus, --shard), so a model target
// chooses among the results of all its cards as one sweep.
std::vector<db::GpuRecord> Targets(const po::variables_map& vm, const std::optional<GpuInfo>& gpu,
                                   const std::vector<db::MeasurementRow>& rows, const std::string& kernel) {
  if (gpu) return {ToRecord(*gpu)};
  if (const std::string name = DeviceFilter(vm); !name.empty()) {
    std::vector<db::GpuRecord> models = db::ModelsIn(rows, name);
    if (models.empty()) {
      std::string stored;
      for (const db::GpuRecord& m : db::ModelsIn(rows)) stored += (stored.empty() ? "" : ", ") + m.name;
      throw std::runtime_error("no results of " + Quoted(kernel) + " for a GPU matching " + Quoted(name) +
                               " (stored: " + stored + ")");
    }
    return models;
  }
  const GpuDiscovery discovery = DiscoverGpus();
  if (discovery.gpus.empty()) return db::ModelsIn(rows);
  db::GpuRecord model = ToRecord(discovery.gpus.front());
  model.uuid.clear();  // the model: every card's results
  return {model};
}

// A selection's keys in `query --json` (a contract scripts read), after its template's hash.
const std::vector<db::JsonKey>& QueryJsonKeys() {
  using R = db::MeasurementRecord;
  static const std::vector<db::JsonKey> keys = {{&R::params_json, "/params"},
                                                {&R::launch_json, "/launch"},
                                                {&R::time_ms_median, "/time_ms/median"},
                                                {&R::time_ms_min, "/time_ms/min"},
                                                {&R::time_ms_max, "/time_ms/max"},
                                                {&R::time_ms_spread, "/time_ms/spread"},
                                                {&R::samples, "/time_ms/samples"},
                                                {&R::perf_value, "/perf/value"},
                                                {&R::perf_unit, "/perf/unit"},
                                                {&R::regs_per_thread, "/regs_per_thread"},
                                                {&R::smem_bytes, "/smem_bytes"},
                                                {&R::blocks_per_sm, "/blocks_per_sm"},
                                                {&R::occupancy, "/occupancy"},
                                                {&R::limiter, "/limiter"},
                                                {&R::measured_at, "/measured_at"},
                                                {&R::timing_mode, "/timing_mode"}};
  return keys;
}

// The toolchain it was measured with, and a note when that is not this machine's.
ordered_json ToolchainJson(const db::MeasurementRecord& m, const db::Toolchain& current) {
  const std::string note = db::ToolchainNote(m.toolchain, current);
  return {{"toolchain", m.toolchain},
          {"other_toolchain", !note.empty()},
          {"toolchain_note", note.empty() ? ordered_json() : ordered_json(note)},
          {"revalidation", m.revalidation.empty() ? ordered_json() : ordered_json(m.revalidation)},
          {"tie_rank", m.tie_rank}};
}

ordered_json SelectionJson(const db::Selection& s, const db::LookupTarget& target, const db::Toolchain& current) {
  ordered_json out = {
      {"gpu", db::ToJson(target.gpu)}, {"status", db::ToString(s.status)}, {"note", s.Describe(target)}};
  if (s.status == db::LookupStatus::kNotFound) return out;
  out["fallback"] = db::ToString(s.fallback);
  out["from"] = {{"size", s.row.size_key},
                 {"gpu", db::ToJson(s.row.gpu)},
                 {"size_distance", s.size_distance},
                 {"imported", db::IsImportedGpu(s.row.gpu)}};  // published results, not measured here
  out["template_hash"] = s.row.templ.hash;
  out["stale"] = s.row.stale;
  out.update(db::RecordJson(s.row.measurement, QueryJsonKeys()));
  const nlohmann::json hardware = db::HardwareJson(s.row.measurement);  // kept: items() does not keep its object alive
  for (const auto& [key, value] : hardware.items()) out[key] = value;
  out.update(ToolchainJson(s.row.measurement, current));
  return out;
}

std::string Dims(const ordered_json& dims) {
  if (!dims.is_array()) return "?";
  std::string text;
  for (const auto& d : dims) text += (text.empty() ? "" : "x") + d.dump();
  return text;
}

void PrintSelection(const db::Selection& s, const db::LookupTarget& target, const std::string& kernel,
                    const db::Toolchain& current) {
  // The names come from the database, perhaps from another tool's file: a terminal's escapes in
  // them are shown escaped, as everywhere else.
  std::printf("%s %s on %s\n  %-11s %s\n", kernel.c_str(), SizeKey(target.sizes).c_str(),
              Printable(target.gpu.name).c_str(), db::ToString(s.status), Printable(s.Describe(target)).c_str());
  if (s.status == db::LookupStatus::kNotFound) return;
  const db::MeasurementRecord& m = s.row.measurement;
  if (db::IsImportedGpu(s.row.gpu))
    std::printf("  %-11s published results of %s, not measured here\n", "imported", Printable(s.row.gpu.name).c_str());
  const ordered_json launch = db::ParseStoredJson(m.launch_json);
  std::printf("  %-11s %s\n", "parameters", report::ParamsText(m.params_json).c_str());
  if (launch.is_object())
    std::printf("  %-11s grid %s  block %s  shared %s B\n", "launch",
                Dims(launch.value("grid", ordered_json())).c_str(), Dims(launch.value("block", ordered_json())).c_str(),
                launch.value("shared_bytes", ordered_json(0)).dump().c_str());
  std::printf("  %-11s %.4f ms median (min %.4f, max %.4f, %d samples), timed %s\n", "time", m.time_ms_median,
              m.time_ms_min, m.time_ms_max, m.samples, m.timing_mode.c_str());
  std::printf("  %-11s %.1f %s\n", "throughput", m.perf_value, m.perf_unit.c_str());
  std::printf("  %-11s %d registers/thread, %lld B shared/block, occupancy %.2f (%s)\n", "resources", m.regs_per_thread,
              static_cast<long long>(m.smem_bytes), m.occupancy, m.limiter.c_str());
  std::printf("  %-11s %s%s%s\n", "measured", m.measured_at.c_str(), m.toolchain.empty() ? "" : " with ",
              m.toolchain.c_str());
  if (const std::string note = db::ToolchainNote(m.toolchain, current); !note.empty())
    std::printf("  %-11s %s\n", "note", note.c_str());
  if (m.tie_rank == 1) std::printf("  %-11s chosen by the tie rule among leaders within their noise\n", "tie");
  if (!m.revalidation.empty()) std::printf("  %-11s %s\n", "revalidated", m.revalidation.c_str());
  std::printf("%s", db::HardwareText(m, "  ").c_str());
}

// The best rows by the objective, of one timing mode (`timing`; "": each result's most recently
// tuned one): the store's own for time, else the measurements with energy.
std::vector<db::MeasurementRow> BestRows(db::Store& store, const std::string& kernel, const std::string& current_hash,
                                         db::Objective objective, const std::string& timing) {
  if (objective == db::Objective::kTime) return store.BestPerGpu(kernel, current_hash, timing);
  db::MeasurementFilter filter;
  filter.template_name = kernel;
  filter.status = CandidateStatus::kOk;
  std::vector<db::MeasurementRow> rows = store.ListMeasurements(filter);
  const std::string hash = current_hash.empty() ? store.LatestTemplateHash(kernel) : current_hash;
  for (db::MeasurementRow& row : rows) row.stale = row.templ.hash != hash;
  return db::BestRowsBy(db::OneTimingMode(std::move(rows), timing), objective);
}

// --dispatch: the application library's own TunedConfigs::Dispatch for this GPU, so that a program
// that is not C++ (the wheel's cuda_tuner.best(dispatch=True)) serves the entry a C++ application
// would. Printed as one result of the document `query --json` prints.
int PrintDispatch(const std::string& kernel, const std::vector<long long>& sizes, const GpuInfo& gpu,
                  const std::string& db_path, bool json) {
  const TunedConfigs configs = TunedConfigs::Open(db_path);
  const TunedConfig c = configs.Dispatch(kernel, gpu, sizes);
  ordered_json result = {
      {"gpu", {{"name", gpu.name}, {"uuid", gpu.uuid}}}, {"status", ToString(c.status)}, {"note", c.note}};
  if (c) {
    ordered_json params = ordered_json::object();
    for (const auto& [name, value] : c.params) params[name] = value;
    result.update({{"fallback", ToString(c.fallback)},
                   {"from", {{"size", c.size_key}, {"gpu", {{"name", c.gpu_name}, {"uuid", c.gpu_uuid}}}}},
                   {"template_hash", c.template_hash},
                   {"params", params},
                   {"launch", {{"grid", c.grid}, {"block", c.block}, {"shared_bytes", c.shared_bytes}}},
                   {"time_ms", {{"median", c.time_ms}}},
                   {"timing_mode", c.timing_mode},
                   {"toolchain", c.toolchain}});
  }
  if (json) {
    const ordered_json doc = {{"kernel", kernel},
                              {"size", SizeKey(sizes)},
                              {"database", configs.path()},
                              {"dispatch", true},
                              {"results", ordered_json::array({result})}};
    std::cout << doc.dump(2) << "\n";
  } else {
    std::printf("%s %s on %s\n  %-11s %s\n", kernel.c_str(), SizeKey(sizes).c_str(), Printable(gpu.name).c_str(),
                ToString(c.status), Printable(c.note).c_str());
    if (c) std::printf("  %-11s %s\n", "parameters", result["params"].dump().c_str());
  }
  if (!c) std::cerr << "tuner query: no current result of '" << kernel << "' for this GPU and size\n";
  return c ? kExitOk : kExitFailed;
}

}  // namespace

int RunQuery(int argc, char** argv) {
  const CommandSpec spec{
      "query",
      "tuner query KERNEL [--gpu N | --device NAME] [--size WxH] [--timing MODE | --dispatch] [--db PATH] [--json]",
      "Print the stored best configuration of a kernel for a GPU and a problem size. The cards of one\n"
      "GPU model share its sweep: their results are chosen from as one (--gpu N: that card's first).\n"
      "When the exact size or GPU was not tuned, the nearest tuned size, then another card of the same\n"
      "model, then another model of the same architecture is used, and the output says which. Results of\n"
      "different timing modes are never compared: each GPU and size is served in the mode it was\n"
      "most recently tuned in, or in the mode --timing names.",
      "tuner query transpose --size 8192x8192"};
  po::options_description options("Options");
  po::positional_options_description positional;
  AddKernelArgument(options, positional);
  AddSizeOption(options, "problem size, e.g. 8192x8192; omitted sizes take the template's defaults");
  AddGpuOption(options,
               "this machine's GPU N (see 'tuner devices'), its own results first; default: GPU 0's model, the "
               "results of its cards as one sweep");
  AddDeviceOption(options, "no GPU needed");
  AddObjectiveOption(options, "among the measurements that have it");
  AddTimingOption(options,
                  "only results timed so: isolated, back_to_back or graph (default: each GPU and size in the mode "
                  "it was most recently tuned in)");
  options.add_options()("dispatch",
                        "the dispatch table's entry for this size instead of its own best: of the fewest "
                        "configurations that keep every tuned size of this GPU within 5% of its best, the one "
                        "for this size, as the application library's TunedConfigs::Dispatch serves it");
  AddJsonOption(options);
  AddTemplatesOption(options);
  AddDatabaseOption(options);
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, spec, options, positional, &vm)) return kExitOk;
  RefuseTogether(vm, "gpu", "device");
  RefuseTogether(vm, "dispatch", "device");
  RefuseTogether(vm, "dispatch", "timing");
  if (vm.count("dispatch") && !vm["objective"].defaulted())
    throw UsageError(
        "--dispatch serves the fastest configurations (as the application library does); leave "
        "--objective out");
  const db::Objective objective = ObjectiveOption(vm);
  const std::optional<TimingMode> timing = TimingOption(vm);
  const std::optional<int> gpu_index = GpuOption(vm);
  const std::string size_text = SizeOption(vm);
  const std::string kernel = KernelArgument(vm);
  const auto dirs = TemplateFolders(vm);
  const std::optional<TemplateSpec> templ = FindTemplateIfAny(dirs, kernel);
  // Bad sizes are usage errors before the database is read; a missing template with no --size
  // waits until we know whether anything is stored at all.
  std::vector<long long> sizes;
  if (templ || !size_text.empty()) sizes = ResolveSizes(templ, kernel, size_text);
  if (vm.count("dispatch"))
    return PrintDispatch(kernel, sizes.empty() ? ResolveSizes(templ, kernel, size_text) : sizes,
                         RequireGpu(gpu_index.value_or(0)), DatabasePath(vm), JsonOutput(vm));
  const std::optional<GpuInfo> gpu = gpu_index ? std::optional(RequireGpu(*gpu_index)) : std::nullopt;

  db::Store store = db::Store::Open(DatabasePath(vm), db::OpenMode::kReadOnly);
  const std::vector<db::MeasurementRow> rows =
      BestRows(store, kernel, templ ? templ->hash : "", objective, timing ? ToText(*timing) : "");
  if (rows.empty() && objective != db::Objective::kTime)
    throw std::runtime_error(
        "no result of " + Quoted(kernel) + " with a measured energy is stored in " + store.path() +
        "; tune it on a GPU whose driver reports energy (the winner's energy unless --counters off, "
        "every candidate's with --counters all or --objective " +
        db::ToString(objective) + ")");
  if (rows.empty() && timing)
    throw std::runtime_error("no successful result of " + Quoted(kernel) + " timed " + ToText(*timing) +
                             " is stored in " + store.path() + "; run 'tuner tune " + kernel + " --timing " +
                             ToText(*timing) + "' on a GPU first, or leave --timing out");
  if (rows.empty())
    throw std::runtime_error("no successful result of " + Quoted(kernel) + " is stored in " + store.path() +
                             "; run 'tuner tune " + kernel + "' on a GPU first");
  if (sizes.empty()) sizes = ResolveSizes(templ, kernel, size_text);
  ordered_json doc = {{"kernel", kernel},
                      {"size", SizeKey(sizes)},
                      {"database", store.path()},
                      {"objective", db::ToString(objective)},
                      {"results", ordered_json::array()}};
  bool any_current = false;
  const db::Toolchain current = CurrentToolchain();
  for (const db::GpuRecord& target_gpu : Targets(vm, gpu, rows, kernel)) {
    const db::LookupTarget target{target_gpu, sizes};
    const db::Selection selection = db::SelectBest(rows, target);
    any_current = any_current || selection.status == db::LookupStatus::kFound;
    if (JsonOutput(vm))
      doc["results"].push_back(SelectionJson(selection, target, current));
    else
      PrintSelection(selection, target, kernel, current);
  }
  if (JsonOutput(vm)) std::cout << doc.dump(2) << "\n";
  if (!any_current) std::cerr << "tuner query: no current result of '" << kernel << "' for this GPU and size\n";
  return any_current ? kExitOk : kExitFailed;
}

}  // namespace tuner
