// Published results as a stored sweep: the configurations of a Kernel Tuner cache or a T4 file
// become the rows of one sweep of a template on a named GPU model, stored like any other sweep and
// marked as imported (the GPU's uuid "imported:MODEL", the sweep's strategy "imported"). Such a GPU
// has no compute capability, SM count or memory: the file does not say them, and no GPU of this
// machine is ever taken for it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "db/query/imported_gpu.h"
#include "db/query/records.h"
#include "db/query/store.h"
#include "exchange/imported_results.h"
#include "template/template_spec.h"

namespace tuner {

inline constexpr const char* kImportedStrategy = "imported";

// The template, size and GPU model the results are stored under.
struct ImportTarget {
  std::string template_name;
  std::string template_hash;
  std::string size_key;
  // The template's parameters, in its order: each configuration must set exactly these (string
  // values are the labels of a parameter that has them). Empty: the file's own parameters, whose
  // values must be whole numbers.
  std::vector<ParamSpec> params;
  // The identities (CandidateIdentity) of the template's candidates at this size; each configuration
  // must be one. Empty: not checked (the template is not at hand).
  std::set<std::string> candidates;
  std::string gpu_model;  // "NVIDIA A100-PCIE-40GB"
  std::string command;    // the command line, kept with the sweep
};

// One row per configuration, all of one sweep whose uid is derived from the file's content, the
// template and the GPU model (importing the same file again changes nothing). Throws
// ImportedFileError naming the configuration's line and parameter when it does not fit the target.
std::vector<db::MeasurementRow> ImportedSweepRows(const ImportedResults& results, const ImportTarget& target,
                                                  const std::string& content_hash);

// A hash of the file's space (its parameters and their values) for a template that is not at hand.
std::string ImportedSpaceHash(const ImportedResults& results);

}  // namespace tuner
