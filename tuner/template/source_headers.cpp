#include "template/source_headers.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "template/template_spec.h"

namespace tuner {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> QuotedIncludes(const std::string& text) {
  static const std::regex include(R"re([ \t]*#[ \t]*include[ \t]*"([^"]+)".*)re");
  std::vector<std::string> names;
  std::istringstream lines(text);
  std::smatch match;
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();  // CRLF files
    if (std::regex_match(line, match, include)) names.push_back(match[1]);
  }
  return names;
}

// `text` is a copy: `found` grows while it is read.
void Follow(const fs::path& includer, std::string text, std::vector<SourceHeader>& found) {
  for (const std::string& name : QuotedIncludes(text)) {
    const fs::path candidate = includer.parent_path() / name;
    std::error_code error;
    if (!fs::is_regular_file(candidate, error)) continue;
    const std::string path = fs::weakly_canonical(candidate).string();
    bool seen = false;
    for (const SourceHeader& h : found) {
      if (h.include_name != name) continue;
      if (h.path != path)
        throw TemplateError(includer.string() + ": #include \"" + name + "\" means both " + h.path + " and " + path +
                            "; give the headers distinct names");
      seen = true;
    }
    if (seen) continue;
    std::ifstream in(candidate, std::ios::binary);
    std::ostringstream contents;
    contents << in.rdbuf();
    if (!in) throw TemplateError(candidate.string() + ": cannot read the header");
    found.push_back({name, path, contents.str()});
    Follow(candidate, found.back().text, found);
  }
}

}  // namespace

std::vector<SourceHeader> FindSourceHeaders(const std::string& source_path, const std::string& source_text) {
  std::vector<SourceHeader> found;
  Follow(fs::path(source_path), source_text, found);
  return found;
}

}  // namespace tuner
