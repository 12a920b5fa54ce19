#include "template_library.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include "default_paths.h"
#include "errors.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

std::string ShippedDir() {
  // Built from the source tree: the compile-time path; installed: <prefix>/share/tuner/kernel_templates.
  if (fs::is_directory(TUNER_SHIPPED_TEMPLATES_DIR)) return TUNER_SHIPPED_TEMPLATES_DIR;
  const fs::path exe = SelfExecutable();
  return (exe.parent_path().parent_path() / "share" / "tuner" / "kernel_templates").string();
}

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

}  // namespace

std::vector<std::string> TemplateSearchDirs(const std::vector<std::string>& command_line_dirs) {
  std::vector<std::string> dirs;
  for (const std::string& dir : command_line_dirs) {
    if (!fs::is_directory(dir)) throw UsageError("--templates: '" + dir + "' is not a folder");
    dirs.push_back(dir);
  }
  if (const char* env = std::getenv("TUNER_TEMPLATES"))
    for (const std::string& dir : SplitPathList(env)) dirs.push_back(dir);
  dirs.push_back(ShippedDir());
  return dirs;
}

TemplateLibrary LoadTemplateLibrary(const std::vector<std::string>& dirs) {
  TemplateLibrary library;
  std::set<std::string> seen;
  for (const std::string& dir : dirs) {
    for (const fs::path& file : DescriptionsIn(dir)) {
      try {
        TemplateSpec spec = LoadTemplateFile(file.string());
        if (seen.insert(spec.name).second) library.templates.push_back(std::move(spec));
      } catch (const std::exception& e) {
        library.errors.push_back(e.what());
      }
    }
  }
  return library;
}

const TemplateSpec& TemplateLibrary::Find(const std::string& name) const {
  for (const TemplateSpec& spec : templates)
    if (spec.name == name) return spec;
  std::string message = "unknown kernel '" + name + "'; known kernels:";
  for (const TemplateSpec& spec : templates) message += " " + spec.name;
  for (const std::string& error : errors)
    if (error.find(name) != std::string::npos) message += "\n  (a template failed to load: " + error + ")";
  throw UsageError(message);
}

}  // namespace tuner
