#include "common/spelling.h"

#include <algorithm>
#include <cctype>

namespace tuner {

namespace {

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::size_t AllowedEdits(const std::string& word) {
  if (word.size() <= 5) return 1;
  return word.size() <= 10 ? 2 : 3;
}

}  // namespace

// Optimal string alignment: Levenshtein plus the swap of two neighbours, the commonest slip.
std::size_t EditDistance(const std::string& a_text, const std::string& b_text) {
  const std::string a = Lower(a_text), b = Lower(b_text);
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t replace = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + replace});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::string DidYouMean(const std::string& word, const std::vector<std::string>& known) {
  const std::string* best = nullptr;
  std::size_t best_distance = AllowedEdits(word) + 1;
  for (const std::string& candidate : known) {
    const std::size_t distance = EditDistance(word, candidate);
    if (distance < best_distance && candidate != word) {
      best = &candidate;
      best_distance = distance;
    }
  }
  return best ? " (did you mean `" + *best + "`?)" : "";
}

}  // namespace tuner
