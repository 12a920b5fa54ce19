// A time stamp as the store keeps one, "2026-11-22T01:49:28Z" (what NowUtc writes): the one rule
// that the store's checks of incoming rows and the importers of other tools' files share.
#pragma once

#include <ctime>
#include <string>

namespace tuner {

// Whether `text` is YYYY-MM-DDTHH:MM:SSZ naming a moment that exists: a day of its month (29
// February in leap years only), from 1970 on and before 2200 (no GPU result is older; a year 0000
// or 9999 is a made-up stamp that would sort first or last), a leap second allowed.
bool IsUtcTime(const std::string& text);

// `time` as YYYY-MM-DDTHH:MM:SSZ.
std::string UtcTimeText(std::time_t time);

// The latest time stamp a result can carry: a day after now, for clocks a little apart. Later ones
// (a time stamp of 2150) were not measured yet.
std::string LatestPlausibleUtcTime();

}  // namespace tuner
