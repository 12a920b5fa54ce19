// Loading template descriptions: the shipped ones, and malformed ones reported with file, line
// and field while the others keep loading.
#include "template_spec.h"

#include <gtest/gtest.h>

#include <fstream>

#include "db_test_util.h"
#include "expression.h"
#include "template_library.h"

namespace tuner {
namespace {

using db::testing::TempDir;

const char* kValid = R"toml(name = "copy"
kernel = "copy"
[[size]]
name = "N"
default = 1024
[[param]]
name = "BLOCK"
values = [128, 256]
[launch]
grid = ["cdiv(N, BLOCK)"]
block = ["BLOCK"]
[[arg]]
name = "out"
type = "float"
length = "N"
output = true
[[arg]]
name = "in"
type = "float"
length = "N"
init = "random"
[[arg]]
name = "n"
type = "int"
value = "N"
[work]
bytes = "8 * N"
)toml";

const char* kSource = "extern \"C\" __global__ void copy(float* o, const float* i, int n) {}\n";

std::string WriteTemplate(const TempDir& dir, const std::string& name, const std::string& toml) {
  std::ofstream(dir.File(name + ".toml")) << toml;
  std::ofstream(dir.File(name + ".cu")) << kSource;
  return dir.File(name + ".toml");
}

std::string LoadError(const std::string& toml) {
  TempDir dir;
  try {
    LoadTemplateFile(WriteTemplate(dir, "copy", toml));
  } catch (const TemplateError& e) {
    return e.what();
  }
  return "";
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  return text.replace(text.find(from), from.size(), to);
}

TEST(TemplateSpec, LoadsAValidDescription) {
  TempDir dir;
  const TemplateSpec spec = LoadTemplateFile(WriteTemplate(dir, "copy", kValid));
  EXPECT_EQ(spec.name, "copy");
  ASSERT_EQ(spec.params.size(), 1u);
  EXPECT_EQ(spec.params[0].values, (std::vector<long long>{128, 256}));
  ASSERT_EQ(spec.args.size(), 3u);
  EXPECT_TRUE(spec.args[0].output);
  EXPECT_EQ(spec.args[0].init, BufferInit::kPoison);  // outputs are poisoned by default
  EXPECT_EQ(spec.args[1].init, BufferInit::kRandom);
  EXPECT_FALSE(spec.args[2].is_buffer);
  EXPECT_EQ(spec.check.kernel, "copy");                 // the kernel checks itself by default
  EXPECT_EQ(spec.check.params.at("BLOCK"), 128);        // with the first value of each parameter
  EXPECT_EQ(spec.hash.size(), 16u);
}

TEST(TemplateSpec, TolerancesAreNumbersOrExpressionsOfSizes) {
  TempDir dir;
  const TemplateSpec plain = LoadTemplateFile(WriteTemplate(dir, "copy", std::string(kValid) + "[check]\natol = 0.5\n"));
  EXPECT_DOUBLE_EQ(Evaluate(plain.check.atol, {{"N", 1024}}), 0.5);
  EXPECT_DOUBLE_EQ(Evaluate(plain.check.rtol, {{"N", 1024}}), 1e-5);  // the default
  const TemplateSpec scaled = LoadTemplateFile(WriteTemplate(dir, "copy", std::string(kValid) + "[check]\natol = \"1e-6 * N\"\n"));
  EXPECT_DOUBLE_EQ(Evaluate(scaled.check.atol, {{"N", 1024}}), 1.024e-3);
  EXPECT_NE(LoadError(std::string(kValid) + "[check]\natol = \"BLOCK\"\n").find("only sizes"), std::string::npos);
}

TEST(TemplateSpec, HashChangesWithTheSource) {
  TempDir dir;
  const std::string path = WriteTemplate(dir, "copy", kValid);
  const std::string before = LoadTemplateFile(path).hash;
  std::ofstream(dir.File("copy.cu"), std::ios::app) << "// edited\n";
  EXPECT_NE(LoadTemplateFile(path).hash, before);
}

TEST(TemplateSpec, ErrorsNameFileLineAndField) {
  const std::string unknown_type = LoadError(Replace(kValid, "type = \"int\"", "type = \"int3\""));
  EXPECT_NE(unknown_type.find("copy.toml:24: arg[2].type: unknown type 'int3'"), std::string::npos) << unknown_type;
  const std::string bad_values = LoadError(Replace(kValid, "values = [128, 256]", "values = [128, \"x\"]"));
  EXPECT_NE(bad_values.find(":8: param[0].values: must hold integers"), std::string::npos) << bad_values;
  const std::string bad_expression = LoadError(Replace(kValid, "cdiv(N, BLOCK)", "cdiv(N, BLOKC)"));
  EXPECT_NE(bad_expression.find("launch.grid"), std::string::npos) << bad_expression;
  const std::string syntax = LoadError(Replace(kValid, "[launch]", "[launch"));
  EXPECT_NE(syntax.find("copy.toml:9:"), std::string::npos) << syntax;
  EXPECT_NE(LoadError(Replace(kValid, "kernel = \"copy\"\n", "")).find("kernel: is required"), std::string::npos);
  EXPECT_NE(LoadError(Replace(kValid, "length = \"N\"\ninit", "length = \"N * BLOCK\"\ninit")).find("only sizes"), std::string::npos);
}

TEST(TemplateSpec, MissingSourceIsReported) {
  TempDir dir;
  std::ofstream(dir.File("lost.toml")) << Replace(kValid, "kernel = \"copy\"", "kernel = \"copy\"\nsource = \"nowhere.cu\"");
  try {
    LoadTemplateFile(dir.File("lost.toml"));
    FAIL() << "expected a TemplateError";
  } catch (const TemplateError& e) {
    EXPECT_NE(std::string(e.what()).find("nowhere.cu"), std::string::npos);
  }
}

TEST(TemplateLibrary, ABrokenTemplateDoesNotHideTheOthers) {
  TempDir dir;
  WriteTemplate(dir, "copy", kValid);
  WriteTemplate(dir, "broken", Replace(Replace(kValid, "name = \"copy\"", "name = \"broken\""), "[launch]", "[launch"));
  const TemplateLibrary library = LoadTemplateLibrary({dir.File("")});
  ASSERT_EQ(library.templates.size(), 1u);
  EXPECT_EQ(library.templates[0].name, "copy");
  ASSERT_EQ(library.errors.size(), 1u);
  EXPECT_NE(library.errors[0].find("broken.toml"), std::string::npos);
}

TEST(TemplateLibrary, ShippedTemplatesAllLoad) {
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  EXPECT_TRUE(library.errors.empty()) << library.errors.front();
  for (const char* name : {"transpose", "matmul", "reduction", "conv1d", "coalescing", "adjacent_difference"})
    EXPECT_NO_THROW(library.Find(name)) << name;
}

TEST(TemplateLibrary, UserFolderComesFromTheEnvironmentToo) {
  TempDir dir;
  WriteTemplate(dir, "copy", kValid);
  setenv("TUNER_TEMPLATES", dir.File("").c_str(), 1);
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  unsetenv("TUNER_TEMPLATES");
  EXPECT_NO_THROW(library.Find("copy"));
  EXPECT_NO_THROW(library.Find("transpose"));
}

}  // namespace
}  // namespace tuner
