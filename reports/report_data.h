// What a report shows: the stored measurements of each kernel, grouped into runs (one GPU model's
// sweep, db/model_sweep.h: the results of its cards as one; one problem size, one template version),
// each with its best candidate and its device ceiling.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "db/query/store.h"
#include "reports/ceiling.h"
#include "reports/report_format.h"

namespace tuner::report {

struct ReportRequest {
  std::vector<std::string> kernels;           // empty: every template in the database
  std::string device;                         // part of the GPU name, case-insensitive; empty: every GPU
  std::vector<std::string> size_keys;         // complete size keys ("8192x8192"); empty: every size
  bool include_stale = false;                 // also results of older versions of the templates
  std::map<std::string, ValueLabels> labels;  // by kernel: value names from the templates at hand
  // Results of different timing modes are never shown together: of each GPU, size and template
  // version, the rows of this mode, or ("") of the mode it was most recently tuned in.
  std::string timing_mode;
  // Cards whose results are a run of their own, never one with their model's other cards (published
  // results imported as a card); null: none.
  std::function<bool(const db::GpuRecord&)> apart;
};

// One GPU model's sweep (the cards that measured it), one problem size, one template version: what
// the per-candidate charts show.
struct Run {
  db::GpuRecord gpu;  // the card's, or the model's (no UUID) when several cards measured parts of it
  std::string size_key;
  std::string template_hash;
  bool stale = false;
  std::vector<db::MeasurementRow> rows;       // every candidate: ok ones fastest first, then the others
  std::optional<std::size_t> best;            // index in rows of the fastest ok candidate
  Ceiling ceiling;                            // for the best candidate's unit
  std::shared_ptr<const ValueLabels> labels;  // the kernel's, may be null
  std::vector<std::string> cards;             // the UUIDs of the cards that measured it
  // The other cards' results of candidates in rows (db::ModelSweep::set_aside): only the CSV, which
  // lists every measurement, shows them.
  std::vector<db::MeasurementRow> set_aside;

  std::size_t CountOk() const;
  std::string Cards() const;       // "GPU-…" or "2 cards: GPU-…, GPU-…"
  std::string ShortCards() const;  // "GPU-1234abcd" or "2 cards": in chart legends and file names
  const db::MeasurementRow* Best() const { return best ? &rows[*best] : nullptr; }
  std::string Label() const;  // "H100 · 8192x8192"
  // A candidate's parameters and one parameter's value, with the template's value names.
  std::string Params(const db::MeasurementRecord& m) const { return ParamsText(m.params_json, labels.get()); }
  std::string Value(const db::MeasurementRecord& m, const std::string& name) const {
    return ParamValue(m.params_json, name, labels.get());
  }
};

// A sweep that contributed rows: for the provenance table.
struct SweepInfo {
  db::GpuRecord gpu;
  db::SweepRecord sweep;
  std::string template_hash;
  std::size_t rows = 0;
};

struct KernelReport {
  std::string kernel;
  std::vector<Run> runs;                      // by GPU name, cards, then size (smallest first)
  std::vector<std::string> parameter_names;   // in the template's order
  std::shared_ptr<const ValueLabels> labels;  // value names from the template, may be null
  std::vector<SweepInfo> sweeps;              // by start time
  std::size_t stale_rows_left_out = 0;

  std::size_t CountRows() const;
};

struct ReportData {
  std::string database_path;
  std::string generated_at;  // ISO 8601 UTC
  std::string tool_version;
  ReportRequest request;
  std::vector<KernelReport> kernels;

  std::size_t CountRows() const;
};

// Reads the store. Throws UsageError naming the stored templates when a requested kernel has no
// results at all; kernels whose rows the device and size filters leave out are kept, empty.
ReportData SelectReportData(db::Store& store, const ReportRequest& request);

// Groups one kernel's rows (as ListMeasurements returns them) into runs and sweeps; `apart` as
// ReportRequest's.
KernelReport GroupKernel(const std::string& kernel, const std::vector<db::MeasurementRow>& rows,
                         const ValueLabels& labels = {},
                         const std::function<bool(const db::GpuRecord&)>& apart = nullptr);

// Numeric order of size keys ("1024x1024" before "8192x8192"); malformed keys last, by text.
bool SizeKeyLess(const std::string& a, const std::string& b);

}  // namespace tuner::report
