#include "common/progress_bar.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace tuner {
namespace {

// What the bar wrote to a temporary file, as a terminal would receive it.
std::string Written(std::FILE* file) {
  std::fflush(file);
  std::rewind(file);
  std::string text;
  for (int c; (c = std::fgetc(file)) != EOF;) text += static_cast<char>(c);
  return text;
}

std::string LastLine(const std::string& text) { return text.substr(text.rfind('\r') + 1); }

TEST(ProgressBar, SeveralPartsShowTheirSumsAndTheBestOfAll) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    ProgressBar bar(true, file);
    bar.Update(0, 10, 3, 1, 0.5);
    bar.Update(1, 10, 4, 0, 0.25);
    bar.Update(0, 10, 5, 2, 0.5);  // a part's newer counts replace its older ones
    const std::string line = LastLine(Written(file));
    EXPECT_NE(line.find("9/20"), std::string::npos) << line;
    EXPECT_NE(line.find("failed 2"), std::string::npos) << line;
    EXPECT_NE(line.find("best 0.2500 ms"), std::string::npos) << line;
  }
  EXPECT_EQ(LastLine(Written(file)), "\033[K");  // cleared when done
  std::fclose(file);
}

TEST(ProgressBar, ABarNotForATerminalWritesNothing) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    ProgressBar bar(false, file);
    bar.Update(0, 10, 3, 1, 0.5);
    bar.Finish();
  }
  EXPECT_EQ(Written(file), "");
  std::fclose(file);
}

TEST(ProgressBar, NoBestYetIsADash) {
  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    ProgressBar bar(true, file);
    bar.Update(0, 4, 1, 1, 0);
    EXPECT_NE(Written(file).find("best -"), std::string::npos);
  }
  std::fclose(file);
}

}  // namespace
}  // namespace tuner
