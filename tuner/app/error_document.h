// Under --json, an error is also a JSON document on stdout, so that a script reading stdout sees
// why there is no result; the one-line message on stderr and the exit code stay as they are. A
// command that already wrote its own document (db check --json lists its problems, then fails)
// keeps it as the only one.
#pragma once

#include <atomic>
#include <cstddef>
#include <streambuf>
#include <string>

namespace tuner {

// Whether `--json` is among the arguments.
bool AsksForJson(int argc, char** argv);

// {"command": "tune", "error": MESSAGE, "exit_code": 2}, indented as the commands' documents are.
std::string ErrorDocument(const std::string& command, const std::string& message, int exit_code);

// Counts what is written to std::cout while it lives (its buffer wrapped, restored at the end);
// what is written with C's stdio instead is not counted.
class StdoutCount : private std::streambuf {
 public:
  StdoutCount();
  ~StdoutCount() override;
  StdoutCount(const StdoutCount&) = delete;
  StdoutCount& operator=(const StdoutCount&) = delete;

  std::size_t written_chars() const { return written_chars_; }

 private:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* text, std::streamsize count) override;
  int sync() override;

  std::streambuf* target_;
  std::atomic<std::size_t> written_chars_{0};  // atomic: a sweep's threads may write too
};

}  // namespace tuner
