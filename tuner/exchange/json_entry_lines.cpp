#include "exchange/json_entry_lines.h"

#include <iterator>
#include <set>

#include "base/errors.h"

namespace tuner {

namespace {

// A character iterator that counts the newlines the parser has consumed: at each SAX event the
// count is the line of the token just read (nlohmann's lexer reads no further than a '{' or '[').
class LineCountingIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  LineCountingIterator(const char* at, std::size_t* line) : at_(at), line_(line) {}
  reference operator*() const { return *at_; }
  LineCountingIterator& operator++() {
    if (*at_ == '\n') ++*line_;
    ++at_;
    return *this;
  }
  LineCountingIterator operator++(int) {
    LineCountingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const LineCountingIterator& other) const { return at_ == other.at_; }
  bool operator!=(const LineCountingIterator& other) const { return at_ != other.at_; }

 private:
  const char* at_;
  std::size_t* line_;
};

// Records the line of every container that is a direct element of the root's member `member_`.
class EntryLineRecorder : public nlohmann::json_sax<nlohmann::json> {
 public:
  EntryLineRecorder(std::string member, const std::size_t* line) : member_(std::move(member)), line_(line) {}
  std::vector<std::size_t> lines;

  bool null() override { return Scalar(); }
  bool boolean(bool) override { return Scalar(); }
  bool number_integer(number_integer_t) override { return Scalar(); }
  bool number_unsigned(number_unsigned_t) override { return Scalar(); }
  bool number_float(number_float_t, const string_t&) override { return Scalar(); }
  bool string(string_t&) override { return Scalar(); }
  bool binary(binary_t&) override { return Scalar(); }
  bool start_object(std::size_t) override { return Open(); }
  bool end_object() override { return Close(); }
  bool start_array(std::size_t) override { return Open(); }
  bool end_array() override { return Close(); }
  bool key(string_t& name) override {
    if (depth_ == 1) in_member_ = name == member_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  bool AtEntry() const { return depth_ == 2 && in_member_; }
  bool Scalar() {
    if (AtEntry()) lines.push_back(*line_);
    return true;
  }
  bool Open() {
    if (AtEntry()) lines.push_back(*line_);
    ++depth_;
    return true;
  }
  bool Close() {
    --depth_;
    return true;
  }

  std::string member_;
  const std::size_t* line_;
  int depth_ = 0;
  bool in_member_ = false;
};

// The keys of every open object, to find the first one an object holds twice.
class DuplicateKeyFinder : public nlohmann::json_sax<nlohmann::json> {
 public:
  explicit DuplicateKeyFinder(const std::size_t* line) : line_(line) {}
  std::optional<DuplicateKey> found;

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    keys_.emplace_back();
    return true;
  }
  bool end_object() override {
    keys_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool key(string_t& name) override {
    if (keys_.back().insert(name).second) return true;
    found = DuplicateKey{*line_, name};
    return false;  // the first one is enough
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  const std::size_t* line_;
  std::vector<std::set<std::string>> keys_;
};

// The line and column of byte `offset` (1-based, as nlohmann counts it: the byte after the error).
std::string LineAndColumn(const std::string& text, std::size_t offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i + 1 < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

}  // namespace

nlohmann::ordered_json ParseJsonNamingLine(const std::string& text, const std::string& what) {
  try {
    return nlohmann::ordered_json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    std::string message = e.what();
    const std::size_t colon = message.rfind(": ");
    if (colon != std::string::npos) message = message.substr(colon + 2);
    throw UsageError(what + ": " + LineAndColumn(text, e.byte) + ": not JSON (" + message + ")");
  }
}

std::vector<std::size_t> EntryLines(const std::string& text, const std::string& member) {
  std::size_t line = 1;
  EntryLineRecorder recorder(member, &line);
  const char* begin = text.data();
  nlohmann::json::sax_parse(LineCountingIterator(begin, &line), LineCountingIterator(begin + text.size(), &line),
                            &recorder);
  return recorder.lines;
}

std::optional<DuplicateKey> FindDuplicateKey(const std::string& text) {
  std::size_t line = 1;
  DuplicateKeyFinder finder(&line);
  const char* begin = text.data();
  nlohmann::json::sax_parse(LineCountingIterator(begin, &line), LineCountingIterator(begin + text.size(), &line),
                            &finder);
  return finder.found;
}

std::string EntryPlace(const std::vector<std::size_t>& lines, std::size_t index) {
  if (index < lines.size()) return "line " + std::to_string(lines[index]);
  return "entry " + std::to_string(index + 1);
}

}  // namespace tuner
