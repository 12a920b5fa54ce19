#include "common/input_limits.h"

#include <cstdlib>

#include "base/errors.h"
#include "base/number_text.h"
#include "common/option_values.h"

namespace tuner {

namespace {

constexpr std::size_t kExcerptChars = 200;

}  // namespace

// The defaults sit well above what real inputs need (benchmark_hub's descriptions are under 10 KB,
// the largest published caches inflate to ~100 MiB with ~10^5 entries nested 3 deep), and low enough
// that a crafted input fails in seconds within a few GiB.
const std::vector<InputLimitInfo>& InputLimits() {
  static const std::vector<InputLimitInfo> limits = {
      {InputLimit::kNestingDepth, "TUNER_LIMIT_DEPTH", 64, "levels of nesting"},
      {InputLimit::kInputBytes, "TUNER_LIMIT_INPUT_BYTES", std::size_t{1} << 30, "bytes of input text"},
      {InputLimit::kDescriptionBytes, "TUNER_LIMIT_DESCRIPTION_BYTES", std::size_t{16} << 20,
       "bytes of a description or kernel source"},
      {InputLimit::kEntries, "TUNER_LIMIT_ENTRIES", 1000000, "entries in one list, object or file"},
      {InputLimit::kLineBytes, "TUNER_LIMIT_LINE_BYTES", std::size_t{16} << 20, "bytes in one line"},
      {InputLimit::kValueBytes, "TUNER_LIMIT_VALUE_BYTES", std::size_t{64} << 10, "bytes in one string value"},
      {InputLimit::kEvaluatorSteps, "TUNER_LIMIT_STEPS", 10000000, "evaluation steps"},
      {InputLimit::kListValues, "TUNER_LIMIT_LIST_VALUES", 100000, "values in one list"},
      {InputLimit::kCombinations, "TUNER_LIMIT_COMBINATIONS", 300000000, "parameter combinations tried"},
  };
  return limits;
}

namespace {

const InputLimitInfo& Info(InputLimit limit) { return InputLimits()[static_cast<std::size_t>(limit)]; }

}  // namespace

std::size_t LimitValue(InputLimit limit) {
  const InputLimitInfo& info = Info(limit);
  const char* set = std::getenv(info.env_var);
  if (!set) return info.default_value;
  const std::optional<WholeNumberText> number = ReadWholeNumber(set);
  if (!number || number->negative || !number->magnitude || *number->magnitude < 1 ||
      *number->magnitude > static_cast<unsigned long long>(static_cast<std::size_t>(-1)))
    throw UsageError(std::string(info.env_var) + "=" + Quoted(set) + ": not a whole number >= 1 (the limit of " +
                     info.what + "; unset it for the default, " + std::to_string(info.default_value) + ")");
  return static_cast<std::size_t>(*number->magnitude);
}

std::string LimitMessage(InputLimit limit) {
  const InputLimitInfo& info = Info(limit);
  return "more than " + std::to_string(LimitValue(limit)) + " " + info.what + " (the limit; raise it with " +
         info.env_var + "=N)";
}

void LimitExceeded(const std::string& where, InputLimit limit) {
  throw UsageError(where + ": " + LimitMessage(limit) + "; nothing was changed");
}

std::string Excerpt(const std::string& text) {
  // Cut where the printable form reaches the bound (an escaped byte takes four characters), never
  // inside a UTF-8 character.
  std::string shown;
  std::size_t cut = 0;
  for (; cut < text.size(); ++cut) {
    const bool starts_character = (static_cast<unsigned char>(text[cut]) & 0xC0) != 0x80;
    if (starts_character && shown.size() >= kExcerptChars) break;
    shown += Printable(text.substr(cut, 1));
  }
  if (cut == text.size()) return shown;
  return shown + "... (" + std::to_string(text.size() - cut) + " more bytes)";
}

}  // namespace tuner
