// JSON from someone else's file, read within common/input_limits' limits (nesting depth, text size,
// entries per list or object, string length) while it is parsed, and with the line where each entry
// of a results file starts: a refusal names the line of the configuration it is about. The entries
// of the member that holds the configurations are taken out one by one as the parser completes each,
// so the document never holds them all in one object (an ordered object finds a key by scanning).
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tuner {

// One element of the entries member: an object's value with its key, or an array's item ("" key).
struct JsonEntry {
  std::string key;
  std::size_t line = 0;  // where it starts, from 1
  nlohmann::ordered_json value;
};

struct JsonEntries {
  // The document, member order kept, with the entries member left empty ({} or []) where it was.
  nlohmann::ordered_json document;
  std::vector<JsonEntry> entries;
};

// Parses the text that `chunks` gives (see exchange/gzip_text.h: TextChunks), taking the elements of
// the top-level member `member` out as entries. A syntax error, a number beyond a double, a key
// given twice in one object, or a limit passed is a UsageError naming `what`, the line and the
// column, quoting at most ~200 characters: "the Kernel Tuner cache 'A100.json': line 7, column 3: ...".
JsonEntries ParseJsonEntries(const std::function<bool(std::string*)>& chunks, const std::string& member,
                             const std::string& what);

// A whole document within the limits (no member taken out), refused as ParseJsonEntries refuses.
nlohmann::ordered_json ParseBoundedJson(const std::string& text, const std::string& what);

// "line 12" for an entry.
std::string EntryPlace(const JsonEntry& entry);

}  // namespace tuner
