#include "base/utc_time.h"

#include <cctype>
#include <cstdio>

namespace tuner {

namespace {

bool IsLeapYear(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int year, int month) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeapYear(year) ? 29 : days[month - 1];
}

}  // namespace

bool IsUtcTime(const std::string& text) {
  int year, month, day, hour, minute, second, length = 0;
  if (text.size() != 20 || std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ%n", &year, &month, &day, &hour, &minute,
                                       &second, &length) != 6)
    return false;
  for (const std::size_t digit : {0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18})
    if (!std::isdigit(static_cast<unsigned char>(text[digit]))) return false;
  return length == 20 && year >= 1970 && year < 2200 && month >= 1 && month <= 12 && day >= 1 &&
         day <= DaysInMonth(year, month) && hour < 24 && minute < 60 && second <= 60;
}

std::string UtcTimeText(std::time_t time) {
  std::tm utc{};
  gmtime_r(&time, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string LatestPlausibleUtcTime() { return UtcTimeText(std::time(nullptr) + 24 * 3600); }

}  // namespace tuner
