#include "base/utc_time.h"

#include <gtest/gtest.h>

namespace tuner {
namespace {

TEST(UtcTime, ADayThatExistsInTheFormNowUtcWrites) {
  for (const char* text : {"2026-11-22T01:49:28Z", "2024-02-29T00:00:00Z", "2000-02-29T12:00:00Z",
                           "2016-12-31T23:59:60Z", "1970-01-01T00:00:00Z"})
    EXPECT_TRUE(IsUtcTime(text)) << text;
  for (const char* text :
       {"", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2023-06-31T00:00:00Z", "2023-00-10T00:00:00Z",
        "2023-01-10T24:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2023-01-10 00:00:00Z",
        "2023-01-10T00:00:00+00:00", "+023-01-10T00:00:00Z"})
    EXPECT_FALSE(IsUtcTime(text)) << text;
}

TEST(UtcTime, TheLatestPlausibleTimeIsADayAfterNow) {
  EXPECT_EQ(UtcTimeText(0), "1970-01-01T00:00:00Z");
  const std::string latest = LatestPlausibleUtcTime();
  EXPECT_TRUE(IsUtcTime(latest));
  EXPECT_GT(latest, UtcTimeText(std::time(nullptr) + 23 * 3600));
  EXPECT_LT(latest, UtcTimeText(std::time(nullptr) + 25 * 3600));
}

}  // namespace
}  // namespace tuner
