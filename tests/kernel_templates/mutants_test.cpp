// Every mutant of mutants.h without a GPU: its edits match the shipped source exactly once, it
// reaches at least one candidate at its size (within the template's sample, if it has one), and it
// compiles there with NVRTC to code that differs from the shipped kernel's (a mutation that changes
// nothing would be counted as killed for nothing).
#include "mutants.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "compile/compiler.h"
#include "db_test_util.h"
#include "expression/expression.h"
#include "template/arch_specific.h"
#include "template/search_space.h"
#include "template/template_library.h"

namespace tuner::testing {
namespace {

const TemplateLibrary& Shipped() {
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  return library;
}

bool Holds(const std::string& expression, const ProblemSize& size, const ParamValues& params) {
  return expression.empty() || Evaluate(expression, MakeVariables(size, params)) != 0;
}

// Every candidate of a shipped template at a size, enumerated once per process (gemm_large's space
// takes seconds).
const std::vector<ParamValues>& Candidates(const TemplateSpec& spec, const std::string& size) {
  static std::map<std::pair<std::string, std::string>, std::vector<ParamValues>> known;
  const auto key = std::make_pair(spec.name, size);
  if (!known.count(key)) known[key] = EnumerateCandidates(spec, ParseProblemSize(spec, size));
  return known[key];
}

// The candidates of the template's sample (all of them without one) at `size`.
std::vector<ParamValues> Sampled(const TemplateSpec& spec, const std::string& sample, const std::string& size) {
  const ProblemSize sizes = ParseProblemSize(spec, size);
  std::vector<ParamValues> sampled;
  for (const ParamValues& params : Candidates(spec, size))
    if (Holds(sample, sizes, params)) sampled.push_back(params);
  return sampled;
}

// The first sampled candidate at the mutant's size that its bug reaches; empty params when none.
ParamValues FirstAffected(const TemplateSpec& spec, const std::string& sample, const Mutant& mutant) {
  const ProblemSize size = ParseProblemSize(spec, mutant.size);
  for (const ParamValues& params : Sampled(spec, sample, mutant.size))
    if (Holds(mutant.affects, size, params)) return params;
  return {};
}

class ShippedMutants : public ::testing::TestWithParam<TemplateMutants> {};

TEST_P(ShippedMutants, ApplyOnceReachACandidateAndCompileToDifferentCode) {
  const TemplateSpec& spec = Shipped().Find(GetParam().name);
  for (const Mutant& mutant : GetParam().mutants) {
    TemplateSpec mutated = spec;
    ASSERT_NO_THROW(mutated.source_text = Mutate(spec.source_text, mutant)) << mutant.bug;
    const ParamValues params = FirstAffected(spec, GetParam().sample, mutant);
    ASSERT_FALSE(params.empty()) << mutant.bug << ": reaches no candidate at " << mutant.size;
    // sm_90a for the candidates that need it (wgmma)
    const std::string arch =
        ArchOfCandidate(spec, MakeVariables(ParseProblemSize(spec, mutant.size), params), "sm_90").arch;
    const CompileResult original = CompileCandidate(spec, params, spec.kernel, arch);
    const CompileResult broken = CompileCandidate(mutated, params, spec.kernel, arch);
    ASSERT_TRUE(original.ok) << original.log;
    EXPECT_TRUE(broken.ok) << mutant.bug << ":\n" << broken.log;
    EXPECT_NE(broken.cubin, original.cubin) << mutant.bug << " changes nothing in " << ParamsJson(params);
  }
}

// What the GPU test hands to `tuner tune --templates`: a template of the mutant's name whose
// source is the mutated one and whose candidates are the shipped template's.
TEST(Mutants, AWrittenMutantLoadsAsATemplateOfItsOwn) {
  db::testing::TempDir dir;
  for (const TemplateMutants& t : AllMutants()) {
    const TemplateSpec& spec = Shipped().Find(t.name);
    const Mutant& mutant = t.mutants.front();
    WriteMutant(spec, mutant, t.name + "_mutant0", dir.File(t.name), t.sample);
    const TemplateLibrary library = LoadTemplateLibrary({dir.File(t.name)});
    ASSERT_TRUE(library.errors.empty()) << library.errors[0];
    const TemplateSpec& loaded = library.Find(t.name + "_mutant0");
    EXPECT_EQ(loaded.source_text, Mutate(spec.source_text, mutant)) << t.name;
    EXPECT_EQ(loaded.options, spec.options) << t.name;
    const ProblemSize size = ParseProblemSize(spec, mutant.size);
    EXPECT_EQ(EnumerateCandidates(loaded, size), Sampled(spec, t.sample, mutant.size)) << t.name;
  }
}

// A sample keeps every value of every parameter at every mutant's size, and is far smaller.
TEST(Mutants, ASampleHoldsEveryValueOfEveryParameter) {
  for (const TemplateMutants& t : AllMutants()) {
    if (t.sample.empty()) continue;
    const TemplateSpec& spec = Shipped().Find(t.name);
    std::set<std::string> sizes;
    for (const Mutant& mutant : t.mutants) sizes.insert(mutant.size);
    for (const std::string& size : sizes) {
      const std::vector<ParamValues> sampled = Sampled(spec, t.sample, size);
      EXPECT_LE(sampled.size() * 20, Candidates(spec, size).size()) << t.name << " at " << size;
      for (std::size_t p = 0; p < spec.params.size(); ++p)
        for (const long long value : spec.params[p].values) {
          const bool held =
              std::any_of(sampled.begin(), sampled.end(), [&](const ParamValues& c) { return c[p].second == value; });
          EXPECT_TRUE(held) << t.name << " at " << size << ": no " << spec.params[p].name << "=" << value;
        }
    }
  }
}

TEST(Mutants, EveryShippedTemplateHasAtLeastFour) {
  int shipped = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TUNER_SHIPPED_TEMPLATES_DIR)) {
    if (entry.path().extension() != ".toml") continue;
    const std::string name = LoadTemplateFile(entry.path().string()).name;
    const auto it =
        std::find_if(AllMutants().begin(), AllMutants().end(), [&](const auto& t) { return t.name == name; });
    ASSERT_NE(it, AllMutants().end()) << name << " has no mutants";
    EXPECT_GE(it->mutants.size(), 4u) << name;
    ++shipped;
  }
  EXPECT_EQ(shipped, static_cast<int>(AllMutants().size()));
}

TEST(Mutants, AnEditThatDoesNotMatchExactlyOnceIsAnError) {
  const Mutant twice{"twice", {{"a", "b"}}, "1", "1"};
  EXPECT_THROW(Mutate("a a", twice), std::runtime_error);
  EXPECT_THROW(Mutate("c", twice), std::runtime_error);
  EXPECT_EQ(Mutate("xay", twice), "xby");
}

INSTANTIATE_TEST_SUITE_P(AllShipped, ShippedMutants, ::testing::ValuesIn(AllMutants()),
                         [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace tuner::testing
