// Options several commands share, each defined once: a function that adds it to a command's options
// (its name, value and wording) and one that reads it. A reader checks the value's form and throws
// UsageError naming the option and the value, before any GPU, file or database is touched.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "app/cli.h"
#include "base/timing_mode.h"
#include "db/objective.h"

namespace tuner {

// KERNEL: the template a command works on, required, the next positional argument.
void AddKernelArgument(po::options_description& options, po::positional_options_description& positional,
                       const char* help = "the template (see 'tuner kernels')");
std::string KernelArgument(const po::variables_map& vm);

// FORMAT of `tuner import` and `tuner export`: the next positional argument. The reader refuses any
// other than `format`: "'t5' is not a format tuner exports (t4)" (`verb` "exports").
void AddFormatArgument(po::options_description& options, po::positional_options_description& positional,
                       const char* help);
void RequireFormat(const po::variables_map& vm, const char* format, const char* verb);

void AddTemplatesOption(po::options_description& options);              // --templates DIR (repeatable)
std::vector<std::string> TemplateFolders(const po::variables_map& vm);  // the --templates values

void AddDatabaseOption(po::options_description& options);  // --db PATH
std::string DatabasePath(const po::variables_map& vm);     // --db, else $TUNER_DB, else the default file

void AddJsonOption(po::options_description& options);  // --json
bool JsonOutput(const po::variables_map& vm);          // whether --json was given

void AddSizeOption(po::options_description& options, const char* help);  // --size WxH
std::string SizeOption(const po::variables_map& vm);                     // --size, "" when left out; not "" when given

void AddGpuOption(po::options_description& options, const char* help);  // --gpu N
std::optional<int> GpuOption(const po::variables_map& vm);              // --gpu, a GPU index (0 or more)

// --device NAME: stored GPU models whose name contains NAME. `note` (may be empty) is added to the
// help, e.g. "needed when several models have results".
void AddDeviceOption(po::options_description& options, const std::string& note = "");
std::string DeviceFilter(const po::variables_map& vm);  // "" when left out: every model

// --output/-o FILE: a file to write, "-" for stdout; `default_path` (may be null) applies when it is
// left out. The reader refuses a folder, or a file in a folder that does not exist; nullopt when
// left out without a default.
void AddOutputFileOption(po::options_description& options, const char* help, const char* default_path = nullptr);
std::optional<std::string> OutputFile(const po::variables_map& vm);

// --objective time|energy|edp (default time). `note` (may be empty) is added to the help.
void AddObjectiveOption(po::options_description& options, const std::string& note);
db::Objective ObjectiveOption(const po::variables_map& vm);

// --timing isolated|back_to_back|graph (base/timing_mode.h), no default: `help` says what leaving it
// out means. A value that names no mode is a UsageError listing the modes.
void AddTimingOption(po::options_description& options, const char* help);
std::optional<TimingMode> TimingOption(const po::variables_map& vm);

// --budget N: at most N evaluations (default 0: no limit).
void AddBudgetOption(po::options_description& options, const char* help);
std::size_t BudgetOption(const po::variables_map& vm);

// --seed S, 0 to 2^64-1.
void AddSeedOption(po::options_description& options, const char* default_seed, const char* help);
unsigned long long SeedOption(const po::variables_map& vm);

}  // namespace tuner
