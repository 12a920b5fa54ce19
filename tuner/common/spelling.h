// The nearest known name to a misspelt one, for "did you mean `constraints`?" in messages.
#pragma once

#include <string>
#include <vector>

namespace tuner {

// Edits (insert, delete, replace, swap two neighbours) between two words, ignoring case.
std::size_t EditDistance(const std::string& a, const std::string& b);

// " (did you mean `constraints`?)" for the closest of `known` when it is near enough to be a slip
// (one edit in a short word, two in a long one, three in a very long one), else "".
std::string DidYouMean(const std::string& word, const std::vector<std::string>& known);

}  // namespace tuner
