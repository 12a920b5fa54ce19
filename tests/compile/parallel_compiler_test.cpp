// NVRTC processes of the compile pool, with a fake `tuner __compile` (a shell script): a process
// that dies costs its candidate only (a compile error saying so), and the next candidate of that
// slot starts a new process, which then serves the slot's later candidates.
#include "compile/parallel_compiler.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "db_test_util.h"
#include "template/template_library.h"

namespace tuner {
namespace {

using db::testing::TempDir;

int LinesIn(const std::string& file) {
  std::ifstream in(file);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

TEST(ParallelCompiler, AProcessThatDiesCostsOneCandidateAndANewOneServesTheNext) {
  ::unsetenv("TUNER_COMPILE");  // processes, not threads
  TempDir dir;
  const std::string server = dir.File("fake_compile_server.sh");
  std::ofstream(server) << "#!/bin/sh\n"
                        << "echo started >> '" << dir.File("starts") << "'\n"
                        << "if [ ! -e '" << dir.File("crashed") << "' ]; then\n"
                        << "  : > '" << dir.File("crashed") << "'; read line; kill -KILL $$\n"
                        << "fi\n"
                        << "while read line; do echo '{\"ok\": false, \"log\": \"answered by a new process\"}'; done\n";
  ASSERT_EQ(chmod(server.c_str(), 0755), 0);
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  const TemplateSpec& spec = library.Find("transpose");
  const ParamValues params = {{"VARIANT", 1}, {"TILE", 32}, {"ROWS", 8}, {"PAD", 1}};
  ParallelCompiler compiler(1, dir.File("cache"), server);

  CachedCompile first = compiler.Compile(0, spec, params, "transpose", "sm_90");
  EXPECT_FALSE(first.result.ok);
  EXPECT_EQ(first.result.log, "the NVRTC process failed on this candidate: the worker was killed by signal Killed");
  for (int i = 0; i < 3; ++i) {
    const CachedCompile next = compiler.Compile(0, spec, params, "transpose", "sm_90");
    EXPECT_FALSE(next.result.ok);
    EXPECT_EQ(next.result.log, "answered by a new process");
  }
  EXPECT_EQ(LinesIn(dir.File("starts")), 2);  // the one that died and the one that replaced it
}

}  // namespace
}  // namespace tuner
