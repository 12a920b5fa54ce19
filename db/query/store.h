// The results store: GPUs, template versions, sweeps and one row per measured candidate in an SQLite
// file. Writes are committed at once, each in its own BEGIN IMMEDIATE transaction, so a killed sweep
// loses nothing it reported. Threads may share one Store (its calls are serialised); never carry one across fork().
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db/query/records.h"
#include "db/query/schema.h"

namespace tuner::db {

enum class OpenMode { kReadWrite, kReadOnly };

// A measurement joined with its GPU, template version and sweep: what reports, export and merge read.
struct MeasurementRow {
  std::int64_t sweep_id = 0;
  GpuRecord gpu;
  TemplateRecord templ;
  bool stale = false;  // an older version of the template than the current one
  SweepRecord sweep;
  std::string size_key;
  MeasurementRecord measurement;
};

// Empty fields match everything. gpu_name matches a substring, case-insensitively.
struct MeasurementFilter {
  std::string template_name;
  std::string gpu_name;
  std::string size_key;
  std::optional<CandidateStatus> status;
  bool current_only = false;  // leave out stale template versions
};

// Counts for `tuner db info`.
struct CountRow {
  std::string gpu_name;
  std::string gpu_uuid;
  std::string template_name;
  CandidateStatus status = CandidateStatus::kOk;
  std::int64_t count = 0;
};

class Store {
 public:
  // kReadWrite creates the file and its parent folders if needed; kReadOnly needs an existing file
  // and never writes it (db/query/schema.h, OpenForReading); `check` applies to kReadOnly. Throws
  // BadDatabaseError (corrupt, foreign, newer: the file is not modified), UsageError (a directory,
  // or kReadWrite of a file this user cannot write) or std::runtime_error (missing file, I/O).
  static Store Open(const std::string& path, OpenMode mode, IntegrityCheck check = IntegrityCheck::kQuick);
  // Throws what Open(path, kReadWrite) would for a file that is there, and writes nothing.
  static void CheckWritable(const std::string& path);
  ~Store();
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& path() const;

  std::int64_t EnsureGpu(const GpuRecord& gpu);              // by uuid; updates name and versions
  std::int64_t EnsureTemplate(const TemplateRecord& templ);  // by (name, hash)
  // sweep.uid is generated when empty; sweep.size_key is the size every measurement belongs to.
  std::int64_t StartSweep(std::int64_t gpu_id, std::int64_t template_id, const SweepRecord& sweep);
  void FinishSweep(std::int64_t sweep_id, const std::string& status);
  // The device-to-device copy bandwidth the sweep measured: the ceiling of memory-bound kernels.
  void SetCopyBandwidth(std::int64_t sweep_id, double copy_gbps);
  // Clears the tie stored among the measurements of the sweep's GPU, template version and size timed
  // in `timing_mode` (db/query/tie_rule.h): a sweep that measures them again decides its own; the
  // ties of the other modes stand.
  void ClearTie(std::int64_t sweep_id, const std::string& timing_mode);
  // The outcome of revalidating the measurement (db/query/revalidation.h), kept with it.
  void SetRevalidation(std::int64_t measurement_id, const std::string& outcome);
  // Committed at once. One row per (gpu, template version, size_key, params_json): a new measurement
  // of the same candidate replaces the old one.
  void AddMeasurement(std::int64_t sweep_id, const MeasurementRecord& measurement);
  // Every candidate already stored for this GPU, template version and size (to resume a sweep).
  std::vector<MeasurementRecord> Measurements(std::int64_t gpu_id, std::int64_t template_id,
                                              const std::string& size_key);
  // The same over every GPU of this GPU's model (name, compute capability, SMs, memory): what the
  // cards of one model, sharing its candidates, have measured between them.
  std::vector<MeasurementRecord> ModelMeasurements(std::int64_t gpu_id, std::int64_t template_id,
                                                   const std::string& size_key);

  // The hash of the newest stored version of a template ("" if none): the current one when the
  // template file itself is not at hand.
  std::string LatestTemplateHash(const std::string& template_name);
  std::vector<std::string> TemplateNames();
  // Joined rows for reports, export and merge, ordered by template, GPU, size and time.
  std::vector<MeasurementRow> ListMeasurements(const MeasurementFilter& filter);
  // The best `ok` row per (GPU uuid, template version, size) of one template; `stale` is set for
  // versions other than current_hash (current_hash "" means LatestTemplateHash). The input of
  // SelectBest (db/query/selection.h).
  // Of one timing mode (db/query/timing_filter.h): `timing_mode`, or "" for each group's most recently
  // tuned one.
  std::vector<MeasurementRow> BestPerGpu(const std::string& template_name, const std::string& current_hash,
                                         const std::string& timing_mode = "");
  // The same reduced over the cards of a model: the best `ok` row per (GPU model = name, compute
  // capability, SMs, memory; template version; size). What reports show as "best per GPU".
  std::vector<MeasurementRow> BestPerModel(const std::string& template_name, const std::string& current_hash,
                                           const std::string& timing_mode = "");
  // What the application library reads: the rows of BestPerGpu(template_name, ""), in another
  // order, from the copy that best_per_gpu keeps (a few contiguous pages per template): the GPU,
  // the template version, the size and the measurement's params_json, launch_json, time_ms_median,
  // perf_value, perf_unit, measured_at and toolchain; the sweep and the other measurement columns are
  // empty. Of one timing mode, as BestPerGpu.
  std::vector<MeasurementRow> BestForLookup(const std::string& template_name, const std::string& timing_mode = "");
  // Prepares BestForLookup's statements now (preparing the first statement loads the schema), so
  // that the first lookup of each kernel only runs them.
  void PrepareBestForLookup();

  // Adds rows read from another database or an export, in one transaction: GPUs by uuid, templates
  // by (name, hash), sweeps by uid; a measurement replaces a stored one of the same candidate only
  // if it was measured later. Importing the same rows twice changes nothing. Returns rows changed.
  std::int64_t Import(const std::vector<MeasurementRow>& rows);

  std::vector<CountRow> Counts();
  std::vector<std::string> FullCheck();  // PRAGMA integrity_check + foreign keys; empty when fine
  // The schema version of the file; below kSchemaVersion when it is read through a copy upgraded in
  // memory (read-only opens never migrate the file).
  int SchemaVersion() const;
  // A writer's file back in rollback-journal mode now, if no other connection has it open (see
  // db::LeaveWalMode; a writing Store also tries when it closes). Returns whether it is.
  bool LeaveWalMode();

 private:
  struct Impl;
  explicit Store(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace tuner::db
