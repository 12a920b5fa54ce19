#include "exchange/json_entry_lines.h"

#include <iterator>
#include <memory>
#include <unordered_set>
#include <utility>

#include "base/errors.h"
#include "common/input_limits.h"
#include "common/interrupt.h"

namespace tuner {

namespace {

using nlohmann::ordered_json;

// The text as the parser reads it, one character at a time from pieces, with the line and column of
// the character read last and the bytes read so far, which stop at kInputBytes. A run of blanks
// outside a string reaches the parser as one: its lexer keeps every character since the last token
// for its message, so a gibibyte of spaces would otherwise be held, and quoted, whole.
class CharSource {
 public:
  CharSource(const std::function<bool(std::string*)>& chunks, std::string what)
      : chunks_(chunks), what_(std::move(what)), max_bytes_(LimitValue(InputLimit::kInputBytes)) {
    Refill();
  }
  bool at_end() const { return position_ == buffer_.size(); }
  char current() const { return buffer_[position_]; }
  void Advance() {
    last_line_ = line_;
    last_column_ = column_;
    const char read = buffer_[position_];
    Step();
    FollowStrings(read);
    if (!in_string_ && IsBlank(read)) SkipBlanks();
  }
  // Where the character read last is: "line 3, column 7".
  std::string Place() const {
    return "line " + std::to_string(last_line_) + ", column " + std::to_string(last_column_);
  }
  std::size_t line() const { return last_line_; }
  const std::string& what() const { return what_; }

 private:
  static bool IsBlank(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

  void Step() {
    if (buffer_[position_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    if (++position_ == buffer_.size()) Refill();
  }

  // Whether the characters read so far end inside a string, where blanks are its own.
  void FollowStrings(char read) {
    if (!in_string_) {
      in_string_ = read == '"';
    } else if (escaped_) {
      escaped_ = false;
    } else {
      escaped_ = read == '\\';
      in_string_ = read != '"';
    }
  }

  void SkipBlanks() {
    while (!at_end() && IsBlank(buffer_[position_])) Step();
  }

  void Refill() {
    buffer_.clear();
    position_ = 0;
    ThrowIfInterrupted("reading " + what_);
    while (buffer_.empty() && chunks_(&buffer_)) {
      read_bytes_ += buffer_.size();
      if (read_bytes_ > max_bytes_)  // where the text goes past the limit: the next character
        LimitExceeded(what_ + ": line " + std::to_string(line_) + ", column " + std::to_string(column_),
                      InputLimit::kInputBytes);
    }
  }

  const std::function<bool(std::string*)>& chunks_;
  std::string what_;
  std::size_t max_bytes_;
  std::string buffer_;
  std::size_t position_ = 0;
  std::size_t read_bytes_ = 0;
  std::size_t line_ = 1, column_ = 1;            // of the next character
  std::size_t last_line_ = 1, last_column_ = 1;  // of the one read last
  bool in_string_ = false, escaped_ = false;
};

// The parser's view of a CharSource; the end iterator has none.
class SourceIterator {
 public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = char;

  explicit SourceIterator(CharSource* source) : source_(source) {}
  char operator*() const { return source_->current(); }
  SourceIterator& operator++() {
    source_->Advance();
    return *this;
  }
  bool operator==(const SourceIterator& other) const { return AtEnd() == other.AtEnd(); }
  bool operator!=(const SourceIterator& other) const { return !(*this == other); }

 private:
  bool AtEnd() const { return !source_ || source_->at_end(); }
  CharSource* source_;
};

// An open list or object: where it is, how many elements it has, and an object's keys so far.
struct OpenContainer {
  ordered_json* value;
  bool is_entry;  // an entry being built, moved out when it closes
  std::size_t elements = 0;
  std::unordered_set<std::string> keys;
};

// Builds the document as nlohmann's own DOM parser does, checking every limit at the event that
// could pass it, and moving each element of the entries member out as it completes.
class BoundedBuilder : public nlohmann::json_sax<ordered_json> {
 public:
  BoundedBuilder(const CharSource& source, std::string member) : source_(source), member_(std::move(member)) {}
  JsonEntries result;

  bool null() override { return Scalar(nullptr); }
  bool boolean(bool value) override { return Scalar(value); }
  bool number_integer(number_integer_t value) override { return Scalar(value); }
  bool number_unsigned(number_unsigned_t value) override { return Scalar(value); }
  bool number_float(number_float_t value, const string_t&) override { return Scalar(value); }
  bool string(string_t& value) override {
    CheckLength(value);
    return Scalar(std::move(value));
  }
  bool binary(binary_t&) override { return true; }  // JSON text has none
  bool start_object(std::size_t) override { return Open(ordered_json::object()); }
  bool start_array(std::size_t) override { return Open(ordered_json::array()); }
  bool end_object() override { return Close(); }
  bool end_array() override { return Close(); }
  bool key(string_t& name) override {
    CheckLength(name);
    OpenContainer& object = open_.back();
    if (!object.keys.insert(name).second) Fail("the key \"" + Excerpt(name) + "\" is given twice in one object");
    if (open_.size() == 1) in_member_ = !member_.empty() && name == member_;
    key_ = std::move(name);
    return true;
  }
  bool parse_error(std::size_t, const std::string& last_token, const nlohmann::detail::exception& error) override {
    if (dynamic_cast<const nlohmann::detail::out_of_range*>(&error))  // the lexer's number overflow
      Fail("the number " + Excerpt(last_token) + " is beyond the range of a double");
    std::string message = error.what();
    const std::size_t column = message.find("column ");
    const std::size_t colon = message.find(": ", column == std::string::npos ? 0 : column);
    if (colon != std::string::npos) message.erase(0, colon + 2);
    Fail("not JSON (" + Excerpt(message) + ")");
  }

 private:
  [[noreturn]] void Fail(const std::string& problem) const {
    throw UsageError(source_.what() + ": " + source_.Place() + ": " + problem);
  }
  [[noreturn]] void Exceeded(InputLimit limit) const { LimitExceeded(source_.what() + ": " + source_.Place(), limit); }

  void CheckLength(const std::string& text) const {
    if (text.size() > max_value_bytes_) Exceeded(InputLimit::kValueBytes);
  }

  bool AtEntry() const { return open_.size() == 2 && in_member_ && !open_[1].is_entry; }

  // Where a new value goes; nullptr for a scalar entry, which is stored at once.
  ordered_json* Place(ordered_json&& value, bool is_container) {
    if (open_.empty()) {
      result.document = std::move(value);
      return &result.document;
    }
    OpenContainer& parent = open_.back();
    if (++parent.elements > max_entries_) Exceeded(InputLimit::kEntries);
    if (AtEntry()) {
      if (!is_container) {
        result.entries.push_back({std::exchange(key_, {}), source_.line(), std::move(value)});
        return nullptr;
      }
      entry_ = {std::exchange(key_, {}), source_.line(), std::move(value)};
      return &entry_.value;
    }
    if (parent.value->is_array()) {
      parent.value->push_back(std::move(value));
      return &parent.value->back();
    }
    // Appended without ordered_map's search for the key, which key() has ruled out.
    auto& members = static_cast<std::vector<std::pair<const std::string, ordered_json>>&>(
        parent.value->get_ref<ordered_json::object_t&>());
    members.emplace_back(std::exchange(key_, {}), std::move(value));
    return &members.back().second;
  }

  bool Scalar(ordered_json&& value) {
    Place(std::move(value), false);
    return true;
  }

  bool Open(ordered_json&& container) {
    if (open_.size() >= max_depth_) Exceeded(InputLimit::kNestingDepth);
    const bool is_entry = AtEntry();
    open_.push_back({Place(std::move(container), true), is_entry, 0, {}});
    return true;
  }

  bool Close() {
    const bool is_entry = open_.back().is_entry;
    open_.pop_back();
    if (is_entry) result.entries.push_back(std::move(entry_));
    return true;
  }

  const CharSource& source_;
  std::string member_;
  const std::size_t max_depth_ = LimitValue(InputLimit::kNestingDepth);
  const std::size_t max_entries_ = LimitValue(InputLimit::kEntries);
  const std::size_t max_value_bytes_ = LimitValue(InputLimit::kValueBytes);
  std::vector<OpenContainer> open_;
  std::string key_;  // the key of the value that comes next, in an object
  bool in_member_ = false;
  JsonEntry entry_;  // the entry being built
};

}  // namespace

JsonEntries ParseJsonEntries(const std::function<bool(std::string*)>& chunks, const std::string& member,
                             const std::string& what) {
  CharSource source(chunks, what);
  BoundedBuilder builder(source, member);
  ordered_json::sax_parse(SourceIterator(&source), SourceIterator(nullptr), &builder);
  return std::move(builder.result);
}

nlohmann::ordered_json ParseBoundedJson(const std::string& text, const std::string& what) {
  bool given = false;
  const std::function<bool(std::string*)> whole = [&](std::string* chunk) {
    if (given) return false;
    given = true;
    *chunk = text;
    return true;
  };
  return ParseJsonEntries(whole, "", what).document;
}

std::string EntryPlace(const JsonEntry& entry) { return "line " + std::to_string(entry.line); }

}  // namespace tuner
