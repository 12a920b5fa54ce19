#include "db/query/measurement_fields.h"

#include <stdexcept>
#include <type_traits>

#include "db/query/schema.h"

namespace tuner::db {

namespace {

using R = MeasurementRecord;
constexpr FieldContent kJsonText = FieldContent::kJsonText;
constexpr FieldContent kEnergy = FieldContent::kEnergy;

}  // namespace

const std::vector<MeasurementField>& MeasurementFields() {
  static const std::vector<MeasurementField> fields = {
      {"params_json", &R::params_json, 1, kJsonText},
      {"launch_json", &R::launch_json, 1, kJsonText},
      {"status", &R::status},
      {"reason", &R::reason},
      {"time_ms_median", &R::time_ms_median},
      {"time_ms_min", &R::time_ms_min},
      {"time_ms_max", &R::time_ms_max},
      {"time_ms_spread", &R::time_ms_spread, 2},
      {"samples", &R::samples},
      {"perf_value", &R::perf_value},
      {"perf_unit", &R::perf_unit},
      {"regs_per_thread", &R::regs_per_thread},
      {"smem_bytes", &R::smem_bytes},
      {"spill_bytes", &R::spill_bytes, 2},
      {"blocks_per_sm", &R::blocks_per_sm},
      {"occupancy", &R::occupancy},
      {"limiter", &R::limiter},
      {"compile_ms", &R::compile_ms},
      {"error_text", &R::error_text},
      {"measured_at", &R::measured_at},
      {"worker_kills", &R::worker_kills, 4},
      {"counters_json", &R::counters_json, 6, kJsonText},
      {"energy_j", &R::energy_j, 6, kEnergy},
      {"power_w", &R::power_w, 6, kEnergy},
      {"energy_launch_ms", &R::energy_launch_ms, 6, kEnergy},
      {"perf_per_joule", &R::perf_per_joule, 6, kEnergy},
      {"timing_mode", &R::timing_mode, 7},
      {"tie_ms", &R::tie_ms, kTrustSchemaVersion},
      {"tie_rank", &R::tie_rank, kTrustSchemaVersion},
      {"toolchain", &R::toolchain, kTrustSchemaVersion},
      {"revalidation", &R::revalidation, kTrustSchemaVersion},
  };
  return fields;
}

const MeasurementField& FieldOf(const MeasurementField::Member& member) {
  for (const MeasurementField& field : MeasurementFields())
    if (field.member == member) return field;
  throw std::logic_error("a member of MeasurementRecord is missing from MeasurementFields()");
}

const MeasurementField& FieldNamed(const std::string& name) {
  for (const MeasurementField& field : MeasurementFields())
    if (name == field.name) return field;
  throw std::logic_error("MeasurementRecord has no field '" + name + "'");
}

const char* SqlType(const MeasurementField& field) {
  return std::visit(
      [](auto member) {
        using T = std::remove_reference_t<decltype(std::declval<R&>().*member)>;
        if constexpr (std::is_same_v<T, double>) return "REAL";
        if constexpr (std::is_integral_v<T>) return "INTEGER";
        return "TEXT";
      },
      field.member);
}

}  // namespace tuner::db
