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

// Where `name` is found: beside its includer, else in the first include folder that has it; empty
// when nowhere.
fs::path Resolve(const fs::path& includer, const std::string& name, const std::vector<std::string>& include_dirs) {
  std::error_code error;
  if (fs::is_regular_file(includer.parent_path() / name, error)) return includer.parent_path() / name;
  for (const std::string& dir : include_dirs)
    if (fs::is_regular_file(fs::path(dir) / name, error)) return fs::path(dir) / name;
  return {};
}

// `text` is a copy: `found` grows while it is read.
void Follow(const fs::path& includer, std::string text, const std::vector<std::string>& include_dirs,
            std::vector<SourceHeader>& found) {
  for (const std::string& name : QuotedIncludes(text)) {
    const fs::path candidate = Resolve(includer, name, include_dirs);
    if (candidate.empty()) continue;
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
    Follow(candidate, found.back().text, include_dirs, found);
  }
}

}  // namespace

std::vector<SourceHeader> FindSourceHeaders(const std::string& source_path, const std::string& source_text,
                                            const std::vector<std::string>& include_dirs) {
  std::vector<SourceHeader> found;
  Follow(fs::path(source_path), source_text, include_dirs, found);
  return found;
}

std::vector<std::string> IncludeDirs(const std::vector<std::string>& options, const std::string& base) {
  std::vector<std::string> dirs;
  const auto add = [&](const std::string& dir) {
    if (!dir.empty()) dirs.push_back((fs::path(base) / dir).lexically_normal().string());  // an absolute dir stays
  };
  for (std::size_t i = 0; i < options.size(); ++i) {
    const std::string& option = options[i];
    const bool next_is_dir = i + 1 < options.size();
    if (option == "-I" || option == "--include-path") {
      if (next_is_dir) add(options[++i]);
    } else if (option.rfind("--include-path=", 0) == 0) {
      add(option.substr(15));
    } else if (option.rfind("-I", 0) == 0) {
      add(option.substr(2));
    }
  }
  return dirs;
}

}  // namespace tuner
