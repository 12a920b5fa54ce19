// Parts of a written output, for the tests that read one: whether a part occurs, and how often
// (overlapping occurrences count).
#pragma once

#include <cstddef>
#include <string>

namespace tuner::testing {

inline bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

inline std::size_t Count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace tuner::testing
