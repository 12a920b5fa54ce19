// The portable build's promise (README, "Quick start"): build/bin/tuner runs on a GPU node that has
// only the C library (glibc and the libgcc_s it needs), the driver and libnvrtc. Read from the binary itself: the
// shared libraries it names (DT_NEEDED) and the newest glibc symbol version it needs.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The oldest glibc the binary runs on, as the README states it: glibc 2.34 moved the thread and
// dynamic-loading functions into libc.so.6, so anything linked against Debian 12's glibc needs it.
constexpr const char* kGlibcFloor = "2.34";

std::string Output(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::string output;
  char buffer[4096];
  while (const std::size_t got = std::fread(buffer, 1, sizeof buffer, pipe.get())) output.append(buffer, got);
  return output;
}

std::set<std::string> Matches(const std::string& text, const std::string& pattern) {
  std::set<std::string> found;
  const std::regex expression(pattern);
  for (std::sregex_iterator it(text.begin(), text.end(), expression), end; it != end; ++it) found.insert((*it)[1]);
  return found;
}

std::vector<int> Parts(const std::string& version) {
  std::vector<int> parts;
  std::istringstream text(version);
  for (std::string part; std::getline(text, part, '.');) parts.push_back(std::stoi(part));
  return parts;
}

// Compared part by part as numbers: 2.10 is newer than 2.9, 2.3.4 older than 2.34.
bool Newer(const std::string& a, const std::string& b) { return Parts(a) > Parts(b); }

bool PortableBuild() {
#if TUNER_PORTABLE_BUILD
  return true;
#else
  return false;
#endif
}

TEST(PortableBinary, NeedsOnlyTheCLibraryAndNvrtc) {
  if (!PortableBuild()) GTEST_SKIP() << "configured with -DTUNER_PORTABLE=OFF";
  const std::string dynamic = Output("readelf -d '" TUNER_EXECUTABLE "' 2>&1");
  const std::set<std::string> needed = Matches(dynamic, R"(\(NEEDED\)\s+Shared library: \[([^\]]+)\])");
  ASSERT_FALSE(needed.empty()) << "readelf -d printed no NEEDED entry:\n" << dynamic;
  // libgcc_s comes with every glibc, which loads it itself to cancel threads.
  const std::regex allowed(
      R"((libc|libm|libdl|libpthread|librt)\.so\.\d+|ld-linux-x86-64\.so\.2|libgcc_s\.so\.1|libnvrtc\.so\.\d+)");
  for (const std::string& library : needed) EXPECT_TRUE(std::regex_match(library, allowed)) << library;
}

TEST(PortableBinary, RunsOnTheGlibcTheReadmeStates) {
  if (!PortableBuild()) GTEST_SKIP() << "configured with -DTUNER_PORTABLE=OFF";
  const std::string symbols = Output("objdump -T '" TUNER_EXECUTABLE "' 2>&1");
  const std::set<std::string> versions = Matches(symbols, R"(GLIBC_([0-9.]+)\))");
  ASSERT_FALSE(versions.empty()) << "objdump -T printed no glibc symbol:\n" << symbols.substr(0, 2000);
  for (const std::string& version : versions) {
    EXPECT_FALSE(Newer(version, kGlibcFloor)) << "a symbol needs GLIBC_" << version << ": `objdump -T " TUNER_EXECUTABLE
                                              << " | grep GLIBC_" << version << "` names it";
  }
}

TEST(PortableBinary, VersionsCompareAsNumbers) {
  EXPECT_TRUE(Newer("2.36", "2.34"));
  EXPECT_TRUE(Newer("2.4", "2.3.4"));
  EXPECT_TRUE(Newer("2.10", "2.9"));
  EXPECT_FALSE(Newer("2.34", "2.34"));
  EXPECT_FALSE(Newer("2.2.5", "2.34"));
  EXPECT_FALSE(Newer("2.3.4", "2.34"));
}

}  // namespace
