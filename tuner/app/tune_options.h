// The options of `tuner tune`, defined and read in one place: each is parsed once, into a typed
// field, and checked (alone and against the others) before any file, GPU or database is touched.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/cli.h"
#include "sweep/sweep.h"
#include "template/problem_size.h"
#include "template/template_spec.h"

namespace tuner {

struct TuneOptions {
  std::string kernel;
  std::vector<std::string> template_folders;  // --templates
  std::string db_path;                        // --db, else $TUNER_DB, else the default file
  bool json = false;
  std::string size_text;                 // --size; "" for the template's defaults
  std::optional<std::string> sizes;      // --sizes: a list of sizes, or "captured"
  int gpu = 0;                           // --gpu
  std::optional<std::vector<int>> gpus;  // --gpus: the indices; empty for all
  std::optional<TimingMode> timing;      // --timing; none: the template's mode (template/timing_choice.h)
  bool revalidate = false;               // --revalidate: the stored leaders measured again (sweep/revalidate.h)
  SweepOptions sweep;                    // the rest: how each sweep runs
};

// --launches-per-sample at most: a graph of this many nodes still instantiates in well under a second.
inline constexpr int kMostLaunchesPerSample = 65536;

// Adds every option of `tune` and its KERNEL argument.
void AddTuneOptions(po::options_description& options, po::positional_options_description& positional);

// Throws UsageError naming the option for a bad value or two options that do not go together.
TuneOptions ReadTuneOptions(const po::variables_map& vm, int argc, char** argv);

// --gpus checked for form: "all" gives an empty list, otherwise the indices. Throws UsageError naming --gpus.
std::vector<int> ParseGpuList(const std::string& text);

// The sizes to tune: --sizes (a list, or every size the template has data for), else --size (or
// the template's defaults). Throws UsageError for a size the template does not take.
std::vector<ProblemSize> SizesToTune(const TemplateSpec& templ, const TuneOptions& options);

}  // namespace tuner
