// On a GPU (skipped without one): every mutant of mutants.h, tuned at a small size through the real
// `tuner tune`, must be wrong_result (or fault) for every candidate its bug reaches and never best.
// The shipped template is tuned at the same size first: the candidates a mutant reaches must pass
// there (or the mutant proves nothing), and for a mutant that is not a race the candidates it does
// not reach must end as they did there. A template with a sample (mutants.h) is tuned, shipped and
// mutated alike, only where the sample's constraint holds. Prints the kill rate per template
// ("mutation kill rate: transpose 5/5").
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "db_test_util.h"
#include "gpu_test_support.h"
#include "mutants.h"
#include "expression/expression.h"
#include "template/search_space.h"
#include "template/template_library.h"

namespace tuner::testing {
namespace {

using db::testing::TempDir;

const TemplateLibrary& Shipped() {
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  return library;
}

// params JSON -> status of every candidate of one `tune --json`; fails the test when tune does not
// give a document (exit 1 is "no candidate passed", which a mutant may well cause).
std::map<std::string, std::string> Tune(const std::string& name, const std::string& size, const TempDir& dir,
                                        const std::string& templates, nlohmann::json* best) {
  const std::string folders = templates.empty() ? "" : " --templates " + templates;
  const CliResult r = RunTuner("tune " + name + " --size " + size + " --json --db " + dir.File("t.db") + folders,
                               "XDG_CACHE_HOME=" + dir.File("cache"));
  std::map<std::string, std::string> statuses;
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << name << " exited " << r.exit_code << ": " << r.err;
  if (r.exit_code != 0 && r.exit_code != 1) return statuses;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  if (!doc.contains("candidates")) {  // an error ended the sweep: its document says which
    ADD_FAILURE() << name << " exited " << r.exit_code << " with no candidates: " << doc.dump() << "\n" << r.err;
    return statuses;
  }
  for (const auto& c : doc.at("candidates")) statuses[c.at("params").dump()] = c.at("status");
  *best = doc.at("best");
  return statuses;
}

// The shipped template at `size`, or its sample written as a template of its own when it has one.
std::map<std::string, std::string> TuneShipped(const TemplateSpec& spec, const std::string& sample,
                                               const std::string& size, const TempDir& dir) {
  nlohmann::json best;
  if (sample.empty()) return Tune(spec.name, size, dir, "", &best);
  const std::string name = spec.name + "_sample";
  WriteMutant(spec, Mutant{"none", {}, size, "0"}, name, dir.File(name), sample);
  return Tune(name, size, dir, dir.File(name), &best);
}

bool Affected(const Mutant& mutant, const ProblemSize& size, const std::string& params_json) {
  return Evaluate(mutant.affects, MakeVariables(size, ParamsFromJson(params_json))) != 0;
}

class MutationGpu : public ::testing::TestWithParam<TemplateMutants> {};

TEST_P(MutationGpu, EveryMutantIsWrongWhereItReachesAndNeverBest) {
  TUNER_GPU_TEST(1);
  const TemplateSpec& spec = Shipped().Find(GetParam().name);
  TempDir dir;
  std::map<std::string, std::map<std::string, std::string>> baseline;  // size -> params -> status
  std::size_t killed = 0;
  for (std::size_t i = 0; i < GetParam().mutants.size(); ++i) {
    const Mutant& mutant = GetParam().mutants[i];
    const ProblemSize size = ParseProblemSize(spec, mutant.size);
    nlohmann::json best;
    if (!baseline.count(mutant.size)) baseline[mutant.size] = TuneShipped(spec, GetParam().sample, mutant.size, dir);
    const std::string name = spec.name + "_mutant" + std::to_string(i);
    const std::string folder = dir.File(name);
    WriteMutant(spec, mutant, name, folder, GetParam().sample);
    const auto statuses = Tune(name, mutant.size, dir, folder, &best);
    std::size_t reached = 0, caught = 0;
    for (const auto& [params, status] : statuses) {
      const std::string before = baseline[mutant.size][params];
      if (Affected(mutant, size, params)) {
        ++reached;
        EXPECT_EQ(before, "ok") << mutant.bug << ": " << params << " must pass unmutated";
        const bool wrong = status == "wrong_result" || status == "fault";
        caught += wrong;
        EXPECT_TRUE(wrong) << mutant.bug << ": " << params << " is " << status;
      } else if (!mutant.race) {
        EXPECT_EQ(status, before) << mutant.bug << ": " << params << " is out of its reach";
      }
    }
    EXPECT_GT(reached, 0u) << mutant.bug << " reaches no candidate at " << mutant.size;
    if (!best.is_null()) {
      EXPECT_FALSE(Affected(mutant, size, best.at("params").dump())) << mutant.bug << " is best: " << best.dump();
    }
    const bool dead =
        reached > 0 && caught == reached && (best.is_null() || !Affected(mutant, size, best.at("params").dump()));
    killed += dead;
    std::cout << (dead ? "killed   " : "SURVIVED ") << spec.name << ": " << mutant.bug << " (" << caught << "/"
              << reached << " candidates caught)\n";
  }
  std::cout << "mutation kill rate: " << spec.name << " " << killed << "/" << GetParam().mutants.size() << "\n";
  EXPECT_EQ(killed, GetParam().mutants.size());
}

INSTANTIATE_TEST_SUITE_P(AllShipped, MutationGpu, ::testing::ValuesIn(AllMutants()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace tuner::testing
