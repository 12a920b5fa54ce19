#include "exchange/t1_import.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <thread>

#include <signal.h>
#include <sys/stat.h>

#include "base/errors.h"
#include "cli_runner.h"
#include "compile/compiler.h"
#include "db_test_util.h"
#include "exchange/imported_template.h"
#include "expression/expression.h"
#include "template/search_space.h"
#include "template/template_spec.h"
#include "template/template_values.h"

namespace tuner {
namespace {

namespace fs = std::filesystem;
using db::testing::TempDir;
using nlohmann::json;
using testing::ReadFileText;
using testing::RunCommand;

const std::string kFixtures = std::string(TUNER_FIXTURES_DIR) + "/t1";

json ReadJson(const std::string& path) { return json::parse(ReadFileText(path)); }

// A copy of a fixture, changed by `edit`, beside a copy of its kernel source.
std::string EditedFixture(const TempDir& dir, const std::string& name, const std::function<void(json&)>& edit) {
  json t1 = ReadJson(kFixtures + "/" + name + ".json");
  edit(t1);
  const std::string path = dir.File(name + ".json");
  std::ofstream(path) << t1.dump();
  fs::copy_file(kFixtures + "/" + name + ".cu", dir.File(name + ".cu"), fs::copy_options::overwrite_existing);
  return path;
}

std::string ImportError(const std::string& path, const std::string& name = "") {
  try {
    ImportT1(path, {name, "", ""});
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

TEST(T1Import, KernelTunerStyleDescription) {
  const ImportedTemplate imported = ImportT1(kFixtures + "/vector_add.json", {});
  EXPECT_EQ(imported.name, "vector_add");
  ASSERT_EQ(imported.constraints.size(), 1u);
  EXPECT_EQ(imported.constraints[0].second, "block_size_x * tile_size <= 2048 && block_size_x <= 1024");
  EXPECT_NE(imported.description.find("grid = [\"cdiv(ProblemSize_0, block_size_x * tile_size)\"]"), std::string::npos)
      << imported.description;
  EXPECT_NE(imported.description.find("params = { block_size_x = 128, tile_size = 1 }"),
            std::string::npos);  // T1's Default

  TempDir out;
  const WrittenTemplate written = WriteImportedTemplate(imported, out.File("kernels"));
  const TemplateSpec spec = LoadTemplateFile(written.description_path);
  EXPECT_EQ(written.candidates, 22u);  // 6 block sizes of at most 1024 x 4 tiles, less 1024 x 3 and 1024 x 4
  EXPECT_EQ(written.size_key, "1000000");
  EXPECT_EQ(spec.params[1].values, (std::vector<long long>{1, 2, 3, 4}));
  EXPECT_TRUE(spec.check.own_configuration);
  EXPECT_EQ(spec.args[0].init, BufferInit::kZero);
  EXPECT_TRUE(spec.args[0].output);
  EXPECT_EQ(spec.args[3].value, "1000000");
  EXPECT_EQ(ReadFileText(out.File("kernels/vector_add.cu")), ReadFileText(kFixtures + "/vector_add.cu"));
  // The grid covers the problem at every candidate.
  for (const ParamValues& candidate : EnumerateCandidates(spec, DefaultSize(spec))) {
    const LaunchGeometry g = EvaluateLaunch(spec.launch, MakeVariables(DefaultSize(spec), candidate));
    EXPECT_GE(g.grid[0] * g.block[0] * candidate[1].second, 1000000) << DescribeParams(candidate);
  }
}

// T1's half, int8, uint8, int16 and uint16 (and tuner's bfloat16 and fp8 names) become the element
// types of the imported template; its work counts their bytes, and a half-precision output is
// checked with tuner's default for its type rather than allclose's 1e-5.
TEST(T1Import, AParameterTheOutputDependsOnIsSaidInTheCheck) {
  T1ImportOptions options;
  options.output_depends_on = {"tile_size"};
  const ImportedTemplate imported = ImportT1(kFixtures + "/vector_add.json", options);
  EXPECT_NE(imported.description.find("output_depends_on = [\"tile_size\"]\n"), std::string::npos)
      << imported.description;
  options.output_depends_on = {"tile_sise"};
  try {
    ImportT1(kFixtures + "/vector_add.json", options);
    FAIL() << "an unknown parameter was taken";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("--output-depends-on: 'tile_sise' is not a tuning parameter"),
              std::string::npos)
        << e.what();
  }
}

TEST(T1Import, NarrowElementTypesAreImported) {
  TempDir dir;
  const std::string path = EditedFixture(dir, "vector_add", [](json& t) {
    t["KernelSpecification"]["Arguments"][0]["Type"] = "half";
    t["KernelSpecification"]["Arguments"][1]["Type"] = "bfloat16";
    t["KernelSpecification"]["Arguments"][2]["Type"] = "int8";
    t["KernelSpecification"]["Arguments"][3]["Type"] = "uint16";
    t["KernelSpecification"]["Arguments"][3]["FillValue"] = 1000;
  });
  const ImportedTemplate imported = ImportT1(path, {});
  EXPECT_NE(imported.description.find("bytes = \"2 * ProblemSize_0 + 2 * ProblemSize_0 + 1 * ProblemSize_0\""),
            std::string::npos)
      << imported.description;
  EXPECT_EQ(imported.description.find("rtol ="), std::string::npos) << imported.description;
  TempDir out;
  const TemplateSpec spec = LoadTemplateFile(WriteImportedTemplate(imported, out.File("k")).description_path);
  EXPECT_EQ(spec.args[0].type, ScalarType::kHalf);
  EXPECT_EQ(spec.args[1].type, ScalarType::kBfloat16);
  EXPECT_EQ(spec.args[2].type, ScalarType::kInt8);
  EXPECT_EQ(spec.args[3].type, ScalarType::kUint16);
  EXPECT_EQ(Evaluate(spec.check.rtol, {}), 0x1p-9);
  const std::string not_whole = ImportError(EditedFixture(dir, "vector_add", [](json& t) {
    t["KernelSpecification"]["Arguments"][3]["Type"] = "int8";
    t["KernelSpecification"]["Arguments"][3]["FillValue"] = 1.5;
  }));
  EXPECT_NE(not_whole.find("1.5 is not a whole number, and the argument is an integer"), std::string::npos)
      << not_whole;
}

TEST(T1Import, KttStyleDescriptionWithConstantMemory) {
  const ImportedTemplate imported = ImportT1(kFixtures + "/stencil.json", {});
  EXPECT_EQ(imported.name, "stencil");  // no BenchmarkName: the file's name
  TempDir out;
  const WrittenTemplate written = WriteImportedTemplate(imported, out.File("k"));
  const TemplateSpec spec = LoadTemplateFile(written.description_path);
  EXPECT_EQ(written.candidates, 20u);  // Python's count of the same conditions
  ASSERT_EQ(spec.symbols.size(), 1u);
  EXPECT_EQ(spec.symbols[0].name, "weights");
  EXPECT_EQ(spec.args[0].init, BufferInit::kPoison);  // write-only, no fill given
  // GlobalSize in threads (OpenCL), rounded up to whole blocks: enough blocks for every element.
  for (const ParamValues& candidate : EnumerateCandidates(spec, DefaultSize(spec))) {
    const LaunchGeometry g = EvaluateLaunch(spec.launch, MakeVariables(DefaultSize(spec), candidate));
    const long long per_block = candidate[0].second * candidate[1].second;
    EXPECT_EQ(g.grid[0], (100003 + per_block - 1) / per_block) << DescribeParams(candidate);
  }
  // No T1 defaults: the first configuration that satisfies the conditions.
  EXPECT_EQ(spec.check.params.at("block_size_x"), 64);
  EXPECT_EQ(spec.check.params.at("items_per_thread"), 1);
  EXPECT_EQ(spec.check.params.at("use_constant"), 0);
}

TEST(T1Import, BadInputNamesTheFileAndTheField) {
  TempDir dir;
  const auto error = [&](const std::function<void(json&)>& edit) {
    return ImportError(EditedFixture(dir, "vector_add", edit));
  };
  const std::string file = dir.File("vector_add.json");
  EXPECT_EQ(error([](json& t) { t.erase("KernelSpecification"); }),
            file + ": KernelSpecification: missing (the T1 schema requires it)");
  EXPECT_EQ(error([](json& t) { t["ConfigurationSpace"]["TuningParameters"][0].erase("Values"); }),
            file + ": ConfigurationSpace.TuningParameters[0].Values: missing (the T1 schema requires it)");
  EXPECT_EQ(error([](json& t) { t["ConfigurationSpace"]["Conditions"][0]["Expression"] = "block_size_x & 32"; }),
            file +
                ": ConfigurationSpace.Conditions[0].Expression: 'block_size_x & 32': the bitwise operator '&' has no "
                "counterpart in the template syntax");
  EXPECT_EQ(
      error([](json& t) { t["ConfigurationSpace"]["TuningParameters"][1]["Name"] = "int"; }),
      file +
          ": ConfigurationSpace.TuningParameters[1].Name: 'int' is a C++ keyword, which a parameter may not be named "
          "(it becomes a macro of the source and a variable of the expressions)");
  EXPECT_EQ(error([](json& t) { t["ConfigurationSpace"]["TuningParameters"][1]["Name"] = "ProblemSize_0"; }),
            file +
                ": ConfigurationSpace.TuningParameters[1].Name: 'ProblemSize_0' is the name the import gives "
                "KernelSpecification.ProblemSize");
  EXPECT_EQ(error([](json& t) { t["ConfigurationSpace"]["TuningParameters"][1]["Type"] = "string"; }),
            file +
                ": ConfigurationSpace.TuningParameters[1].Type: 'string': tuner's parameters are whole numbers (int or "
                "uint)");
  EXPECT_EQ(error([](json& t) { t["ConfigurationSpace"]["TuningParameters"][1]["Values"] = "[1, 2, 2]"; }),
            file + ": ConfigurationSpace.TuningParameters[1].Values: 2 is listed twice");
  EXPECT_NE(error([](json& t) {
              t["KernelSpecification"]["Language"] = "OpenCL";
            }).find(file + ": KernelSpecification.Language: 'OpenCL': tuner compiles an OpenCL kernel as CUDA"),
            std::string::npos);
  EXPECT_NE(error([](json& t) {
              t["KernelSpecification"]["Arguments"][1]["FillType"] = "BinaryRaw";
            }).find(file + ": KernelSpecification.Arguments[1].FillType: 'BinaryRaw' is not supported"),
            std::string::npos);
  EXPECT_EQ(error([](json& t) { t["KernelSpecification"]["Arguments"][1]["Type"] = "half2"; }),
            file +
                ": KernelSpecification.Arguments[1].Type: 'half2' is not a type tuner's arguments have (bfloat16, "
                "double, float, fp8_e4m3, fp8_e5m2, half, int16, int32, int64, int8, uint16, uint32, uint64, uint8)");
  EXPECT_EQ(
      error([](json& t) { t["KernelSpecification"]["Arguments"][1]["Size"] = "ProblemSize[0] * tile_size"; }),
      file +
          ": KernelSpecification.Arguments[1].Size: 'ProblemSize[0] * tile_size': 'tile_size' is a tuning parameter, "
          "and this value may depend on the problem size only (max(tile_size) is the largest of its values)");
  EXPECT_EQ(error([](json& t) {
              t["KernelSpecification"]["KernelFile"] = "missing.cu";
            }).find(file + ": KernelSpecification.KernelFile: 'missing.cu' is not there"),
            0u);
  EXPECT_EQ(error([](json& t) { t["KernelSpecification"].erase("ProblemSize"); }),
            file +
                ": KernelSpecification.ProblemSize: missing: give the problem size, e.g. [4096, 4096] (Kernel Tuner "
                "needs it too)");
  EXPECT_EQ(
      error([](json& t) { t["ConfigurationSpace"]["Conditions"][0]["Expression"] = "block_size_x > 4096"; }),
      file +
          ": ConfigurationSpace.Conditions: no configuration satisfies every condition with at most 1024 threads per "
          "block (1000000 tried at most)");
  EXPECT_EQ(
      error([](json& t) { t["General"]["BenchmarkName"] = "vector-add"; }),
      file +
          ": General.BenchmarkName: 'vector-add' is not a template name (letters, digits and _, not starting with a "
          "digit); give one with --name");

  std::ofstream(dir.File("broken.json")) << "{\"ConfigurationSpace\": {";
  EXPECT_EQ(ImportError(dir.File("broken.json")).find(dir.File("broken.json") + ": line 1, column 24: not JSON ("), 0u);
}

// What once overflowed the stack, took minutes, or was called unsatisfiable.
TEST(T1Import, HostileOrBrokenValuesAndConditionsGetAMessage) {
  TempDir dir;
  const std::string file = dir.File("vector_add.json");
  const auto condition = [&](const std::string& expression) {
    return ImportError(EditedFixture(
        dir, "vector_add", [&](json& t) { t["ConfigurationSpace"]["Conditions"][0]["Expression"] = expression; }));
  };
  std::string terms = "block_size_x > 0";  // 3,000 terms: within the 64 KiB of a JSON string
  for (int i = 1; i < 3000; ++i) terms += " and block_size_x > 0";
  EXPECT_NE(condition(terms).find(file + ": ConfigurationSpace.Conditions[0].Expression: "), std::string::npos);
  EXPECT_NE(condition(terms).find("nests more than 200 levels deep"), std::string::npos);
  EXPECT_NE(condition(std::string(5000, '(') + "block_size_x > 0" + std::string(5000, ')'))
                .find("nests more than 200 levels deep"),
            std::string::npos);
  EXPECT_EQ(
      condition("block_size_x % (tile_size - tile_size) == 0"),
      file +
          ": ConfigurationSpace.Conditions[0].Expression: 'block_size_x % (tile_size - tile_size) == 0': division "
          "by zero at every configuration (the first: block_size_x=128 tile_size=1)");

  const auto values = [&](const json& list) {
    return ImportError(EditedFixture(
        dir, "vector_add", [&](json& t) { t["ConfigurationSpace"]["TuningParameters"][1]["Values"] = list; }));
  };
  json many = json::array();
  for (int i = 0; i < 1000000; ++i) many.push_back(i);
  EXPECT_EQ(values(many),
            file +
                ": ConfigurationSpace.TuningParameters[1].Values: more than 100000 values in one list (the "
                "limit; raise it with TUNER_LIMIT_LIST_VALUES=N)");
  json repeated = json::array();
  for (int i = 0; i < 100000; ++i) repeated.push_back(i);
  repeated.back() = 7;
  EXPECT_EQ(values(repeated), file + ": ConfigurationSpace.TuningParameters[1].Values: 7 is listed twice");
  EXPECT_EQ(values("list(range(1, 100000)) + [99999]"),
            file + ": ConfigurationSpace.TuningParameters[1].Values: 99999 is listed twice");
}

// A file of spaces, a value nested 100,000 deep, a number beyond a double: one short line each.
TEST(T1Import, MalformedJsonIsRefusedInOneShortLine) {
  TempDir dir;
  const struct {
    std::string text, expected;
  } cases[] = {{std::string(1 << 20, ' ') + "x", "not JSON ("},
               {"{\"General\": " + std::string(100000, '[') + std::string(100000, ']') + "}",
                "more than 64 levels of nesting (the limit; raise it with TUNER_LIMIT_DEPTH=N)"},
               {"{\"General\": 1e400}", "the number 1e400 is beyond the range of a double"}};
  for (const auto& c : cases) {
    std::ofstream(dir.File("bad.json")) << c.text;
    const std::string error = ImportError(dir.File("bad.json"));
    EXPECT_NE(error.find(c.expected), std::string::npos) << error.substr(0, 500);
    EXPECT_LT(error.size(), 500u) << error.substr(0, 500);
  }
}

// KernelFile is taken from the description's folder and may not leave it;
// --kernel-file names the file to use instead.
TEST(T1Import, TheKernelFileStaysInTheDescriptionsFolder) {
  TempDir dir, elsewhere;
  const std::string file = dir.File("vector_add.json");
  const auto kernel_file = [&](const std::string& named) {
    return ImportError(
        EditedFixture(dir, "vector_add", [&](json& t) { t["KernelSpecification"]["KernelFile"] = named; }));
  };
  const std::string hint = "; give the kernel to use with --kernel-file FILE";
  EXPECT_EQ(kernel_file("vector_add.cu.hip"),
            file + ": KernelSpecification.KernelFile: 'vector_add.cu.hip' is not there (looked at '" +
                dir.File("vector_add.cu.hip") + "')" + hint);
  EXPECT_EQ(
      kernel_file("../vector_add.cu"),
      file + ": KernelSpecification.KernelFile: '../vector_add.cu' leaves the description's folder ('..')" + hint);
  EXPECT_EQ(kernel_file("/proc/self/environ"),
            file +
                ": KernelSpecification.KernelFile: '/proc/self/environ' is an absolute path, and the file must be in "
                "the description's folder" +
                hint);
  std::ofstream(elsewhere.File("secret.cu")) << "secret\n";
  fs::create_symlink(elsewhere.File("secret.cu"), dir.File("link.cu"));
  EXPECT_EQ(kernel_file("link.cu").find(file + ": KernelSpecification.KernelFile: 'link.cu' is a symbolic link"), 0u);
  fs::create_directory_symlink(elsewhere.File("."), dir.File("outside"));
  EXPECT_NE(kernel_file("outside/secret.cu").find("is a symbolic link, or in a folder that is one"), std::string::npos);
  // Inside the folder: a subfolder; a link is not followed even when it stays inside.
  fs::create_directories(dir.File("sub"));
  fs::copy_file(kFixtures + "/vector_add.cu", dir.File("sub/vector_add.cu"));
  EXPECT_EQ(kernel_file("sub/vector_add.cu"), "");
  fs::create_symlink(dir.File("sub/vector_add.cu"), dir.File("inside.cu"));
  EXPECT_NE(kernel_file("inside.cu").find("is a symbolic link"), std::string::npos);

  // The description's file is wrong: --kernel-file names the one to use, wherever it is.
  const std::string wrong =
      EditedFixture(dir, "vector_add", [](json& t) { t["KernelSpecification"]["KernelFile"] = "vector_add.cu.hip"; });
  fs::copy_file(kFixtures + "/vector_add.cu", elsewhere.File("va.cu"));
  const ImportedTemplate imported = ImportT1(wrong, {"", elsewhere.File("va.cu"), ""});
  EXPECT_EQ(imported.source_path, elsewhere.File("va.cu"));
  EXPECT_NE(imported.description.find("source = \"va.cu\""), std::string::npos);
  EXPECT_EQ(ImportError(wrong, ""), kernel_file("vector_add.cu.hip"));
  try {
    ImportT1(wrong, {"", elsewhere.File("none.cu"), ""});
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "--kernel-file '" + elsewhere.File("none.cu") + "': no such file");
  }
}

// A file written for Kernel Tuner keeps defaults for a standalone build behind #ifndef kernel_tuner
// (benchmark_hub's hotspot): the imported template defines it, so the candidate's values hold.
TEST(T1Import, KernelTunerIsDefinedSoAFilesStandaloneDefaultsStandAside) {
  const ImportedTemplate imported = ImportT1(kFixtures + "/vector_add.json", {});
  EXPECT_NE(imported.description.find("-Dkernel_tuner=1"), std::string::npos) << imported.description;
}

// The kernel file is opened once, part by part from the folder's descriptor, and read from that
// descriptor: a link flipped in the folder while imports run never brings an outside file in.
TEST(T1Import, AKernelFileFlippedToALinkMeanwhileIsNeverReadThroughIt) {
  TempDir dir, elsewhere;
  std::ofstream(elsewhere.File("secret.cu")) << "SECRET outside the bundle\n";
  const std::string description =
      EditedFixture(dir, "vector_add", [](json& t) { t["KernelSpecification"]["KernelFile"] = "k.cu"; });
  const std::string kernel = ReadFileText(kFixtures + "/vector_add.cu");
  std::ofstream(dir.File("regular.cu")) << kernel;
  fs::create_symlink(elsewhere.File("secret.cu"), dir.File("link.cu"));
  std::atomic<bool> done{false};
  std::thread flipper([&] {
    // rename() swaps k.cu between the regular file and the link atomically, as fast as it can.
    for (int i = 0; !done; ++i) {
      fs::copy(dir.File(i % 2 ? "regular.cu" : "link.cu"), dir.File("k.new"), fs::copy_options::copy_symlinks);
      fs::rename(dir.File("k.new"), dir.File("k.cu"));
    }
  });
  int read = 0, refused = 0;
  for (int i = 0; i < 400; ++i) {
    try {
      const ImportedTemplate imported = ImportT1(description, {});
      EXPECT_EQ(imported.source_text.find("SECRET"), std::string::npos) << "import " << i;
      ++read;
    } catch (const UsageError&) {
      ++refused;  // found as a link, or not there between two renames
    }
  }
  done = true;
  flipper.join();
  EXPECT_EQ(read + refused, 400);
}

// A bundle's options name no folder to include from, and its sources include nothing outside their
// folder: `#include <passwd>` with -I/etc would put /etc/passwd into a compile log.
TEST(T1Import, NoIncludeFolderOptionAndNoIncludeOutsideTheFolder) {
  TempDir dir, out;
  for (const json& options : {json::array({"-I/etc"}), json::array({"-I", "/etc"}),
                              json::array({"--include-path=/etc"}), json::array({"-isystem/etc"})}) {
    const std::string error = ImportError(EditedFixture(
        dir, "vector_add", [&](json& t) { t["KernelSpecification"]["CompilerOptions"] = options; }));
    EXPECT_NE(error.find("names a folder to include from"), std::string::npos) << options.dump() << ": " << error;
  }
  for (const char* include : {"#include </etc/passwd>", "#include <../../../../../etc/passwd>",
                              "#include \"../secret.h\""}) {
    const std::string description = EditedFixture(dir, "vector_add", [](json&) {});
    std::ofstream(dir.File("vector_add.cu"), std::ios::app) << include << "\n";
    try {
      WriteImportedTemplate(ImportT1(description, {}), out.File("kernels"));
      ADD_FAILURE() << include << " was imported";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find("outside its folder"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(out.File("kernels")));
  }
}

// An OpenCL kernel, compiled as CUDA with a compatibility header included first.
TEST(T1Import, OpenClThroughAHeader) {
  const ImportedTemplate imported = ImportT1(kFixtures + "/scale_local.json", {});
  EXPECT_EQ(imported.header_path, kFixtures + "/opencl_compat.h");
  EXPECT_EQ(imported.source_path, kFixtures + "/opencl/scale_local.cl");
  // The -include is not passed on; kernel_tuner is defined, as Kernel Tuner defines it.
  EXPECT_NE(imported.description.find("options = [\"-Dkernel_tuner=1\"]"), std::string::npos) << imported.description;
  TempDir out;
  const WrittenTemplate written = WriteImportedTemplate(imported, out.File("k"));
  EXPECT_EQ(written.candidates, 22u);  // Python's count of the same values and conditions
  EXPECT_EQ(ReadFileText(out.File("k/scale_local.cl")), "#include \"opencl_compat.h\"\n#line 1 \"scale_local.cl\"\n" +
                                                            ReadFileText(kFixtures + "/opencl/scale_local.cl"));
  EXPECT_EQ(ReadFileText(out.File("k/opencl_compat.h")), ReadFileText(kFixtures + "/opencl_compat.h"));
  // NVRTC compiles it (no GPU needed), and an error keeps the OpenCL file's own line numbers.
  const TemplateSpec spec = LoadTemplateFile(written.description_path);
  const ParamValues candidate = EnumerateCandidates(spec, DefaultSize(spec)).front();
  const CompileResult compiled = CompileCandidate(spec, candidate, spec.kernel, "sm_80");
  EXPECT_TRUE(compiled.ok) << compiled.log;

  TempDir dir;
  const auto error = [&](const std::function<void(json&)>& edit, const std::string& header = "") {
    json t1 = ReadJson(kFixtures + "/scale_local.json");
    edit(t1);
    std::ofstream(dir.File("scale_local.json")) << t1.dump(2);
    fs::create_directories(dir.File("opencl"));
    fs::copy_file(kFixtures + "/opencl/scale_local.cl", dir.File("opencl/scale_local.cl"),
                  fs::copy_options::overwrite_existing);
    try {
      ImportT1(dir.File("scale_local.json"), {"", "", header});
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const auto no_header = [](json& t) { t["KernelSpecification"].erase("CompilerOptions"); };
  EXPECT_EQ(error(no_header),
            dir.File("scale_local.json") +
                ": KernelSpecification.Language: 'OpenCL': tuner compiles an OpenCL kernel as CUDA, with a header that "
                "defines OpenCL's qualifiers and work-item functions (__kernel, __global, get_global_id, ...) in CUDA "
                "terms included first: give it with --opencl-header FILE, or ship it beside the description and name "
                "it in CompilerOptions: [\"-include\", \"FILE\"]");
  EXPECT_EQ(error(no_header, kFixtures + "/opencl_compat.h"), "");  // the import option
  EXPECT_NE(error([](json&) {}).find("CompilerOptions[1]: 'opencl_compat.h' is not there"),
            std::string::npos);  // named, but not shipped beside it
  EXPECT_NE(error([](json& t) {
              t["KernelSpecification"]["CompilerOptions"][1] = "/etc/passwd";
            }).find("CompilerOptions[1]: '/etc/passwd' is an absolute path"),
            std::string::npos);
  EXPECT_EQ(error([](json& t) { t["KernelSpecification"]["Language"] = "Vulkan"; }),
            dir.File("scale_local.json") +
                ": KernelSpecification.Language: 'Vulkan': tuner compiles CUDA kernels, and OpenCL ones through a "
                "header");
}

// Unknown keys, what goes into the written files, and what is read.
TEST(T1Import, StrictKeysEscapedCommentsAndOnlyRegularFiles) {
  TempDir dir;
  const std::string file = dir.File("vector_add.json");
  const auto error = [&](const std::function<void(json&)>& edit) {
    return ImportError(EditedFixture(dir, "vector_add", edit));
  };
  EXPECT_EQ(error([](json& t) {
              t["ConfigurationSpace"]["Conditons"] = t["ConfigurationSpace"]["Conditions"];
              t["ConfigurationSpace"].erase("Conditions");
            }),
            file +
                ": ConfigurationSpace: 'Conditons' is not a T1 key (did you mean `Conditions`?); the keys here are "
                "TuningParameters, Conditions");
  EXPECT_NE(error([](json& t) { t["KernelSpecification"]["Arguments"][0]["AcessType"] = "ReadWrite"; })
                .find(file + ": KernelSpecification.Arguments[0]: 'AcessType' is not a T1 key (did you mean "
                             "`AccessType`?)"),
            std::string::npos);
  EXPECT_NE(error([](json& t) { t["Kernelspecification"] = json::object(); })
                .find(file + ": (the document): 'Kernelspecification' is not a T1 key (did you mean "
                             "`KernelSpecification`?)"),
            std::string::npos);
  EXPECT_NE(error([](json& t) { t["General"]["a\nb = 1"] = 1; }).find("'a\\nb = 1' is not a T1 key"),
            std::string::npos);

  // A newline in the file's name or a condition stays inside its comment.
  const std::string odd = dir.File("odd\nname = \"x\".json");
  fs::copy_file(kFixtures + "/vector_add.json", odd);
  fs::copy_file(kFixtures + "/vector_add.cu", dir.File("vector_add.cu"), fs::copy_options::overwrite_existing);
  const ImportedTemplate imported = ImportT1(odd, {});
  TempDir out;
  const WrittenTemplate written = WriteImportedTemplate(imported, out.File("k"));
  const TemplateSpec spec = LoadTemplateFile(written.description_path);
  EXPECT_EQ(spec.name, "vector_add");
  EXPECT_NE(ReadFileText(written.description_path).find("from 'odd\\nname = \"x\".json'"), std::string::npos);

  // Not a regular file: refused at once, never read without end.
  EXPECT_EQ(ImportError("/dev/zero"),
            "cannot read the T1 file '/dev/zero': it is not a regular file (a device, a FIFO or a socket)");
  const std::string fifo = dir.File("fifo.json");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(ImportError(fifo),
            "cannot read the T1 file '" + fifo + "': it is not a regular file (a device, a FIFO or a socket)");
  fs::create_directories(dir.File("folder.json"));
  EXPECT_EQ(ImportError(dir.File("folder.json")),
            "cannot read the T1 file '" + dir.File("folder.json") + "': it is a folder; give a file");
}

// A header named NAME.toml must not overwrite the description.
TEST(T1Import, AHeaderNeverTakesTheDescriptionsName) {
  TempDir dir, out;
  const std::string path = EditedFixture(dir, "vector_add", [](json&) {});
  std::ofstream(dir.File("vector_add.toml")) << "#define X 1\n";
  std::ofstream(dir.File("vector_add.cu"), std::ios::app) << "#include \"vector_add.toml\"\n";
  try {
    WriteImportedTemplate(ImportT1(path, {}), out.File("k"));
    FAIL() << "no error";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), path +
                                         ": the kernel's file 'vector_add.toml' would take the description's "
                                         "name; import it with another --name, or rename the file");
  }
  EXPECT_FALSE(fs::exists(out.File("k")));
}

// The command line: files written, --json, a second import of the same file, and bad input that
// writes nothing.
class T1ImportCommand : public ::testing::Test {
 protected:
  std::string Tuner(const std::string& args) const { return std::string(TUNER_EXECUTABLE) + " " + args; }
  TempDir dir_;
};

TEST_F(T1ImportCommand, WritesATemplateTheOtherCommandsTake) {
  const std::string out = dir_.File("kernels");
  const auto result = RunCommand(Tuner("import t1 " + kFixtures + "/vector_add.json --output " + out + " --json"));
  ASSERT_EQ(result.exit_code, 0) << result.err;
  const json doc = json::parse(result.out);
  EXPECT_EQ(doc["name"], "vector_add");
  EXPECT_EQ(doc["candidates"], 22);
  EXPECT_EQ(doc["constraints"][0]["template"], "block_size_x * tile_size <= 2048 && block_size_x <= 1024");
  EXPECT_TRUE(fs::exists(out + "/vector_add.toml"));
  const auto kernels = RunCommand(Tuner("kernels vector_add --templates " + out));
  EXPECT_EQ(kernels.exit_code, 0) << kernels.err;
  const auto again = RunCommand(Tuner("import t1 " + kFixtures + "/vector_add.json --output " + out));
  EXPECT_EQ(again.exit_code, 0) << again.err;  // the same files: nothing to refuse
  EXPECT_NE(again.out.find("tune it with: tuner tune vector_add --templates " + out), std::string::npos);
}

TEST_F(T1ImportCommand, BadInputWritesNothing) {
  const std::string out = dir_.File("kernels");
  const std::string bad = EditedFixture(
      dir_, "vector_add", [](json& t) { t["ConfigurationSpace"]["Conditions"][0]["Expression"] = "block_size_x | 1"; });
  for (const std::string& args : {"import t1 " + bad + " --output " + out,
                                  "import t1 " + kFixtures + "/vector_add.json --name matmul --output " + out,
                                  "import t3 " + kFixtures + "/vector_add.json --output " + out,
                                  "import t1 " + dir_.File("none.json") + " --output " + out}) {
    const auto result = RunCommand(Tuner(args));
    EXPECT_EQ(result.exit_code, 2) << args << "\n" << result.err;
    EXPECT_FALSE(fs::exists(out)) << args;
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
  }
  // A file of the same name with other contents is never replaced.
  fs::create_directories(out);
  std::ofstream(out + "/vector_add.cu") << "// mine\n";
  const auto result = RunCommand(Tuner("import t1 " + kFixtures + "/vector_add.json --output " + out));
  EXPECT_EQ(result.exit_code, 2);
  EXPECT_NE(result.err.find("vector_add.cu' is there with other contents"), std::string::npos) << result.err;
  EXPECT_EQ(ReadFileText(out + "/vector_add.cu"), "// mine\n");
  EXPECT_FALSE(fs::exists(out + "/vector_add.toml"));
}

// A space of billions of combinations: counting it stops at the limit of combinations, or within a
// second of Ctrl-C, and the staging folder goes either way.
TEST_F(T1ImportCommand, ALongCountStopsAtItsLimitOrAtCtrlCAndLeavesNoStagingFolder) {
  const std::string huge = EditedFixture(dir_, "vector_add", [](json& t) {
    for (const char* name : {"p1", "p2", "p3", "p4"})
      t["ConfigurationSpace"]["TuningParameters"].push_back(
          {{"Name", name}, {"Type", "int"}, {"Values", "list(range(100))"}});
  });
  const std::string out = dir_.File("kernels"), staging = dir_.File("tmp");
  fs::create_directories(staging);
  const std::vector<std::string> args = {"import", "t1", huge, "--output", out};
  testing::SpawnedTuner limited(args, {{"TMPDIR", staging}, {"TUNER_LIMIT_COMBINATIONS", "100000"}});
  const testing::CliResult refused = limited.Wait();
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find(huge + ": " + out +
                             "/vector_add.toml: the candidates at ProblemSize_0=1000000: more "
                             "than 100000 parameter combinations tried (the limit; raise it with "
                             "TUNER_LIMIT_COMBINATIONS=N)"),
            std::string::npos)
      << refused.err;
  // Ctrl-C once the staging folder is there, while the count runs.
  testing::SpawnedTuner interrupted(args, {{"TMPDIR", staging}});
  const auto started = std::chrono::steady_clock::now();
  while (fs::is_empty(staging) && std::chrono::steady_clock::now() - started < std::chrono::seconds(10))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_FALSE(fs::is_empty(staging));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // into the count
  kill(interrupted.pid(), SIGINT);
  const auto interrupted_at = std::chrono::steady_clock::now();
  const testing::CliResult stopped = interrupted.Wait();
  EXPECT_LT(std::chrono::steady_clock::now() - interrupted_at, std::chrono::seconds(1));
  EXPECT_EQ(stopped.exit_code, 130) << stopped.err;
  EXPECT_NE(stopped.err.find("walking the candidates of " + out + "/vector_add.toml was interrupted"),
            std::string::npos)
      << stopped.err;
  EXPECT_TRUE(fs::is_empty(staging));
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace
}  // namespace tuner
