// Times building a template's search space (bench/bench_space.sh): the valid candidates as tune
// and explore build them, their count alone, and optionally the enumeration tuner used before,
// which parsed every constraint for every combination. Prints one JSON object.
// Usage: space_benchmark --templates DIR --kernel NAME [--size WxH] [--baseline] [--shards N]
//        [--synthetic PARAMS CONSTRAINTS]: first write DIR/NAME.toml, the small test template with
//        PARAMS parameters A, B, ... of the values 1, 2, 4, ..., 512 and CONSTRAINTS (a TOML list's
//        items, e.g. '"A * B <= 1024", "C <= A"'). --shards N: the sizes of the N shares of
//        --shard K/N and the seconds one node takes to find its own.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

#include "odometer_enumeration.h"
#include "sweep/shard.h"
#include "template/problem_size.h"
#include "template/search_space.h"
#include "template/template_library.h"
#include "template_fixtures.h"

namespace {

template <typename Work>
double Seconds(Work&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void WriteSynthetic(const std::string& dir, const std::string& name, int params, const std::string& constraints) {
  std::string declared;
  for (int p = 0; p < params; ++p)
    declared += "[[param]]\nname = \"" + std::string(1, static_cast<char>('A' + p)) +
                "\"\nvalues = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]\n";
  using tuner::testing::Replaced;
  std::string description = Replaced(tuner::testing::kSmallDescription, "name = \"small\"\nkernel = \"k\"\n",
                                     "name = \"" + name + "\"\nkernel = \"k\"\nconstraints = [" + constraints + "]\n");
  description = Replaced(description, "[launch]", declared + "[launch]");
  tuner::testing::WriteTemplateFiles(dir, name, description);
}

double PeakResidentMiB() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

}  // namespace

int main(int argc, char** argv) {
  std::string templates, kernel, size_text, constraints;
  int synthetic_params = 0;
  std::size_t shards = 0;
  bool baseline = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--baseline")
      baseline = true;
    else if (i + 1 < argc && arg == "--templates")
      templates = argv[++i];
    else if (i + 1 < argc && arg == "--kernel")
      kernel = argv[++i];
    else if (i + 1 < argc && arg == "--size")
      size_text = argv[++i];
    else if (i + 1 < argc && arg == "--shards")
      shards = std::strtoul(argv[++i], nullptr, 10);
    else if (i + 2 < argc && arg == "--synthetic") {
      synthetic_params = std::atoi(argv[++i]);
      constraints = argv[++i];
    } else {
      std::cerr << "space_benchmark: unknown argument '" << arg << "'\n";
      return 2;
    }
  }
  using namespace tuner;
  try {
    if (synthetic_params > 0) WriteSynthetic(templates, kernel, synthetic_params, constraints);
    const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({templates}));
    const TemplateSpec& spec = library.Find(kernel);
    const ProblemSize size = ParseProblemSize(spec, size_text);
    std::size_t counted = 0;
    std::vector<ParamValues> built;
    nlohmann::ordered_json result = {
        {"kernel", kernel}, {"size", size.Key()}, {"combinations", CountCombinations(spec)}};
    result["count_s"] = Seconds([&] { counted = CountCandidates(spec, size); });
    result["build_s"] = Seconds([&] { built = EnumerateCandidates(spec, size); });
    result["valid"] = built.size();
    result["counted"] = counted;
    result["peak_rss_mib"] = PeakResidentMiB();
    if (baseline) {
      std::vector<ParamValues> old;
      result["baseline_s"] = Seconds([&] { old = testing::ParsingOdometerEnumeration(spec, size); });
      result["baseline_same"] = old == built;
    }
    if (shards > 0) {
      result["shard_sizes"] = nlohmann::json::array();
      for (std::size_t k = 1; k <= shards; ++k) {
        std::vector<bool> owned;
        const double seconds = Seconds([&] { owned = ShardMembers(built, {k, shards}); });
        if (k == 1) result["shard_s"] = seconds;
        result["shard_sizes"].push_back(std::count(owned.begin(), owned.end(), true));
      }
    }
    std::cout << result.dump() << "\n";
  } catch (const std::exception& e) {
    std::cerr << "space_benchmark: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
