#include "exchange/imported_results.h"

#include <cctype>
#include <cmath>

#include "base/utc_time.h"
#include "common/input_limits.h"

namespace tuner {

std::string Shown(const nlohmann::ordered_json& value) { return Excerpt(value.dump()); }

void RefuseField(const ImportedResults& results, const std::string& place, const std::string& field,
                 const std::string& problem) {
  throw ImportedFileError("the " + results.format + " '" + results.path + "', " + place + ", field " + Excerpt(field) +
                          ": " + problem + "; nothing was imported");
}

double MillisecondsField(const ImportedResults& results, const std::string& place, const std::string& field,
                         const nlohmann::ordered_json& value) {
  if (!value.is_number()) RefuseField(results, place, field, "is " + Shown(value) + ", not a number of milliseconds");
  const double ms = value.get<double>();
  if (!std::isfinite(ms) || ms < 0) RefuseField(results, place, field, "is " + Shown(value) + ", not a time >= 0");
  return ms;
}

std::string UtcTimestamp(const ImportedResults& results, const std::string& place, const std::string& field,
                         const nlohmann::ordered_json& value) {
  if (!value.is_string()) RefuseField(results, place, field, "is " + Shown(value) + ", not a time stamp");
  const std::string text = value.get<std::string>();
  if (text.empty()) return text;
  // YYYY-MM-DD, a 'T' or a space, hh:mm:ss, then optional fractions and a UTC offset or 'Z'.
  const auto digits = [&](std::size_t from, std::size_t count) {
    if (text.size() < from + count) return false;
    for (std::size_t i = from; i < from + count; ++i)
      if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
    return true;
  };
  const bool shaped = digits(0, 4) && text[4] == '-' && digits(5, 2) && text[7] == '-' && digits(8, 2) &&
                      (text[10] == ' ' || text[10] == 'T') && digits(11, 2) && text[13] == ':' && digits(14, 2) &&
                      text[16] == ':' && digits(17, 2);
  std::size_t end = 19;
  if (shaped && end < text.size() && text[end] == '.')
    for (++end; end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]));) ++end;
  const std::string zone = shaped ? text.substr(end) : std::string();
  if (!shaped || !(zone.empty() || zone == "Z" || zone == "+00:00"))
    RefuseField(results, place, field, "is " + Shown(value) + ", not a UTC time stamp (2023-12-22 09:54:05+00:00)");
  const std::string utc = text.substr(0, 10) + "T" + text.substr(11, 8) + "Z";
  if (!IsUtcTime(utc)) RefuseField(results, place, field, "is " + Shown(value) + ", a time that does not exist");
  if (utc > LatestPlausibleUtcTime()) RefuseField(results, place, field, "is " + Shown(value) + ", a time to come");
  return utc;
}

std::vector<double> RuntimesField(const ImportedResults& results, const std::string& place, const std::string& field,
                                  const nlohmann::ordered_json& value) {
  if (!value.is_array()) RefuseField(results, place, field, "is " + Shown(value) + ", not a list of times");
  std::vector<double> runtimes;
  for (std::size_t i = 0; i < value.size(); ++i)
    runtimes.push_back(MillisecondsField(results, place, field + "[" + std::to_string(i) + "]", value[i]));
  return runtimes;
}

}  // namespace tuner
