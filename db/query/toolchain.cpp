#include "db/query/toolchain.h"

#include <sstream>

namespace tuner::db {

namespace {

struct Part {
  const char* name;
  std::string Toolchain::*member;
};

constexpr Part kParts[] = {
    {"driver", &Toolchain::driver}, {"runtime", &Toolchain::runtime}, {"nvrtc", &Toolchain::nvrtc}};

}  // namespace

std::string ToText(const Toolchain& toolchain) {
  std::string text;
  for (const Part& part : kParts) {
    const std::string& version = toolchain.*part.member;
    if (version.empty()) continue;
    text += (text.empty() ? "" : ", ") + std::string(part.name) + " " + version;
  }
  return text;
}

Toolchain ParseToolchain(const std::string& text) {
  Toolchain toolchain;
  std::istringstream words(text);
  std::string name, version;
  while (words >> name >> version) {
    if (!version.empty() && version.back() == ',') version.pop_back();
    for (const Part& part : kParts)
      if (name == part.name) toolchain.*part.member = version;
  }
  return toolchain;
}

std::vector<std::string> ToolchainChanges(const Toolchain& stored, const Toolchain& current) {
  std::vector<std::string> changes;
  for (const Part& part : kParts) {
    const std::string& was = stored.*part.member;
    const std::string& now = current.*part.member;
    if (!was.empty() && !now.empty() && was != now)
      changes.push_back(std::string(part.name) + " " + was + " -> " + now);
  }
  return changes;
}

std::string ToolchainNote(const std::string& stored_text, const Toolchain& current) {
  const std::vector<std::string> changes = ToolchainChanges(ParseToolchain(stored_text), current);
  if (changes.empty()) return "";
  std::string joined;
  for (const std::string& change : changes) joined += (joined.empty() ? "" : ", ") + change;
  return "measured with another toolchain (" + joined + "); 'tuner db revalidate' measures it again";
}

}  // namespace tuner::db
