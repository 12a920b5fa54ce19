// Where the entries of a results file start: a refusal names the line of the configuration it is
// about, and nlohmann-json's document keeps no positions, so a second, SAX pass over the text
// counts the lines.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tuner {

// The document, its member order kept. A syntax error is a UsageError naming `what`, the line and
// the column: "the Kernel Tuner cache 'A100.json': line 7, column 3: syntax error ...".
nlohmann::ordered_json ParseJsonNamingLine(const std::string& text, const std::string& what);

// The line (from 1) on which each element of the top-level member `member` starts, in order: the
// values of an object, the items of an array. Empty when there is no such member. `text` must parse.
std::vector<std::size_t> EntryLines(const std::string& text, const std::string& member);

// A key that an object of the document holds twice: the parser keeps one of them silently, so a
// file that says two things of one configuration would be taken at one of its words.
struct DuplicateKey {
  std::size_t line = 0;  // of the second one
  std::string key;
};

// The first key held twice by one object of `text`, if any. `text` must parse.
std::optional<DuplicateKey> FindDuplicateKey(const std::string& text);

// "line 12" for entry `index`, or "entry 12" when the lines are unknown.
std::string EntryPlace(const std::vector<std::size_t>& lines, std::size_t index);

}  // namespace tuner
