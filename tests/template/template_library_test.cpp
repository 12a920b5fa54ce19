// The templates of several folders: the shipped ones, the user's, a broken one that hides nothing,
// and names that two files claim.
#include "template/template_library.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cli_runner.h"
#include "base/errors.h"
#include "db_test_util.h"
#include "template_fixtures.h"
#include "text_search.h"

namespace tuner {
namespace {

namespace fs = std::filesystem;
using db::testing::TempDir;
using namespace testing;  // RunTuner, the small template

// A valid template called `name`, written as `file`.toml and `file`.cu in `folder`.
std::string WriteTemplate(const std::string& folder, const std::string& file, const std::string& name,
                          const std::string& extra_top_level = "") {
  const std::string top = "name = \"" + name + "\"\nsource = \"" + file + ".cu\"\n" + extra_top_level;
  return WriteTemplateFiles(folder, file, Replaced(kSmallDescription, "name = \"small\"\n", top));
}

// Runs `fn` with $TUNER_TEMPLATES unset (or set to `value`), restoring it afterwards.
template <typename Fn>
void WithTunerTemplates(const char* value, Fn fn) {
  const char* old = std::getenv("TUNER_TEMPLATES");
  const std::string saved = old ? old : "";
  if (value)
    setenv("TUNER_TEMPLATES", value, 1);
  else
    unsetenv("TUNER_TEMPLATES");
  fn();
  if (old)
    setenv("TUNER_TEMPLATES", saved.c_str(), 1);
  else
    unsetenv("TUNER_TEMPLATES");
}

std::string FindError(const TemplateLibrary& library, const std::string& name) {
  try {
    library.Find(name);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(found)";
}

using testing::Contains;

TEST(TemplateLibrary, ABrokenTemplateDoesNotHideTheOthers) {
  TempDir dir;
  WriteTemplate(dir.File(""), "copy", "copy");
  std::ofstream(dir.File("broken.toml")) << "name = \"broken\"\n[launch\n";
  const TemplateLibrary library = LoadTemplateLibrary({dir.File("")});
  ASSERT_EQ(library.templates.size(), 1u);
  EXPECT_EQ(library.templates[0].name, "copy");
  ASSERT_EQ(library.errors.size(), 1u);
  EXPECT_TRUE(Contains(library.errors[0], "broken.toml")) << library.errors[0];
}

// Every description in the shipped folder loads, from there, as the template of its name.
TEST(TemplateLibrary, ShippedTemplatesAllLoad) {
  WithTunerTemplates(nullptr, [] {
    const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
    EXPECT_TRUE(library.errors.empty()) << library.errors.front();
    std::size_t descriptions = 0;
    for (const auto& entry : fs::directory_iterator(TUNER_SHIPPED_TEMPLATES_DIR)) {
      if (entry.path().extension() != ".toml") continue;
      ++descriptions;
      const TemplateSpec spec = LoadTemplateFile(entry.path().string());
      EXPECT_EQ(library.Find(spec.name).description_path, entry.path().string());
    }
    EXPECT_GE(descriptions, 7u);
    EXPECT_EQ(library.templates.size(), descriptions);
  });
}

// A test binary lives in the build folder: nothing is installed beside it, so the shipped templates
// are the source tree's, its fallback; an installed tool has no fallback (install_test).
TEST(TemplateLibrary, InTheBuildFolderTheSourceTreeIsTheFallback) {
  const std::vector<std::string> candidates = ShippedTemplatesCandidates();
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_TRUE(Contains(candidates[0], "/share/tuner/kernel_templates")) << candidates[0];
  EXPECT_EQ(candidates[1], TUNER_SHIPPED_TEMPLATES_DIR);
  EXPECT_EQ(ShippedTemplatesDir(), TUNER_SHIPPED_TEMPLATES_DIR);
}

// A search that found no template at all names the folders it looked in and how to name one,
// never an empty list of known kernels.
TEST(TemplateLibrary, FindingNoTemplateSaysWhereItLooked) {
  TempDir empty;
  const TemplateLibrary library = LoadTemplateLibrary({empty.File("")});
  try {
    library.Find("transpose");
    FAIL() << "an empty library found transpose";
  } catch (const UsageError& e) {
    EXPECT_EQ(std::string(e.what()), "unknown kernel 'transpose': " + NoTemplatesMessage({empty.File("")}));
    EXPECT_TRUE(Contains(e.what(), "looked in " + empty.File(""))) << e.what();
    EXPECT_TRUE(Contains(e.what(), "--templates DIR or $TUNER_TEMPLATES")) << e.what();
  }
}

TEST(TemplateLibrary, UserFolderComesFromTheEnvironmentToo) {
  TempDir dir;
  WriteTemplate(dir.File(""), "copy", "copy");
  WithTunerTemplates(dir.File("").c_str(), [] {
    const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
    EXPECT_NO_THROW(library.Find("copy"));
    EXPECT_NO_THROW(library.Find("transpose"));
  });
}

TEST(TemplateLibrary, AMissingFolderInTheEnvironmentIsNamed) {
  WithTunerTemplates("/no/such/folder", [] {
    try {
      TemplateSearchDirs({});
      FAIL() << "a missing folder in $TUNER_TEMPLATES was skipped";
    } catch (const UsageError& e) {
      EXPECT_STREQ(e.what(), "$TUNER_TEMPLATES '/no/such/folder': not a folder");
    }
  });
}

TEST(TemplateLibrary, AUserTemplateNamedLikeAShippedOneIsRefused) {
  TempDir dir;
  const std::string mine = WriteTemplate(dir.File("mine"), "my_transpose", "transpose");
  WithTunerTemplates(nullptr, [&] {
    const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({dir.File("mine")}));
    const std::string error = FindError(library, "transpose");
    EXPECT_TRUE(Contains(error, mine)) << error;
    EXPECT_TRUE(Contains(error, (fs::path(TUNER_SHIPPED_TEMPLATES_DIR) / "transpose.toml").string())) << error;
    EXPECT_TRUE(Contains(error, "replaces_shipped = true")) << error;
    EXPECT_NO_THROW(library.Find("matmul"));  // the other templates keep working
    ASSERT_EQ(library.errors.size(), 1u);
    EXPECT_EQ(library.errors[0], error);
  });
}

TEST(TemplateLibrary, ReplacingAShippedTemplateIsExplicitAndReported) {
  TempDir dir;
  const std::string mine = WriteTemplate(dir.File("mine"), "transpose", "transpose", "replaces_shipped = true\n");
  WithTunerTemplates(dir.File("mine").c_str(), [&] {
    const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
    EXPECT_TRUE(library.errors.empty()) << library.errors.front();
    ::testing::internal::CaptureStderr();
    const TemplateSpec& found = library.Find("transpose");
    const std::string note = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(found.description_path, mine);
    EXPECT_TRUE(Contains(note, mine) && Contains(note, "replaces the shipped")) << note;
    ::testing::internal::CaptureStderr();
    library.Find("matmul");
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");  // nothing to say about the others
  });
}

TEST(TemplateLibrary, TwoUserFilesOfOneNameAreRefused) {
  TempDir dir;
  const std::string first = WriteTemplate(dir.File("a"), "copy", "copy");
  const std::string second = WriteTemplate(dir.File("b"), "also_copy", "copy");
  const TemplateLibrary library = LoadTemplateLibrary({dir.File("a"), dir.File("b")});
  const std::string error = FindError(library, "copy");
  EXPECT_TRUE(Contains(error, first) && Contains(error, second)) << error;
  // Two files of one folder too.
  WriteTemplate(dir.File("a"), "copy_again", "copy");
  EXPECT_TRUE(Contains(FindError(LoadTemplateLibrary({dir.File("a")}), "copy"), "copy_again.toml"));
}

TEST(TemplateLibrary, OneFolderGivenTwiceIsNotAConflict) {
  TempDir dir;
  WriteTemplate(dir.File("a"), "copy", "copy");
  WithTunerTemplates(dir.File("a").c_str(), [&] {
    const TemplateLibrary library =
        LoadTemplateLibrary(TemplateSearchDirs({dir.File("a"), dir.File("a/"), TUNER_SHIPPED_TEMPLATES_DIR}));
    EXPECT_TRUE(library.errors.empty()) << library.errors.front();
    EXPECT_NO_THROW(library.Find("copy"));
    EXPECT_NO_THROW(library.Find("transpose"));
  });
}

TEST(TemplateLibrary, TheCommandLineRefusesAShadowWithExitTwo) {
  TempDir dir;
  const std::string mine = WriteTemplate(dir.File("mine"), "transpose", "transpose");
  const auto r = RunTuner("kernels transpose --templates " + dir.File("mine"), "env -u TUNER_TEMPLATES");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(Contains(r.err, mine)) << r.err;
  EXPECT_EQ(r.out, "");
}

}  // namespace
}  // namespace tuner
