// Fail once, not 4,000 times: a sweep whose first candidates all fail to compile with
// the same first error stops with that error and its likely fix, instead of compiling every
// candidate to the same end. A failure that belongs to some configurations (one tile's shared
// memory) does not stop it: the error must also be what candidates that differ in every varying
// kernel parameter get, so the sweep compiles a few such contrasts before it gives up.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "sweep/candidate_record.h"
#include "template/template_spec.h"

namespace tuner {

struct SameCompileErrorStop : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class SameCompileError {
 public:
  // The first `suspicious_after` compiled candidates failing alike make the error suspect.
  explicit SameCompileError(const TemplateSpec& spec, std::size_t suspicious_after = 4);

  // Counts a compiled candidate (one refused before compiling does not count). True when the
  // failures so far are suspect and contrasts should be compiled (once).
  bool Add(const Compiled& compiled);
  // Candidates of `all` that bring values of the varying kernel parameters not failed with yet.
  std::vector<ParamValues> Contrasts(const std::vector<ParamValues>& all);
  // Throws SameCompileErrorStop when every candidate so far failed alike and each varying kernel
  // parameter failed with two values or more.
  void StopIfConfirmed() const;

 private:
  std::size_t Uncovered(const ParamValues& params, const std::map<std::string, std::set<long long>>& seen) const;

  std::string template_name_, source_path_;
  std::size_t suspicious_after_;
  std::vector<std::string> varying_;  // kernel parameters with more than one value
  bool armed_ = true;                 // every candidate so far failed with reason_
  bool contrasted_ = false;
  std::string reason_;
  std::size_t failures_ = 0;
  std::map<std::string, std::set<long long>> failed_values_;
};

}  // namespace tuner
