// The progress report: the bar on a terminal, the plain lines elsewhere (a clock the test moves,
// no sleeping), and the time left.
#include "common/progress_bar.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

namespace tuner {
namespace {

// What the report wrote to a temporary file, as a terminal or a log would receive it.
std::string Written(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  for (int c; (c = std::fgetc(file)) != EOF;) text += static_cast<char>(c);
  return text;
}

std::string LastDraw(const std::string& text) { return text.substr(text.rfind('\r') + 1); }

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  for (std::size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos; at = end + 1)
    lines.push_back(text.substr(at, end - at));
  return lines;
}

// A clock that moves only when the test says so.
struct FakeClock {
  std::chrono::steady_clock::time_point now{};
  void Advance(double seconds) {
    now += std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  }
  ProgressBar::Clock Reader() {
    return [this] { return now; };
  }
};

struct File {
  File() : file(std::tmpfile()) {}
  ~File() { std::fclose(file); }
  std::FILE* file;
};

TEST(ProgressBar, SeveralPartsShowTheirSumsAndTheBestOfAll) {
  File out;
  {
    ProgressBar bar(ProgressStyle::kBar, "tuner tune", true, out.file);
    bar.Update(0, {10, 3, 1, 0.5});
    bar.Update(1, {10, 4, 0, 0.25});
    bar.Update(0, {10, 5, 2, 0.5});  // a part's newer counts replace its older ones
    const std::string line = LastDraw(Written(out.file));
    EXPECT_NE(line.find("9/20"), std::string::npos) << line;
    EXPECT_NE(line.find("failed 2"), std::string::npos) << line;
    EXPECT_NE(line.find("best 0.2500 ms"), std::string::npos) << line;
  }
  EXPECT_EQ(LastDraw(Written(out.file)), "\033[K");  // cleared when done
}

TEST(ProgressBar, OffWritesNothing) {
  File out;
  {
    ProgressBar bar(ProgressStyle::kOff, "tuner tune", true, out.file);
    bar.Update(0, {10, 3, 1, 0.5});
    bar.Finish();
  }
  EXPECT_EQ(Written(out.file), "");
}

TEST(ProgressBar, NoBestYetIsADash) {
  File out;
  ProgressBar bar(ProgressStyle::kBar, "tuner tune", true, out.file);
  bar.Update(0, {4, 1, 1, 0});
  EXPECT_NE(Written(out.file).find("best -"), std::string::npos);
}

TEST(ProgressBar, ATaskShorterThanTenSecondsWritesNoPlainLine) {
  File out;
  FakeClock clock;
  {
    ProgressBar lines(ProgressStyle::kLines, "tuner tune", true, out.file, clock.Reader());
    for (std::size_t done = 1; done <= 100; ++done) {
      clock.Advance(0.09);
      lines.Update(0, {100, done, 0, 1.5});
    }
  }
  EXPECT_EQ(Written(out.file), "");
}

TEST(ProgressBar, PlainLinesComeEveryTenSecondsOrFivePercentAndAtTheEnd) {
  File out;
  FakeClock clock;
  ProgressBar lines(ProgressStyle::kLines, "tuner tune", true, out.file, clock.Reader());
  clock.Advance(9);
  lines.Update(0, {1000, 10, 0, 0});  // quiet for the first 10 s
  clock.Advance(1);
  lines.Update(0, {1000, 20, 1, 2.5});  // 10 s: the first line, 2% done in 10 s: 490 s left
  clock.Advance(5);
  lines.Update(0, {1000, 60, 1, 2.5});  // 4% more, 5 s later: nothing
  lines.Update(0, {1000, 70, 1, 2.25});  // 5% more: a line
  clock.Advance(10);
  lines.Update(0, {1000, 71, 1, 2.25});  // 10 s later: a line
  lines.Update(0, {1000, 72, 1, 2.25});  // nothing
  clock.Advance(30);
  lines.Finish();  // the last counts
  const std::vector<std::string> written = Lines(Written(out.file));
  ASSERT_EQ(written.size(), 5u) << Written(out.file);
  EXPECT_EQ(written[0], "tuner tune: 1000 to do; at the pace of the first 10s, about 8m 20s in all");
  EXPECT_EQ(written[1], "tuner tune: 20/1000  failed 1  best 2.5000 ms  8m 10s left (10s so far)");
  EXPECT_EQ(written[2], "tuner tune: 70/1000  failed 1  best 2.2500 ms  3m 19s left (15s so far)");
  EXPECT_EQ(written[3], "tuner tune: 71/1000  failed 1  best 2.2500 ms  5m 27s left (25s so far)");
  EXPECT_EQ(written[4], "tuner tune: 72/1000  failed 1  best 2.2500 ms  11m 49s left (55s so far)");
  EXPECT_EQ(Written(out.file).find('\r'), std::string::npos) << "no terminal control in a log";
}

TEST(ProgressBar, ALongTaskIsEstimatedOnceAboveTheBar) {
  File out;
  FakeClock clock;
  ProgressBar bar(ProgressStyle::kBar, "tuner tune", true, out.file, clock.Reader());
  bar.Update(0, {4362, 1, 0, 0});
  clock.Advance(10);
  bar.Update(0, {4362, 100, 0, 0.1});
  clock.Advance(10);
  bar.Update(0, {4362, 200, 0, 0.1});
  const std::string text = Written(out.file);
  const std::string estimate = "tuner tune: 4362 to do; at the pace of the first 10s, about 7m 16s in all\n";
  ASSERT_NE(text.find("\r\033[K" + estimate), std::string::npos) << text;
  EXPECT_EQ(text.find(estimate), text.rfind(estimate)) << "once";
  EXPECT_NE(LastDraw(text).find("200/4362"), std::string::npos) << "the bar goes on below it";
}

// A search stops by itself: the candidates are the most it may measure, so it has no bar to fill,
// no time left and no estimate.
TEST(ProgressBar, ASearchCountsWithoutABarOrAnEstimate) {
  File out;
  FakeClock clock;
  ProgressBar bar(ProgressStyle::kBar, "tuner tune", true, out.file, clock.Reader());
  bar.Update(0, {4362, 1, 0, 0, true});
  clock.Advance(10);
  bar.Update(0, {4362, 100, 2, 0.25, true});
  const std::string text = Written(out.file);
  EXPECT_EQ(text.find("in all"), std::string::npos) << text;
  EXPECT_EQ(LastDraw(text), "\033[K[searching] 100 of 4362 searched  failed 2  best 0.2500 ms");
}

TEST(ProgressBar, AShortTaskIsNotEstimated) {
  File out;
  FakeClock clock;
  ProgressBar bar(ProgressStyle::kBar, "tuner tune", true, out.file, clock.Reader());
  clock.Advance(10);
  bar.Update(0, {100, 10, 0, 0});  // 100 s in all
  EXPECT_EQ(Written(out.file).find("in all"), std::string::npos);
}

TEST(ProgressBar, ATaskWithoutABestTimeLeavesItOut) {
  File out;
  FakeClock clock;
  ProgressBar lines(ProgressStyle::kLines, "tuner explore", false, out.file, clock.Reader());
  clock.Advance(12);
  lines.Update(0, {200, 50, 3, 0});
  EXPECT_EQ(Written(out.file), "tuner explore: 50/200  failed 3  36s left (12s so far)\n");
}

TEST(ProgressBar, DurationsReadAsAPersonWouldSayThem) {
  EXPECT_EQ(DurationText(0), "0s");
  EXPECT_EQ(DurationText(44.6), "45s");
  EXPECT_EQ(DurationText(185), "3m 05s");
  EXPECT_EQ(DurationText(7620), "2h 07m");
  EXPECT_EQ(DurationText(-3), "0s");
}

TEST(ProgressBar, StderrOfATerminalGetsTheBarElseLines) {
  EXPECT_EQ(ProgressStyleFor(true), ProgressStyle::kBar);
  EXPECT_EQ(ProgressStyleFor(false), ProgressStyle::kLines);
}

}  // namespace
}  // namespace tuner
