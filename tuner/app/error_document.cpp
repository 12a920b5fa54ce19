#include "app/error_document.h"

#include <cstring>
#include <iostream>
#include <nlohmann/json.hpp>

namespace tuner {

bool AsksForJson(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--json") == 0) return true;
  return false;
}

std::string ErrorDocument(const std::string& command, const std::string& message, int exit_code) {
  // A message quoting a user's bytes may hold invalid UTF-8: replaced, never a throw here.
  return nlohmann::ordered_json{{"command", command}, {"error", message}, {"exit_code", exit_code}}.dump(
             2, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

StdoutCount::StdoutCount() : target_(std::cout.rdbuf(this)) {}

StdoutCount::~StdoutCount() { std::cout.rdbuf(target_); }

StdoutCount::int_type StdoutCount::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  ++written_chars_;
  return target_->sputc(traits_type::to_char_type(c));
}

std::streamsize StdoutCount::xsputn(const char* text, std::streamsize count) {
  written_chars_ += static_cast<std::size_t>(count);
  return target_->sputn(text, count);
}

int StdoutCount::sync() { return target_->pubsync(); }

}  // namespace tuner
