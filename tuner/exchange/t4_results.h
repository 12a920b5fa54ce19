// The autotuning community's T4 results file (schema_version 1.0.0, as Kernel Tuner writes it and
// benchmark_hub publishes it): "results", one entry per evaluated configuration with its
// "configuration", "invalidity" (correct, compile, runtime, timeout, correctness, constraints),
// "measurements" (the objective "time" among them) and "times" (compilation, the runtimes, ... in ms).
#pragma once

#include <string>

#include "exchange/imported_results.h"

namespace tuner {

// The file at `path` (gzipped or not). Throws ImportedFileError naming the line and field of the
// first problem, UsageError when the file cannot be read or is not JSON.
ImportedResults ReadT4Results(const std::string& path);

// The same from the file's text (for tests).
ImportedResults T4ResultsFromText(const std::string& text, const std::string& path);

// T4's invalidity as a status; nullopt for a value the schema does not have.
std::optional<CandidateStatus> StatusOfT4Invalidity(const std::string& invalidity);

}  // namespace tuner
