// The shipped templates' checks, without a GPU: every template names its own reference kernel
// (never one of its configurations), the reference compiles, and the tolerances are the ones the
// descriptions derive; kernel_templates/README.md's complete example is the shipped transpose.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <nlohmann/json.hpp>

#include "compile/compiler.h"
#include "expression/expression.h"
#include "template/search_space.h"
#include "template/template_library.h"
#include "template/template_values.h"

namespace tuner {
namespace {

const TemplateLibrary& Shipped() {
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  return library;
}

const std::vector<std::string> kShipped = {
    "transpose", "matmul",     "reduction",  "conv1d",  "coalescing",     "coalescing_fp64", "adjacent_difference",
    "histogram", "gemm_large", "divergence", "streams", "unified_memory", "add_scale_bf16",
    "gemm_bf16", "gemm_fp16"};

// The first line of an xz-compressed JSON Lines file.
std::string FirstLineOfXz(const std::string& path) {
  std::FILE* pipe = popen(("xz -dc '" + path + "' 2>/dev/null").c_str(), "r");
  if (!pipe) return "";
  std::string line;
  for (int c; (c = std::fgetc(pipe)) != EOF && c != '\n';) line += static_cast<char>(c);
  pclose(pipe);
  return line;
}

// bench_search.sh --examples replays this stored sweep against the shipped template; a template's
// version is the hash of its whole files, comments included, so any edit of gemm_large (even a
// comment) needs the sweep measured again on a GPU.
TEST(KernelTemplates, TheStoredGemmLargeSweepIsOfTheShippedVersion) {
  const std::string line = FirstLineOfXz(std::string(TUNER_SOURCE_DIR) + "/bench/examples/gemm_large-h100.jsonl.xz");
  ASSERT_FALSE(line.empty()) << "cannot read bench/examples/gemm_large-h100.jsonl.xz with xz";
  const nlohmann::json row = nlohmann::json::parse(line);
  EXPECT_EQ(row.at("template").at("hash").get<std::string>(), Shipped().Find("gemm_large").hash);
}

TEST(KernelTemplates, EveryShippedTemplateChecksAgainstItsOwnReferenceKernel) {
  ASSERT_TRUE(Shipped().errors.empty()) << Shipped().errors[0];
  for (const std::string& name : kShipped) {
    const TemplateSpec& spec = Shipped().Find(name);
    EXPECT_NE(spec.check.kernel, spec.kernel) << name;
    EXPECT_NE(spec.check.kernel.find("_reference"), std::string::npos) << name;
    const CompileResult reference = CompileCandidate(spec, ReferenceParams(spec), spec.check.kernel, "sm_90");
    EXPECT_TRUE(reference.ok) << name << ":\n" << reference.log;
  }
}

// atol at the default sizes, as derived in each description's [check]; rtol is 0 everywhere.
TEST(KernelTemplates, TolerancesAreTheDerivedOnes) {
  const std::map<std::string, double> atol = {{"transpose", 0},
                                              {"coalescing", 0},
                                              {"coalescing_fp64", 0},
                                              {"adjacent_difference", 0},
                                              {"histogram", 0},   // integer counts, exact atomics
                                              {"divergence", 0},  // the reference's float operations, in its order
                                              {"streams", 0},
                                              {"unified_memory", 0},  // the same single-rounding FMAs as the reference
                                              {"reduction", 0},       // exact up to 2^30 values
                                              {"matmul", 4096.0 / (1 << 22)},      // 2^-22 * K
                                              {"gemm_large", 2048.0 / (1 << 22)},  // 2^-22 * K
                                              {"conv1d", 100.0 / (1 << 22)},       // 2^-22 * TAPS
                                              {"gemm_bf16", 0x1p-24 * 8192 * std::sqrt(8192.0)},   // K^1.5 / 2^24
                                              {"gemm_fp16", 0x1p-24 * 8192 * std::sqrt(8192.0)}};
  for (const auto& [name, expected] : atol) {
    const TemplateSpec& spec = Shipped().Find(name);
    const Variables vars = MakeVariables(ParseProblemSize(spec, ""), {});
    EXPECT_DOUBLE_EQ(Evaluate(spec.check.atol, vars), expected) << name;
    EXPECT_EQ(Evaluate(spec.check.rtol, vars), 0.0) << name;
  }
  // Past 2^30 values the reduction allows the rounding of the 33 sums that leave the exact range.
  const TemplateSpec& reduction = Shipped().Find("reduction");
  const double at_2_31 = Evaluate(reduction.check.atol, MakeVariables(ParseProblemSize(reduction, "2147483648"), {}));
  EXPECT_NEAR(at_2_31, 41.2, 0.1);
}

// add_scale_bf16 gives no tolerance: a bfloat16 output's default, 2 epsilon relative, no atol.
TEST(KernelTemplates, TheBfloat16TemplateChecksWithItsTypesDefaultTolerance) {
  const TemplateSpec& spec = Shipped().Find("add_scale_bf16");
  const Variables vars = MakeVariables(ParseProblemSize(spec, ""), {});
  EXPECT_EQ(Evaluate(spec.check.atol, vars), 0.0);
  EXPECT_EQ(Evaluate(spec.check.rtol, vars), 0x1p-6);
  EXPECT_EQ(spec.args[0].type, ScalarType::kBfloat16);
  EXPECT_EQ(spec.args[3].type, ScalarType::kBfloat16);  // alpha, a bfloat16 scalar
  EXPECT_EQ(Evaluate(spec.work.bytes, vars), 6.0 * (1 << 27));
}

// The first ```toml block after `heading` in `markdown`; "" when there is none.
std::string TomlBlockAfter(const std::string& markdown, const std::string& heading) {
  const std::size_t at = markdown.find(heading);
  if (at == std::string::npos) return "";
  const std::string fence = "```toml\n";
  const std::size_t begin = markdown.find(fence, at);
  if (begin == std::string::npos) return "";
  const std::size_t end = markdown.find("```", begin + fence.size());
  return markdown.substr(begin + fence.size(), end - begin - fence.size());
}

// kernel_templates/README.md's complete example is the shipped transpose, beside the same source: a
// reader who copies it tunes what the shipped template tunes (the same parameters, values, labels and
// candidates), not a space the source no longer means.
TEST(KernelTemplates, TheReadmesCompleteExampleIsTheShippedTranspose) {
  namespace fs = std::filesystem;
  const fs::path shipped_dir = fs::path(TUNER_SOURCE_DIR) / "kernel_templates";
  std::ifstream readme(shipped_dir / "README.md");
  std::stringstream text;
  text << readme.rdbuf();
  const std::string example = TomlBlockAfter(text.str(), "## A complete example");
  ASSERT_FALSE(example.empty());
  const fs::path dir = fs::temp_directory_path() / ("readme_example_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "transpose.toml") << example;
  fs::copy_file(shipped_dir / "transpose.cu", dir / "transpose.cu");
  const TemplateSpec readme_spec = LoadTemplateFile((dir / "transpose.toml").string());
  fs::remove_all(dir);
  const TemplateSpec& spec = Shipped().Find("transpose");
  ASSERT_EQ(readme_spec.params.size(), spec.params.size());
  for (std::size_t i = 0; i < spec.params.size(); ++i) {
    EXPECT_EQ(readme_spec.params[i].name, spec.params[i].name);
    EXPECT_EQ(readme_spec.params[i].values, spec.params[i].values) << spec.params[i].name;
    EXPECT_EQ(readme_spec.params[i].labels, spec.params[i].labels) << spec.params[i].name;
  }
  EXPECT_EQ(EnumerateCandidates(readme_spec, DefaultSize(readme_spec)), EnumerateCandidates(spec, DefaultSize(spec)));
}

}  // namespace
}  // namespace tuner
