// Loading one template description: what a valid one gives, and every malformed one reported with
// file, line and field (the library of several templates is tests/template/template_library_test.cpp).
#include "template/template_spec.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "base/errors.h"
#include "cli_runner.h"
#include "db_test_util.h"
#include "expression/expression.h"
#include "limit_override.h"
#include "text_search.h"

namespace tuner {
namespace {

using db::testing::TempDir;
using testing::RunTuner;

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
[check]
kernel = "copy_reference"
[work]
bytes = "8 * N"
)toml";

const char* kSource =
    "extern \"C\" __global__ void copy(float* o, const float* i, int n) {}\n"
    "extern \"C\" __global__ void copy_reference(float* o, const float* i, int n) {}\n";

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
  return "(loaded without an error)";
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos) throw std::logic_error("the test's template has no '" + from + "'");
  return text.replace(at, from.size(), to);
}

// kValid with `lines` added to its [check] table.
std::string WithCheck(const std::string& lines) { return Replace(kValid, "[check]\n", "[check]\n" + lines + "\n"); }

using testing::Contains;

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
  EXPECT_EQ(spec.check.kernel, "copy_reference");
  EXPECT_FALSE(spec.check.own_configuration);
  EXPECT_EQ(spec.check.params.at("BLOCK"), 128);  // compiled with the first value of each parameter
  EXPECT_EQ(spec.hash.size(), 16u);
}

// A description (or its kernel source) past the limit is a message, not a file read into memory.
TEST(TemplateSpec, ADescriptionLargerThanTheLimitIsRefusedNamingIt) {
  const std::string valid = kValid;
  const testing::LimitOverride bytes(InputLimit::kDescriptionBytes, std::to_string(valid.size() + 200));
  EXPECT_EQ(LoadError(valid), "(loaded without an error)");
  EXPECT_TRUE(Contains(LoadError(valid + "\n#" + std::string(300, ' ')),
                       "copy.toml': more than " + std::to_string(valid.size() + 200) +
                           " bytes of a description or kernel source (the limit; raise it with "
                           "TUNER_LIMIT_DESCRIPTION_BYTES=N)"));
}

// A source named with a newline once broke the one-line message in two.
TEST(TemplateSpec, ASourceThatCannotBeReadIsNamedOnOneLine) {
  const std::string error =
      LoadError(Replace(kValid, "kernel = \"copy\"\n", "kernel = \"copy\"\nsource = \"a\\nb\"\n"));
  EXPECT_TRUE(Contains(error, "a\\nb': no such file")) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

// A kernel name of kilobytes was quoted whole in its refusal.
TEST(TemplateSpec, ARefusalQuotesLittleOfALongName) {
  const std::string error =
      LoadError(Replace(kValid, "kernel = \"copy\"", "kernel = \"NVIDIA " + std::string(5000, 'G') + "\""));
  EXPECT_TRUE(Contains(error, "is not a kernel name")) << error;
  EXPECT_LT(error.size(), 500u) << error;
}

TEST(TemplateSpec, TolerancesAreNumbersOrExpressionsOfSizes) {
  TempDir dir;
  const TemplateSpec plain = LoadTemplateFile(WriteTemplate(dir, "copy", WithCheck("atol = 0.5")));
  EXPECT_DOUBLE_EQ(Evaluate(plain.check.atol, {{"N", 1024}}), 0.5);
  EXPECT_DOUBLE_EQ(Evaluate(plain.check.rtol, {{"N", 1024}}), 1e-5);  // the default
  const TemplateSpec scaled = LoadTemplateFile(WriteTemplate(dir, "copy", WithCheck("atol = \"1e-6 * N\"")));
  EXPECT_DOUBLE_EQ(Evaluate(scaled.check.atol, {{"N", 1024}}), 1.024e-3);
  EXPECT_TRUE(Contains(LoadError(WithCheck("atol = \"BLOCK\"")), "only sizes"));
}

TEST(TemplateSpec, TolerancesOutsideTheirRangeAreRefused) {
  const std::string negative = LoadError(WithCheck("atol = -0.5"));
  EXPECT_TRUE(Contains(negative, "copy.toml:27: check.atol:")) << negative;
  EXPECT_TRUE(Contains(negative, "negative")) << negative;
  const std::string huge = LoadError(WithCheck("atol = 1e30"));
  EXPECT_TRUE(Contains(huge, "check.atol:") && Contains(huge, "1e+30") && Contains(huge, "1000")) << huge;
  const std::string all_pass = LoadError(WithCheck("rtol = 1.0"));
  EXPECT_TRUE(Contains(all_pass, "check.rtol:") && Contains(all_pass, "0.1")) << all_pass;
  // An expression is checked at the default sizes: 1e-3 * 1024 > 0.1.
  const std::string scaled = LoadError(WithCheck("rtol = \"1e-3 * N\""));
  EXPECT_TRUE(Contains(scaled, "check.rtol:") && Contains(scaled, "N=1024")) << scaled;
  EXPECT_TRUE(Contains(LoadError(WithCheck("rtol = \"0 / 0\"")), "check.rtol:"));
  EXPECT_TRUE(Contains(LoadError(WithCheck("atol = \"sqrt(0 - N)\"")), "check.atol:"));
}

// Every element type is a buffer's and a scalar's; the output's type sets the default tolerance; a
// scalar must fit its type; random_int needs a type that holds its whole numbers.
TEST(TemplateSpec, EveryElementTypeIsABufferAndAScalar) {
  for (const ElementType& e : ElementTypes()) {
    TempDir dir;
    std::string toml = Replace(kValid, "type = \"float\"", "type = \"" + std::string(e.name) + "\"");
    toml = Replace(toml, "type = \"int\"", "type = \"" + std::string(e.name) + "\"");
    toml = Replace(toml, "value = \"N\"", "value = \"100\"");
    const TemplateSpec spec = LoadTemplateFile(WriteTemplate(dir, "copy", toml));
    EXPECT_EQ(spec.args[0].type, e.type);
    EXPECT_EQ(spec.args[2].type, e.type);
    const double rtol = Evaluate(spec.check.rtol, {{"N", 1024}});
    EXPECT_EQ(rtol, e.epsilon > 0x1p-22 ? 2 * e.epsilon : 1e-5) << e.name;
  }
  const std::string half =
      Replace(Replace(kValid, "type = \"int\"", "type = \"half\""), "value = \"N\"", "value = \"70000\"");
  EXPECT_TRUE(Contains(LoadError(half), "arg[2].value: '70000' gives 70000, which does not fit type half"))
      << LoadError(half);
  const std::string int8 = Replace(kValid, "type = \"int\"", "type = \"int8\"");
  EXPECT_TRUE(Contains(LoadError(int8), "arg[2].value: 'N' gives 1024, which does not fit type int8 (-128 to 127)"))
      << LoadError(int8);
  const std::string fp8 = Replace(kValid, "type = \"float\"\nlength = \"N\"\ninit = \"random\"",
                                  "type = \"fp8_e4m3\"\nlength = \"N\"\ninit = \"random_int\"");
  EXPECT_TRUE(Contains(LoadError(fp8), "arg[1].init: random_int gives whole numbers in [-98, 97], which fp8_e4m3"))
      << LoadError(fp8);
}

TEST(TemplateSpec, AReductionLengthAddsAnAbsoluteTolerance) {
  TempDir dir;
  const std::string bf16 = Replace(WithCheck("reduction = \"N\""), "type = \"float\"", "type = \"bfloat16\"");
  const TemplateSpec spec = LoadTemplateFile(WriteTemplate(dir, "copy", bf16));
  EXPECT_DOUBLE_EQ(Evaluate(spec.check.rtol, {{"N", 1024}}), 0x1p-6);
  EXPECT_DOUBLE_EQ(Evaluate(spec.check.atol, {{"N", 1024}}), 0x1p-6 * 32);
  EXPECT_TRUE(Contains(LoadError(WithCheck("reduction = \"N - N\"")), "check.reduction: 'N - N' gives 0"));
  // fp8's own rounding is coarse: its rtol may reach 2 epsilon, no further.
  const std::string fp8 = Replace(kValid, "type = \"float\"", "type = \"fp8_e5m2\"");
  EXPECT_EQ(LoadError(Replace(fp8, "[check]\n", "[check]\nrtol = 0.5\n")), "(loaded without an error)");
  EXPECT_TRUE(Contains(LoadError(Replace(fp8, "[check]\n", "[check]\nrtol = 0.6\n")), "above 0.5"));
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
  EXPECT_TRUE(Contains(unknown_type, "copy.toml:24: arg[2].type: unknown type 'int3'")) << unknown_type;
  const std::string bad_values = LoadError(Replace(kValid, "values = [128, 256]", "values = [128, \"x\"]"));
  EXPECT_TRUE(Contains(bad_values, ":8: param[0].values: must hold integers")) << bad_values;
  const std::string bad_expression = LoadError(Replace(kValid, "cdiv(N, BLOCK)", "cdiv(N, BLOKC)"));
  EXPECT_TRUE(Contains(bad_expression, "copy.toml:10: launch.grid")) << bad_expression;
  const std::string syntax = LoadError(Replace(kValid, "[launch]", "[launch"));
  EXPECT_TRUE(Contains(syntax, "copy.toml:9:")) << syntax;
  EXPECT_TRUE(Contains(LoadError(Replace(kValid, "kernel = \"copy\"\n", "")), "kernel: is required"));
  EXPECT_TRUE(
      Contains(LoadError(Replace(kValid, "length = \"N\"\ninit", "length = \"N * BLOCK\"\ninit")), "only sizes"));
}

// One run reports every error it can find, each with its line and field, in the order of the file's
// parts; a parameter whose values are wrong is still a name the expressions may use.
TEST(TemplateSpec, EveryErrorIsReportedInOneRun) {
  std::string toml = Replace(kValid, "kernel = \"copy\"\n", "kernel = \"copy\"\nconstraintS = [\"BLOCK > 0\"]\n");
  toml = Replace(toml, "values = [128, 256]", "values = [128, \"x\"]");
  toml = Replace(toml, "block = [\"BLOCK\"]", "block = [\"BLOCK\", \"THREADZ\"]");
  toml = Replace(toml, "type = \"int\"", "type = \"int3\"");
  toml = Replace(toml, "[check]\n", "[check]\nrtoll = 0.1\natol = \"N + M\"\n");
  toml = Replace(toml, "bytes = \"8 * N\"", "bytes = \"8 * BLOCK\"");
  const std::string errors = LoadError(toml);
  const std::vector<std::string> expected = {
      "copy.toml:3: constraintS: unknown key (did you mean `constraints`?)",
      "copy.toml:9: param[0].values: must hold integers",
      "copy.toml:12: launch.block: in expression 'THREADZ': unknown name 'THREADZ'",
      "copy.toml:25: arg[2].type: unknown type 'int3'",
      "copy.toml:28: check.rtoll: unknown key (did you mean `rtol`?)",
      "copy.toml:29: check.atol: in expression 'N + M': unknown name 'M'",
      "copy.toml:32: work.bytes: in expression '8 * BLOCK': unknown name 'BLOCK' (only sizes may be used here)",
  };
  EXPECT_EQ(std::count(errors.begin(), errors.end(), '\n'), static_cast<long>(expected.size() - 1)) << errors;
  for (const std::string& line : expected) EXPECT_TRUE(Contains(errors, line)) << line << "\n" << errors;
  EXPECT_LT(errors.find("constraintS"), errors.find("work.bytes")) << errors;
}

TEST(TemplateSpec, TuneExitsTwoOnceWithEveryError) {
  TempDir dir;
  std::string toml = Replace(kValid, "type = \"int\"", "type = \"int3\"");
  toml = Replace(toml, "bytes = \"8 * N\"", "bytes = \"8 * BLOCK\"");
  WriteTemplate(dir, "copy", toml);
  const auto r = RunTuner("tune copy --templates " + dir.File("") + " --db " + dir.File("t.db"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(Contains(r.err, "arg[2].type: unknown type 'int3'")) << r.err;
  EXPECT_TRUE(Contains(r.err, "work.bytes: in expression '8 * BLOCK'")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.File("t.db")));
}

TEST(TemplateSpec, UnknownKeysAreRefusedWithASuggestion) {
  const std::string top =
      LoadError(Replace(kValid, "kernel = \"copy\"\n", "kernel = \"copy\"\nconstraintS = [\"BLOCK > 0\"]\n"));
  EXPECT_TRUE(Contains(top, "copy.toml:3: constraintS: unknown key (did you mean `constraints`?)")) << top;
  const std::string in_arg = LoadError(Replace(kValid, "output = true", "outptu = true"));
  EXPECT_TRUE(Contains(in_arg, "copy.toml:16: arg[0].outptu: unknown key (did you mean `output`?)")) << in_arg;
  const std::string in_check = LoadError(WithCheck("rtoll = 0.1"));
  EXPECT_TRUE(Contains(in_check, "check.rtoll: unknown key (did you mean `rtol`?)")) << in_check;
  const std::string in_launch =
      LoadError(Replace(kValid, "block = [\"BLOCK\"]", "block = [\"BLOCK\"]\nshared_byte = 0"));
  EXPECT_TRUE(Contains(in_launch, "launch.shared_byte: unknown key (did you mean `shared_bytes`?)")) << in_launch;
  const std::string in_size = LoadError(Replace(kValid, "default = 1024", "defualt = 1024"));
  EXPECT_TRUE(Contains(in_size, "size[0].defualt: unknown key (did you mean `default`?)")) << in_size;
  const std::string in_work = LoadError(Replace(kValid, "bytes = \"8 * N\"", "bytes = \"8 * N\"\nflop = 1"));
  EXPECT_TRUE(Contains(in_work, "work.flop: unknown key (did you mean `flops`?)")) << in_work;
  const std::string far = LoadError(Replace(kValid, "kernel = \"copy\"\n", "kernel = \"copy\"\ncolour = \"red\"\n"));
  EXPECT_TRUE(Contains(far, "colour: unknown key")) << far;
  EXPECT_FALSE(Contains(far, "did you mean")) << far;
}

TEST(TemplateSpec, ATopLevelKeyInsideATableIsExplained) {
  // TOML puts every key after [[param]] into that parameter: a common slip.
  const std::string late =
      LoadError(Replace(kValid, "values = [128, 256]", "values = [128, 256]\nconstraints = [\"BLOCK > 0\"]"));
  EXPECT_TRUE(Contains(late, "param[0].constraints: unknown key")) << late;
  EXPECT_TRUE(Contains(late, "before the first table")) << late;
}

TEST(TemplateSpec, ScalarsHaveNoBufferKeys) {
  const std::string scalar = LoadError(Replace(kValid, "value = \"N\"", "value = \"N\"\noutput = true"));
  EXPECT_TRUE(Contains(scalar, "arg[2].output")) << scalar;
}

TEST(TemplateSpec, KeysHaveTheirTypes) {
  EXPECT_TRUE(Contains(LoadError(Replace(kValid, "output = true", "output = \"yes\"")),
                       "arg[0].output: must be true or false"));
  EXPECT_TRUE(Contains(LoadError(Replace(kValid, "values = [128, 256]", "values = [128, 256]\nlabels = [\"a\", 2]")),
                       "param[0].labels: must hold strings"));
  const std::string number =
      LoadError(Replace(kValid, "kernel = \"copy\"\n", "kernel = \"copy\"\nconstraints = [5]\n"));
  EXPECT_TRUE(Contains(number, "copy.toml:3: constraints: must hold expression strings")) << number;
  EXPECT_TRUE(Contains(LoadError(Replace(kValid, "kernel = \"copy\"\n", "kernel = \"copy\"\noptions = [5]\n")),
                       "options: must hold strings"));
}

TEST(TemplateSpec, DuplicatesAreRefused) {
  const std::string param =
      LoadError(Replace(kValid, "[launch]", "[[param]]\nname = \"BLOCK\"\nvalues = [1]\n[launch]"));
  EXPECT_TRUE(Contains(param, "copy.toml:10: param[1].name: 'BLOCK' is already the name of param[0]")) << param;
  const std::string size_and_param = LoadError(Replace(kValid, "name = \"BLOCK\"", "name = \"N\""));
  EXPECT_TRUE(Contains(size_and_param, "param[0].name: 'N' is already the name of size[0]")) << size_and_param;
  const std::string arg = LoadError(Replace(kValid, "name = \"in\"", "name = \"out\""));
  EXPECT_TRUE(Contains(arg, "arg[1].name: 'out' is already the name of arg[0]")) << arg;
  const std::string value = LoadError(Replace(kValid, "values = [128, 256]", "values = [128, 256, 128]"));
  EXPECT_TRUE(Contains(value, "param[0].values: 128 is listed twice")) << value;
  const std::string label =
      LoadError(Replace(kValid, "values = [128, 256]", "values = [128, 256]\nlabels = [\"a\", \"a\"]"));
  EXPECT_TRUE(Contains(label, "param[0].labels: 'a' is listed twice")) << label;
}

TEST(TemplateSpec, TemplateNamesAreIdentifiers) {
  for (const char* name : {"../x", "$(touch pwned)", "", "two words", "a\\nb", "1st", "copy-2"}) {
    const std::string error = LoadError(Replace(kValid, "name = \"copy\"", std::string("name = \"") + name + "\""));
    EXPECT_TRUE(Contains(error, "copy.toml:1: name:")) << name << ": " << error;
    EXPECT_TRUE(Contains(error, "letters, digits and '_'")) << name << ": " << error;
  }
}

TEST(TemplateSpec, ParameterAndSizeNamesAreIdentifiersButNotReservedWords) {
  for (const char* name : {"int", "if", "sin", "cdiv", "min", "threadIdx", "float4", "_pi", "__X", "TI LE", "9A", ""}) {
    const std::string error = LoadError(Replace(kValid, "name = \"BLOCK\"", std::string("name = \"") + name + "\""));
    EXPECT_TRUE(Contains(error, "copy.toml:7: param[0].name:")) << name << ": " << error;
    EXPECT_FALSE(Contains(error, "launch")) << name << " is blamed on an expression: " << error;
  }
  const std::string size = LoadError(Replace(kValid, "name = \"N\"", "name = \"max\""));
  EXPECT_TRUE(Contains(size, "copy.toml:4: size[0].name: 'max' is an expression function")) << size;
  const std::string keyword = LoadError(Replace(kValid, "name = \"BLOCK\"", "name = \"while\""));
  EXPECT_TRUE(Contains(keyword, "'while' is a C++ keyword")) << keyword;
}

TEST(TemplateSpec, SizeDefaultsArePositive) {
  EXPECT_TRUE(
      Contains(LoadError(Replace(kValid, "default = 1024", "default = 0")), "size[0].default: must be positive"));
}

TEST(TemplateSpec, BufferLengthsAreCheckedAtTheDefaultSizes) {
  for (const char* length : {"-N", "0", "N / 3", "2^63", "N - N"}) {
    const std::string error =
        LoadError(Replace(kValid, "length = \"N\"\noutput", std::string("length = \"") + length + "\"\noutput"));
    EXPECT_TRUE(Contains(error, "copy.toml:15: arg[0].length:")) << length << ": " << error;
    EXPECT_TRUE(Contains(error, "N=1024")) << length << ": " << error;
  }
  const std::string fraction = LoadError(Replace(kValid, "length = \"N\"\noutput", "length = \"N / 3\"\noutput"));
  EXPECT_TRUE(Contains(fraction, "341.33")) << fraction;
  const std::string scalar = LoadError(Replace(kValid, "value = \"N\"", "value = \"2^40\""));
  EXPECT_TRUE(Contains(scalar, "arg[2].value:") && Contains(scalar, "int")) << scalar;
}

TEST(TemplateSpec, KernelsAndSymbolsMustBeInTheSource) {
  const std::string kernel = LoadError(Replace(kValid, "kernel = \"copy\"", "kernel = \"cpy\""));
  EXPECT_TRUE(Contains(kernel, "copy.toml:2: kernel: 'cpy' does not occur in")) << kernel;
  EXPECT_TRUE(Contains(kernel, "did you mean `copy`?")) << kernel;
  const std::string reference = LoadError(Replace(kValid, "copy_reference", "copy_ref"));
  EXPECT_TRUE(Contains(reference, "check.kernel: 'copy_ref' does not occur in")) << reference;
  const std::string symbol = LoadError(std::string(kValid) + "[[symbol]]\nname = \"c_filter\"\nfrom = \"in\"\n");
  EXPECT_TRUE(Contains(symbol, "symbol[0].name: 'c_filter' does not occur in")) << symbol;
}

TEST(TemplateSpec, SourceMustBeAReadableFile) {
  const std::string folder = LoadError(Replace(kValid, "kernel = \"copy\"", "kernel = \"copy\"\nsource = \".\""));
  EXPECT_TRUE(Contains(folder, "source: ") && Contains(folder, "is a folder, not a file")) << folder;
  const std::string missing =
      LoadError(Replace(kValid, "kernel = \"copy\"", "kernel = \"copy\"\nsource = \"nowhere.cu\""));
  EXPECT_TRUE(Contains(missing, "source: ") && Contains(missing, "nowhere.cu")) << missing;
}

TEST(TemplateSpec, AnUnreadableSourceIsReported) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads files whatever their mode";
  TempDir dir;
  const std::string path = WriteTemplate(dir, "copy", kValid);
  std::filesystem::permissions(dir.File("copy.cu"), std::filesystem::perms::none);
  try {
    LoadTemplateFile(path);
    FAIL() << "expected a TemplateError";
  } catch (const TemplateError& e) {
    EXPECT_TRUE(Contains(e.what(), "cannot read")) << e.what();
  }
}

TEST(TemplateSpec, ACheckIsRequired) {
  const std::string none = LoadError(Replace(kValid, "[check]\nkernel = \"copy_reference\"\n", ""));
  EXPECT_TRUE(Contains(none, "check: is required")) << none;
  EXPECT_TRUE(Contains(none, "own_configuration")) << none;
  const std::string tolerances_only = LoadError(Replace(kValid, "kernel = \"copy_reference\"", "atol = 0.0"));
  EXPECT_TRUE(Contains(tolerances_only, "check: ")) << tolerances_only;
  const std::string itself = LoadError(Replace(kValid, "kernel = \"copy_reference\"", "kernel = \"copy\""));
  EXPECT_TRUE(Contains(itself, "check.kernel: ") && Contains(itself, "own_configuration")) << itself;
}

TEST(TemplateSpec, OwnConfigurationIsAnExplicitChoice) {
  TempDir dir;
  const std::string own =
      Replace(kValid, "kernel = \"copy_reference\"", "reference = \"own_configuration\"\nparams = { BLOCK = 256 }");
  const TemplateSpec spec = LoadTemplateFile(WriteTemplate(dir, "copy", own));
  EXPECT_TRUE(spec.check.own_configuration);
  EXPECT_EQ(spec.check.kernel, "copy");
  EXPECT_EQ(spec.check.params.at("BLOCK"), 256);
  const std::string warning = OwnConfigurationWarning(spec);
  EXPECT_TRUE(Contains(warning, "BLOCK=256") && Contains(warning, "a bug all configurations share cannot be seen"))
      << warning;

  const std::string both = LoadError(
      Replace(kValid, "kernel = \"copy_reference\"", "kernel = \"copy_reference\"\nreference = \"own_configuration\""));
  EXPECT_TRUE(Contains(both, "check.kernel: ")) << both;
  const std::string bogus = LoadError(Replace(kValid, "kernel = \"copy_reference\"", "reference = \"own\""));
  EXPECT_TRUE(Contains(bogus, "check.reference: 'own'") && Contains(bogus, "own_configuration")) << bogus;
  const std::string not_a_value = LoadError(Replace(own, "BLOCK = 256", "BLOCK = 64"));
  EXPECT_TRUE(Contains(not_a_value, "check.params.BLOCK: 64 is not one of its values")) << not_a_value;
}

// On this machine and on a GPU node alike: --gpu 99 names no GPU, so nothing is measured.
TEST(TemplateSpec, TuneWarnsOfAnOwnConfigurationCheckBeforeLookingForTheGpu) {
  TempDir dir;
  const std::string tune = "tune copy --gpu 99 --templates " + dir.File("") + " --db " + dir.File("t.db");
  WriteTemplate(dir, "copy", Replace(kValid, "kernel = \"copy_reference\"", "reference = \"own_configuration\""));
  const auto own = RunTuner(tune, "env -u TUNER_TEMPLATES");
  EXPECT_TRUE(Contains(own.err, "warning: copy is checked against its own configuration BLOCK=128")) << own.err;
  EXPECT_NE(own.exit_code, 0);
  WriteTemplate(dir, "copy", kValid);
  const auto independent = RunTuner(tune, "env -u TUNER_TEMPLATES");
  EXPECT_FALSE(Contains(independent.err, "warning")) << independent.err;
}

}  // namespace
}  // namespace tuner

namespace tuner {
namespace {

TEST(TemplateSpec, TheCompilerIsAutoUnlessTheDescriptionNamesNvrtcOrNvcc) {
  TempDir dir;
  EXPECT_EQ(LoadTemplateFile(WriteTemplate(dir, "copy", kValid)).compiler, CompilerChoice::kAuto);
  EXPECT_EQ(LoadTemplateFile(WriteTemplate(dir, "copy", "compiler = \"nvcc\"\n" + std::string(kValid))).compiler,
            CompilerChoice::kNvcc);
  EXPECT_EQ(LoadTemplateFile(WriteTemplate(dir, "copy", "compiler = \"nvrtc\"\n" + std::string(kValid))).compiler,
            CompilerChoice::kNvrtc);
  const std::string error = LoadError("compiler = \"clang\"\n" + std::string(kValid));
  EXPECT_TRUE(Contains(error, "compiler: 'clang' is no compiler (auto, nvrtc, nvcc)")) << error;
}

TEST(TemplateSpec, AnOutputThatTheKernelAddsIntoSaysAccumulate) {
  TempDir dir;
  const std::string accumulating =
      Replace(kValid, "output = true\n", "output = true\ninit = \"zero\"\naccumulate = true\n");
  const TemplateSpec spec = LoadTemplateFile(WriteTemplate(dir, "copy", accumulating));
  EXPECT_TRUE(spec.args[0].accumulate);
  EXPECT_EQ(spec.args[0].init, BufferInit::kZero);
  EXPECT_FALSE(LoadTemplateFile(WriteTemplate(dir, "copy", kValid)).args[0].accumulate);
}

TEST(TemplateSpec, TheParametersTheOutputDependsOnAreParametersOfTheTemplate) {
  TempDir dir;
  const TemplateSpec spec = LoadTemplateFile(WriteTemplate(dir, "copy", WithCheck("output_depends_on = [\"BLOCK\"]")));
  EXPECT_EQ(spec.check.output_depends_on, (std::vector<std::string>{"BLOCK"}));
  const std::string unknown = LoadError(WithCheck("output_depends_on = [\"BLOK\"]"));
  EXPECT_TRUE(Contains(unknown, "check.output_depends_on: 'BLOK' is not a parameter")) << unknown;
  EXPECT_TRUE(Contains(unknown, "BLOCK")) << unknown;  // the suggestion
  const std::string twice = LoadError(WithCheck("output_depends_on = [\"BLOCK\", \"BLOCK\"]"));
  EXPECT_TRUE(Contains(twice, "'BLOCK' is listed twice")) << twice;
}

// An output the kernel reads too may start from data of its own, as from a file.
TEST(TemplateSpec, AnOutputReadAndWrittenMayStartFromRandomData) {
  for (const char* init : {"random", "random_int", "one", "index"}) {
    TempDir dir;
    const TemplateSpec spec = LoadTemplateFile(WriteTemplate(
        dir, "copy", Replace(kValid, "output = true\n", "output = true\ninit = \"" + std::string(init) + "\"\n")));
    EXPECT_TRUE(spec.args[0].output) << init;
    EXPECT_EQ(ToString(spec.args[0].init), init);
    EXPECT_TRUE(StartsFromContents(spec.args[0].init));
  }
  EXPECT_FALSE(StartsFromContents(BufferInit::kZero));
  EXPECT_FALSE(StartsFromContents(BufferInit::kPoison));
}

TEST(TemplateSpec, AccumulateIsForOutputsThatStartFromZeroOrAFile) {
  const std::string poisoned = LoadError(Replace(kValid, "output = true\n", "output = true\naccumulate = true\n"));
  EXPECT_TRUE(Contains(poisoned, "accumulate")) << poisoned;
  EXPECT_TRUE(Contains(poisoned, "not poison")) << poisoned;
  const std::string input = LoadError(Replace(kValid, "init = \"random\"\n", "init = \"random\"\naccumulate = true\n"));
  EXPECT_TRUE(Contains(input, "only an output (output = true) is accumulated into")) << input;
  const std::string scalar = LoadError(Replace(kValid, "value = \"N\"\n", "value = \"N\"\naccumulate = true\n"));
  EXPECT_TRUE(Contains(scalar, "only a buffer (with 'length') has 'accumulate'")) << scalar;
}

}  // namespace
}  // namespace tuner
