#include "template/template_library.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

#include "base/errors.h"
#include "common/option_values.h"
#include "common/spelling.h"
#include "base/default_paths.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

std::vector<std::string> SplitPathList(const std::string& list) {
  std::vector<std::string> parts;
  std::stringstream in(list);
  for (std::string part; std::getline(in, part, ':');)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

std::vector<fs::path> DescriptionsIn(const std::string& dir) {
  std::vector<fs::path> files;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(dir, error))
    if (entry.path().extension() == ".toml") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

fs::path Canonical(const fs::path& path) {
  std::error_code error;
  const fs::path canonical = fs::weakly_canonical(path, error);
  return error ? path : canonical;
}

struct Loaded {
  TemplateSpec spec;
  bool shipped;
};

// Why `name` cannot be used, or "" when it can: the templates of that name, users' first.
std::string Conflict(const std::string& name, const std::vector<const Loaded*>& user,
                     const std::vector<const Loaded*>& shipped) {
  for (const auto* group : {&user, &shipped})
    if (group->size() > 1)
      return "template '" + name + "' is defined by two files, " + (*group)[0]->spec.description_path + " and " +
             (*group)[1]->spec.description_path + ": rename one (its `name`) or leave its folder out";
  if (!user.empty() && !shipped.empty() && !user[0]->spec.replaces_shipped)
    return "template '" + name + "' of " + user[0]->spec.description_path + " has the name of the shipped template " +
           shipped[0]->spec.description_path + ": rename it (its `name`), or add `replaces_shipped = true` to " +
           user[0]->spec.description_path + " to use it in place of the shipped one";
  return "";
}

// Takes one template per name, in the order names were first met; conflicts go to `library`.
void TakeByName(std::vector<Loaded>& loaded, TemplateLibrary& library) {
  std::vector<std::string> order;
  std::map<std::string, std::pair<std::vector<const Loaded*>, std::vector<const Loaded*>>> by_name;  // user, shipped
  for (const Loaded& l : loaded) {
    auto& [user, shipped] = by_name[l.spec.name];
    if (user.empty() && shipped.empty()) order.push_back(l.spec.name);
    (l.shipped ? shipped : user).push_back(&l);
  }
  for (const std::string& name : order) {
    const auto& [user, shipped] = by_name[name];
    const std::string conflict = Conflict(name, user, shipped);
    if (!conflict.empty()) {
      library.conflicts[name] = conflict;
      library.errors.push_back(conflict);
      continue;
    }
    if (!user.empty() && !shipped.empty())
      library.replaced[name] = "note: template '" + name + "' is " + user[0]->spec.description_path +
                               ", which replaces the shipped " + shipped[0]->spec.description_path +
                               " (replaces_shipped = true)";
    library.templates.push_back((user.empty() ? shipped : user)[0]->spec);
  }
}

}  // namespace

namespace {

// The tool and the tests as built, in the build folder; never an installed copy, which must find
// its own templates (and say so when they are gone) even where the source tree is still there.
bool InBuildTree(const fs::path& exe) {
  const fs::path relative = exe.lexically_relative(Canonical(TUNER_BUILD_DIR));
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

std::vector<std::string> ShippedTemplatesCandidates() {
  const fs::path exe = Canonical(SelfExecutable());
  std::vector<std::string> candidates = {(exe.parent_path().parent_path() / "share" / "tuner" / "kernel_templates").string()};
  if (InBuildTree(exe)) candidates.push_back(TUNER_SHIPPED_TEMPLATES_DIR);
  return candidates;
}

std::string ShippedTemplatesDir() {
  std::error_code error;
  for (const std::string& dir : ShippedTemplatesCandidates())
    if (fs::is_directory(dir, error)) return dir;
  return "";
}

std::string NoTemplatesMessage(const std::vector<std::string>& searched) {
  std::string message = "no kernel templates found; looked in";
  for (const std::string& dir : searched) message += " " + dir;
  return message + "; name a folder of templates with --templates DIR or $TUNER_TEMPLATES (DIR[:DIR...])";
}

namespace {

// `source` names where the folder was given ("--templates", "$TUNER_TEMPLATES").
void RequireFolder(const std::string& source, const std::string& dir) {
  std::error_code error;  // a name too long for the file system is a bad option too, not an internal error
  if (!fs::is_directory(dir, error))
    throw UsageError(source + " " + Quoted(dir) + ": " +
                     (error && error != std::errc::no_such_file_or_directory ? error.message() : "not a folder"));
}

}  // namespace

std::vector<std::string> TemplateSearchDirs(const std::vector<std::string>& command_line_dirs) {
  std::vector<std::string> dirs;
  for (const std::string& dir : command_line_dirs) {
    RequireFolder("--templates", dir);
    dirs.push_back(dir);
  }
  if (const char* env = std::getenv("TUNER_TEMPLATES"))
    for (const std::string& dir : SplitPathList(env)) {
      RequireFolder("$TUNER_TEMPLATES", dir);
      dirs.push_back(dir);
    }
  const std::string shipped = ShippedTemplatesDir();
  if (!shipped.empty()) dirs.push_back(shipped);
  return dirs;
}

TemplateLibrary LoadTemplateLibrary(const std::vector<std::string>& dirs) {
  TemplateLibrary library;
  std::vector<Loaded> loaded;
  std::set<fs::path> files_read;
  const std::string shipped_dir = ShippedTemplatesDir();
  library.searched = dirs;
  if (shipped_dir.empty())
    for (const std::string& candidate : ShippedTemplatesCandidates()) library.searched.push_back(candidate);
  for (const std::string& dir : dirs) {
    const bool shipped = !shipped_dir.empty() && Canonical(dir) == Canonical(shipped_dir);
    for (const fs::path& file : DescriptionsIn(dir)) {
      if (!files_read.insert(Canonical(file)).second) continue;
      try {
        loaded.push_back({LoadTemplateFile(file.string()), shipped});
      } catch (const std::exception& e) {
        library.errors.push_back(e.what());
      }
    }
  }
  TakeByName(loaded, library);
  return library;
}

const TemplateSpec* TemplateLibrary::Lookup(const std::string& name) const {
  const auto conflict = conflicts.find(name);
  if (conflict != conflicts.end()) throw UsageError(conflict->second);
  for (const TemplateSpec& spec : templates) {
    if (spec.name != name) continue;
    const auto note = replaced.find(name);
    if (note != replaced.end()) std::cerr << note->second << "\n";
    return &spec;
  }
  return nullptr;
}

const TemplateSpec& TemplateLibrary::Find(const std::string& name) const {
  if (const TemplateSpec* spec = Lookup(name)) return *spec;
  for (const std::string& error : errors)
    if (error.find("/" + name + ".toml:") != std::string::npos)
      throw UsageError("kernel " + Quoted(name) + " did not load: " + error);
  if (templates.empty() && errors.empty())
    throw UsageError("unknown kernel " + Quoted(name) + ": " + NoTemplatesMessage(searched));
  std::vector<std::string> known;
  for (const TemplateSpec& spec : templates) known.push_back(spec.name);
  std::string message = "unknown kernel " + Quoted(name) + DidYouMean(name, known) + "; known kernels:";
  for (const std::string& k : known) message += " " + k;
  for (const std::string& error : errors)
    if (error.find(name) != std::string::npos) message += "\n  (a template failed to load: " + error + ")";
  throw UsageError(message);
}

}  // namespace tuner
