// Values given on the command line, parsed in one place for every command: each error is a
// UsageError that names the option and the value and says what is allowed, so that every option
// can be checked before any GPU, file or database is touched.
#pragma once

#include <climits>
#include <string>

namespace tuner {

// The value as it appears in a message: in single quotes, control characters escaped (\n, \x1b),
// so that a message stays one line whatever the user typed.
std::string Quoted(const std::string& text);
// The same without the quotes: text from a file or database fit for a terminal, where an escape
// sequence in a template's summary or a GPU's name could otherwise rewrite the screen.
std::string Printable(const std::string& text);

// A whole number, at least `min` and at most `max`. `meaning` (may be empty) is added to a range
// error, e.g. "the most registers a thread can address".
long long ParseWholeNumber(const std::string& option, const std::string& text, long long min, long long max = LLONG_MAX,
                           const std::string& meaning = "");

// A seed: any whole number from 0 to 2^64 - 1.
unsigned long long ParseSeed(const std::string& option, const std::string& text);

// Bytes: a whole number, or with a K suffix of 1024 bytes ("16K", "16KB", "16KiB").
long long ParseBytes(const std::string& option, const std::string& text, long long min, long long max,
                     const std::string& meaning = "");

// Seconds: a finite decimal number, at least `min` and at most `max` (HUGE_VAL: no upper limit);
// "nan", "inf" and anything but plain decimals are refused.
double ParseSeconds(const std::string& option, const std::string& text, double min, double max,
                    const std::string& meaning = "");

// A GPU index as --gpu and --gpus take it: 0 or more (whether this machine has it is known only
// once the GPUs are looked at).
int ParseGpuIndex(const std::string& option, const std::string& text);

}  // namespace tuner
