// A phase that shows nothing else says it is still under way after 10 s, then every 10 s.
#include "common/still_notice.h"

#include <gtest/gtest.h>

#include <sstream>

namespace tuner {
namespace {

struct FakeClock {
  std::chrono::steady_clock::time_point t{};
  void Advance(double s) { t += std::chrono::milliseconds(static_cast<long long>(s * 1000)); }
  StillNotice::Clock Now() {
    return [this] { return t; };
  }
};

TEST(StillNotice, SaysNothingForItsFirstTenSecondsThenEveryTen) {
  FakeClock clock;
  std::ostringstream out;
  StillNotice notice("tuner tune: gemm", &out, clock.Now());
  int made = 0;
  const auto doing = [&] {
    ++made;
    return "compiling its first candidates";
  };
  clock.Advance(9.9);
  notice.Tick(doing);
  EXPECT_EQ(out.str(), "");
  EXPECT_EQ(made, 0);
  clock.Advance(0.2);
  notice.Tick(doing);
  notice.Tick(doing);
  EXPECT_EQ(out.str(), "tuner tune: gemm: still compiling its first candidates (10 s)\n");
  clock.Advance(25);  // one line for a late tick, not one per 10 s missed
  notice.Tick(doing);
  EXPECT_EQ(made, 2);
  EXPECT_NE(out.str().find("(35 s)\n"), std::string::npos) << out.str();
  clock.Advance(4);
  notice.Tick(doing);
  EXPECT_EQ(made, 2);
}

TEST(StillNotice, ARestartWaitsTenSecondsAgain) {
  FakeClock clock;
  std::ostringstream out;
  StillNotice notice("tuner tune: gemm", &out, clock.Now());
  clock.Advance(12);
  notice.Restart();
  clock.Advance(5);
  notice.Tick([] { return "running the reference"; });
  EXPECT_EQ(out.str(), "");
}

}  // namespace
}  // namespace tuner
