#include "exchange/imported_template.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli_runner.h"
#include "base/errors.h"
#include "db_test_util.h"

namespace tuner {
namespace {

namespace fs = std::filesystem;
using db::testing::TempDir;
using testing::ReadFileText;

const char* const kSource =
    "#include \"scale.cuh\"\nextern \"C\" __global__ void scale(float* out, int n) { SCALE(out, n); }\n";
const char* const kHeader = "#define SCALE(out, n) if (threadIdx.x < n) out[threadIdx.x] = 2.0f * BLOCK\n";

// A small template as an import would write it, with its source (and a header) in `dir`.
ImportedTemplate Sample(const TempDir& dir, const std::string& kernel = "scale") {
  std::ofstream(dir.File("scale.cu")) << kSource;
  std::ofstream(dir.File("scale.cuh")) << kHeader;
  ImportedTemplate t;
  t.name = "scale";
  t.origin_path = dir.File("scale.json");
  t.source_path = dir.File("scale.cu");
  t.source_text = kSource;
  t.source_file_name = "scale.cu";
  t.description =
      "name = \"scale\"\nkernel = \"" + kernel +
      "\"\nconstraints = [\"BLOCK <= 64\"]\n"
      "[[size]]\nname = \"N\"\ndefault = 64\n[[param]]\nname = \"BLOCK\"\nvalues = [32, 64, 128]\n"
      "[launch]\ngrid = [\"1\"]\nblock = [\"BLOCK\"]\n[[arg]]\nname = \"out\"\ntype = \"float\"\nlength = \"N\"\n"
      "output = true\n[[arg]]\nname = \"n\"\ntype = \"int\"\nvalue = \"N\"\n"
      "[check]\nreference = \"own_configuration\"\n[work]\nbytes = \"4 * N\"\n";
  return t;
}

TEST(ImportedTemplate, WritesTheDescriptionTheSourceAndItsHeaders) {
  TempDir in, out;
  const ImportedTemplate t = Sample(in);
  const WrittenTemplate written = WriteImportedTemplate(t, out.File("k"));
  EXPECT_EQ(written.description_path, out.File("k/scale.toml"));
  EXPECT_EQ(written.candidates, 2u);
  EXPECT_EQ(written.size_key, "64");
  EXPECT_EQ(ReadFileText(out.File("k/scale.cu")), kSource);
  EXPECT_EQ(ReadFileText(out.File("k/scale.cuh")), kHeader);
  EXPECT_NO_THROW(WriteImportedTemplate(t, out.File("k")));  // the same files again: nothing to refuse
}

TEST(ImportedTemplate, AFileWithOtherContentsIsNeverReplaced) {
  TempDir in, out;
  fs::create_directories(out.File("k"));
  std::ofstream(out.File("k/scale.cuh")) << "// mine\n";
  EXPECT_THROW(WriteImportedTemplate(Sample(in), out.File("k")), UsageError);
  EXPECT_EQ(ReadFileText(out.File("k/scale.cuh")), "// mine\n");
  EXPECT_FALSE(fs::exists(out.File("k/scale.toml")));
  EXPECT_FALSE(fs::exists(out.File("k/scale.cu")));
}

TEST(ImportedTemplate, ADescriptionThatDoesNotLoadWritesNothingAndNamesTheDestination) {
  TempDir in, out;
  try {
    WriteImportedTemplate(Sample(in, "no_such_kernel"), out.File("k"));
    FAIL() << "no error";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.find(in.File("scale.json") +
                        ": the imported description does not work as a template: " + out.File("k") + "/scale.toml"),
              0u)
        << what;
  }
  EXPECT_FALSE(fs::exists(out.File("k")));
}

// A write that fails half-way (here the header's folder is a file in the destination)
// leaves no partial template: what it wrote is removed, and what was there stays.
TEST(ImportedTemplate, AFailedWriteLeavesNothingBehind) {
  TempDir in, out;
  ImportedTemplate t = Sample(in);
  std::filesystem::create_directories(in.File("sub"));
  std::ofstream(in.File("sub/scale.cuh")) << kHeader;
  t.source_text = "#include \"sub/scale.cuh\"\n" + std::string(kSource);  // as the import read it
  std::ofstream(in.File("scale.cu")) << t.source_text;
  fs::create_directories(out.File("k"));
  std::ofstream(out.File("k/sub")) << "a file where the header's folder would go\n";
  EXPECT_ANY_THROW(WriteImportedTemplate(t, out.File("k")));
  EXPECT_FALSE(fs::exists(out.File("k/scale.toml")));
  EXPECT_FALSE(fs::exists(out.File("k/scale.cu")));
  EXPECT_FALSE(fs::exists(out.File("k/scale.cuh")));
  EXPECT_EQ(ReadFileText(out.File("k/sub")), "a file where the header's folder would go\n");
}

}  // namespace
}  // namespace tuner
