// The folders' dependency rule of ARCHITECTURE.md, checked on the sources: every folder-qualified
// #include "folder/file.h" of a folder names the folder itself or one it may depend on.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

// Each folder (relative to the repository root) and the folders it may include, as in
// ARCHITECTURE.md's table. A folder always may include itself.
const std::map<std::string, std::set<std::string>> kMayInclude = {
    {"tuner/app",
     {"tuner/sweep", "tuner/search", "tuner/measure", "tuner/explore", "tuner/occupancy", "tuner/compile",
      "tuner/exchange", "tuner/template", "tuner/expression", "tuner/cuda", "tuner/common", "tuner/base", "reports",
      "db", "db/query"}},
    {"tuner/sweep",
     {"tuner/search", "tuner/measure", "tuner/occupancy", "tuner/compile", "tuner/template", "tuner/expression",
      "tuner/cuda", "tuner/common", "tuner/base", "reports", "db", "db/query"}},
    {"tuner/search", {"tuner/template", "tuner/common", "tuner/base", "db/query"}},
    {"tuner/measure", {"tuner/profilers", "tuner/template", "tuner/cuda", "tuner/common", "tuner/base"}},
    {"tuner/profilers", {"tuner/cuda", "tuner/common", "tuner/base"}},
    {"tuner/explore",
     {"tuner/occupancy", "tuner/compile", "tuner/template", "tuner/expression", "tuner/cuda", "tuner/common",
      "tuner/base"}},
    {"tuner/occupancy", {"tuner/cuda", "tuner/common", "tuner/base"}},
    {"tuner/compile", {"tuner/template", "tuner/cuda", "tuner/common", "tuner/base"}},
    {"tuner/exchange", {"tuner/template", "tuner/expression", "tuner/common", "tuner/base", "db/query"}},
    {"tuner/template", {"tuner/expression", "tuner/common", "tuner/base"}},
    {"tuner/expression", {"tuner/common", "tuner/base"}},
    {"tuner/cuda", {"tuner/common", "tuner/base"}},
    {"tuner/common", {"tuner/base"}},
    {"tuner/base", {}},
    {"reports", {"tuner/common", "tuner/base", "db", "db/query"}},
    {"db", {"db/query", "tuner/base"}},
    {"db/query", {"tuner/base"}},
};

// The folder an include names: "sweep/sweep.h" -> "tuner/sweep", "db/query/store.h" -> "db/query",
// "reports/x.h" -> "reports"; "" for one without a folder (a library's own header such as npy.h).
std::string IncludedFolder(const std::string& include) {
  const fs::path path(include);
  const std::string folder = path.parent_path().string();
  if (folder.empty()) return "";
  if (folder == "db" || folder == "db/query" || folder == "reports") return folder;
  return "tuner/" + folder;
}

struct Violation {
  std::string file;
  std::string include;
};

std::vector<Violation> Violations(const fs::path& root) {
  static const std::regex kInclude(R"re(^\s*#\s*include\s+"([^"]+)")re");
  std::vector<Violation> found;
  for (const auto& [folder, allowed] : kMayInclude) {
    for (const auto& entry : fs::directory_iterator(root / folder)) {
      const std::string extension = entry.path().extension().string();
      if (extension != ".h" && extension != ".cpp") continue;
      std::ifstream in(entry.path());
      for (std::string line; std::getline(in, line);) {
        std::smatch match;
        if (!std::regex_search(line, match, kInclude)) continue;
        const std::string included = IncludedFolder(match[1]);
        if (included.empty() || included == folder || allowed.count(included)) continue;
        found.push_back({folder + "/" + entry.path().filename().string(), match[1]});
      }
    }
  }
  return found;
}

TEST(Layout, EveryFolderIncludesOnlyTheFoldersBelowIt) {
  for (const Violation& v : Violations(TUNER_SOURCE_DIR))
    ADD_FAILURE() << v.file << " includes \"" << v.include << "\", a folder it may not depend on";
}

TEST(Layout, EveryFolderOfTheToolIsInTheTable) {
  for (const auto& entry : fs::directory_iterator(fs::path(TUNER_SOURCE_DIR) / "tuner")) {
    if (entry.is_directory()) {  // braces: EXPECT_TRUE is an if-else of its own
      EXPECT_TRUE(kMayInclude.count("tuner/" + entry.path().filename().string())) << entry.path();
    }
  }
}

TEST(Layout, AnUpwardIncludeIsFound) {
  const fs::path root = fs::temp_directory_path() / ("layout_test_" + std::to_string(::getpid()));
  for (const auto& [folder, allowed] : kMayInclude) fs::create_directories(root / folder);
  std::ofstream(root / "tuner/measure/worker.cpp") << "#include \"measure/worker.h\"\n#include \"app/commands.h\"\n"
                                                   << "#include \"base/candidate_status.h\"\n"
                                                   << "#include \"db/query/store.h\"\n";
  std::ofstream(root / "db/query/schema.cpp") << "#include <sqlite3.h>\n  #  include \"common/spelling.h\"\n";
  const std::vector<Violation> found = Violations(root);
  fs::remove_all(root);
  ASSERT_EQ(found.size(), 3u);
  std::set<std::string> includes = {found[0].include, found[1].include, found[2].include};
  EXPECT_EQ(includes, (std::set<std::string>{"app/commands.h", "db/query/store.h", "common/spelling.h"}));
}

// Every header `header` includes, directly or through the tool's own headers ("measure/x.h" is
// tuner/measure/x.h, "db/query/x.h" is db/query/x.h); a system or library header (<toml++/toml.h>)
// is listed but not followed.
std::set<std::string> IncludedHeaders(const fs::path& root, const std::string& header) {
  static const std::regex kAnyInclude(R"re(^\s*#\s*include\s+["<]([^">]+)[">])re");
  std::set<std::string> found;
  std::vector<std::string> pending = {header};
  while (!pending.empty()) {
    const std::string name = pending.back();
    pending.pop_back();
    for (const fs::path& path : {root / "tuner" / name, root / name}) {
      if (!fs::is_regular_file(path)) continue;
      std::ifstream in(path);
      for (std::string line; std::getline(in, line);) {
        std::smatch match;
        if (std::regex_search(line, match, kAnyInclude) && found.insert(match[1]).second) pending.push_back(match[1]);
      }
      break;
    }
  }
  return found;
}

TEST(Layout, IncludedHeadersAreFollowedThroughTheToolsOwn) {
  const std::set<std::string> found = IncludedHeaders(TUNER_SOURCE_DIR, "template/search_space.h");
  EXPECT_TRUE(found.count("template/template_spec.h"));
  EXPECT_TRUE(found.count("template/launch_types.h"));
  EXPECT_TRUE(found.count("base/errors.h"));  // through template_spec.h
}

// The worker protocol needs of a template only what a launch is made of: a change to the TOML
// description, its expressions or the search space recompiles neither the protocol nor the worker.
TEST(Layout, TheWorkerProtocolNeedsOnlyTheLaunchTypesOfATemplate) {
  const std::set<std::string> found = IncludedHeaders(TUNER_SOURCE_DIR, "measure/worker_protocol.h");
  EXPECT_TRUE(found.count("template/launch_types.h"));
  for (const char* heavy : {"template/template_spec.h", "template/search_space.h", "expression/expression.h",
                            "template/problem_size.h", "template/pipeline_spec.h"})
    EXPECT_FALSE(found.count(heavy)) << "measure/worker_protocol.h includes " << heavy;
  for (const std::string& header : found) EXPECT_EQ(header.find("toml"), std::string::npos) << header;
}

}  // namespace
