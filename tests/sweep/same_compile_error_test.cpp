// Fail once, not 4,000 times: the early stop of a sweep whose candidates all fail to compile alike.
#include "sweep/same_compile_error.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

TemplateSpec Spec() {
  TemplateSpec spec;
  spec.name = "conv";
  spec.source_path = "/t/conv.cu";
  spec.params = {{"BLOCK", {64, 128, 256}, {}, false}, {"TILE", {1, 2, 4}, {}, false}, {"ONE", {7}, {}, false},
                 {"STREAMS", {1, 2}, {}, true}};
  return spec;
}

std::vector<ParamValues> All() {
  std::vector<ParamValues> all;
  for (long long block : {64, 128, 256})
    for (long long tile : {1, 2, 4})
      for (long long streams : {1, 2}) all.push_back({{"BLOCK", block}, {"TILE", tile}, {"ONE", 7}, {"STREAMS", streams}});
  return all;
}

Compiled Failed(const ParamValues& params, const std::string& log) {
  Compiled c;
  c.params = params;
  c.compile.result.ok = false;
  c.compile.result.log = log;
  return c;
}

Compiled Succeeded(const ParamValues& params) {
  Compiled c;
  c.params = params;
  c.compile.result.ok = true;
  return c;
}

const char* const kCollision = "/t/conv.cu(3): error: expected a \",\" or \">\"\n";

std::string StopMessage(SameCompileError& same, const std::vector<ParamValues>& all, const std::string& log) {
  for (const ParamValues& contrast : same.Contrasts(all)) same.Add(Failed(contrast, log));
  try {
    same.StopIfConfirmed();
  } catch (const SameCompileErrorStop& e) {
    return e.what();
  }
  return "";
}

// Enumeration order: the first candidates share BLOCK = 64; the contrasts bring other values of
// BLOCK and TILE, and fail alike, so the sweep stops with the error and its likely fix.
TEST(SameCompileError, TheSameErrorForFirstCandidatesAndTheirContrastsStopsTheSweep) {
  const std::vector<ParamValues> all = All();
  SameCompileError same(Spec());
  for (std::size_t i = 0; i < 3; ++i) EXPECT_FALSE(same.Add(Failed(all[i], kCollision)));
  ASSERT_TRUE(same.Add(Failed(all[3], kCollision)));
  const std::vector<ParamValues> contrasts = same.Contrasts(all);
  ASSERT_FALSE(contrasts.empty());
  EXPECT_NE(contrasts.front().at(0).second, 64);  // another BLOCK
  SameCompileError again(Spec());
  for (std::size_t i = 0; i < 4; ++i) again.Add(Failed(all[i], kCollision));
  EXPECT_EQ(StopMessage(again, all, kCollision),
            "every candidate of conv compiled so far (5, whatever their parameters) failed alike, so the sweep stops: "
            "compile: conv.cu(3): error: expected a \",\" or \">\"; likely fix: a tuning parameter is also a name in a "
            "template parameter list and its -D macro rewrote it: rename one of the two");
}

// One configuration's shared memory: the contrasts compile, or fail otherwise, so the sweep goes on.
TEST(SameCompileError, AConfigurationsOwnFailureDoesNotStopTheSweep) {
  const std::vector<ParamValues> all = All();
  const std::string smem = "ptxas info    : Used 8 registers, used 1 barriers, 65536 bytes smem\n";
  SameCompileError same(Spec());
  for (std::size_t i = 0; i < 4; ++i) same.Add(Failed(all[i], smem));
  for (const ParamValues& contrast : same.Contrasts(all)) same.Add(Succeeded(contrast));
  EXPECT_NO_THROW(same.StopIfConfirmed());

  SameCompileError other(Spec());
  for (std::size_t i = 0; i < 4; ++i) other.Add(Failed(all[i], smem));
  EXPECT_EQ(StopMessage(other, all, "ptxas info    : Used 8 registers, used 1 barriers, 50000 bytes smem\n"), "");
}

TEST(SameCompileError, ACompiledCandidateDisarmsItForGood) {
  const std::vector<ParamValues> all = All();
  SameCompileError same(Spec());
  EXPECT_FALSE(same.Add(Succeeded(all[0])));
  for (std::size_t i = 1; i < all.size(); ++i) EXPECT_FALSE(same.Add(Failed(all[i], kCollision)));
  EXPECT_NO_THROW(same.StopIfConfirmed());
}

TEST(SameCompileError, CandidatesRefusedBeforeCompilingDoNotCount) {
  const std::vector<ParamValues> all = All();
  SameCompileError same(Spec());
  Compiled refused = Failed(all[0], "");
  refused.invalid_reason = "too many threads";
  EXPECT_FALSE(same.Add(refused));
  for (std::size_t i = 1; i < 4; ++i) EXPECT_FALSE(same.Add(Failed(all[i], kCollision)));
  EXPECT_TRUE(same.Add(Failed(all[4], kCollision)));
}

}  // namespace
}  // namespace tuner
