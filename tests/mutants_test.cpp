// Every mutant of mutants.h without a GPU: its edits match the shipped source exactly once, it
// reaches at least one candidate at its size, and it compiles there with NVRTC to code that differs
// from the shipped kernel's (a mutation that changes nothing would be counted as killed for nothing).
#include "mutants.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "compiler.h"
#include "db_test_util.h"
#include "expression.h"
#include "search_space.h"
#include "template_library.h"

namespace tuner::testing {
namespace {

const TemplateLibrary& Shipped() {
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  return library;
}

// The first candidate at the mutant's size that its bug reaches; empty params when none.
ParamValues FirstAffected(const TemplateSpec& spec, const Mutant& mutant) {
  const ProblemSize size = ParseProblemSize(spec, mutant.size);
  for (const ParamValues& params : EnumerateCandidates(spec, size))
    if (Evaluate(mutant.affects, MakeVariables(size, params)) != 0) return params;
  return {};
}

class ShippedMutants : public ::testing::TestWithParam<TemplateMutants> {};

TEST_P(ShippedMutants, ApplyOnceReachACandidateAndCompileToDifferentCode) {
  const TemplateSpec& spec = Shipped().Find(GetParam().name);
  for (const Mutant& mutant : GetParam().mutants) {
    TemplateSpec mutated = spec;
    ASSERT_NO_THROW(mutated.source_text = Mutate(spec.source_text, mutant)) << mutant.bug;
    const ParamValues params = FirstAffected(spec, mutant);
    ASSERT_FALSE(params.empty()) << mutant.bug << ": reaches no candidate at " << mutant.size;
    const CompileResult original = CompileCandidate(spec, params, spec.kernel, "sm_90");
    const CompileResult broken = CompileCandidate(mutated, params, spec.kernel, "sm_90");
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
    WriteMutant(spec, mutant, t.name + "_mutant0", dir.File(t.name));
    const TemplateLibrary library = LoadTemplateLibrary({dir.File(t.name)});
    ASSERT_TRUE(library.errors.empty()) << library.errors[0];
    const TemplateSpec& loaded = library.Find(t.name + "_mutant0");
    EXPECT_EQ(loaded.source_text, Mutate(spec.source_text, mutant)) << t.name;
    EXPECT_EQ(loaded.options, spec.options) << t.name;
    const ProblemSize size = ParseProblemSize(spec, mutant.size);
    EXPECT_EQ(EnumerateCandidates(loaded, size).size(), EnumerateCandidates(spec, size).size()) << t.name;
  }
}

TEST(Mutants, EveryShippedTemplateHasAtLeastFour) {
  int shipped = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TUNER_SHIPPED_TEMPLATES_DIR)) {
    if (entry.path().extension() != ".toml") continue;
    const std::string name = LoadTemplateFile(entry.path().string()).name;
    const auto it = std::find_if(AllMutants().begin(), AllMutants().end(), [&](const auto& t) { return t.name == name; });
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
