#include "profilers/cupti_library.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace tuner {
namespace {

TEST(CuptiLibrary, TheLoaderFirstThenEachToolkitFolder) {
  const auto candidates = CuptiCandidates({"/opt/cuda"});
  ASSERT_FALSE(candidates.empty());
  EXPECT_EQ(candidates.front(), "libcupti.so.13");
  for (const char* path : {"/opt/cuda/lib64/libcupti.so.13", "/opt/cuda/extras/CUPTI/lib64/libcupti.so.13",
                           "/opt/cuda/targets/x86_64-linux/lib/libcupti.so.13"})
    EXPECT_NE(std::find(candidates.begin(), candidates.end(), path), candidates.end()) << path;
}

TEST(CuptiLibrary, TheEnvironmentComesBeforeTheBuildsToolkit) {
  setenv("CUDA_HOME", "/from/cuda_home", 1);
  const auto dirs = ToolkitDirs();
  unsetenv("CUDA_HOME");
  ASSERT_FALSE(dirs.empty());
  EXPECT_EQ(dirs.front(), "/from/cuda_home");
  EXPECT_EQ(dirs.back(), "/usr/local/cuda");
}

TEST(SharedLibrary, AMissingLibrarySaysWhereItLooked) {
  std::string why;
  EXPECT_FALSE(SharedLibrary::OpenFirst({"/nowhere/libnothing.so.1", "libnothing-either.so.7"}, &why));
  EXPECT_NE(why.find("/nowhere/libnothing.so.1"), std::string::npos) << why;
  EXPECT_NE(why.find("libnothing-either.so.7"), std::string::npos) << why;
}

TEST(SharedLibrary, AMissingSymbolIsNamed) {
  std::string why;
  auto library = SharedLibrary::OpenFirst({"libc.so.6"}, &why);
  ASSERT_TRUE(library) << why;
  EXPECT_NE(library->Function<int (*)()>("getpid"), nullptr);
  try {
    library->Function<int (*)()>("no_such_function_anywhere");
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_function_anywhere"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tuner
