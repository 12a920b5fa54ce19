#include "base/default_paths.h"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace tuner {

namespace {

std::string Environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

std::string HomeDir() {
  std::string home = Environment("HOME");
  if (home.empty())
    if (const passwd* entry = getpwuid(getuid())) home = entry->pw_dir ? entry->pw_dir : "";
  if (home.empty()) throw std::runtime_error("cannot find the home folder: set HOME, or pass --db PATH");
  return home;
}

// $variable if set and absolute (the XDG rule), else ~/fallback.
std::string XdgDir(const char* variable, const char* fallback) {
  const std::string value = Environment(variable);
  return !value.empty() && value[0] == '/' ? value : HomeDir() + "/" + fallback;
}

}  // namespace

std::string ResolveDatabasePath(const std::string& command_line) {
  if (!command_line.empty()) return command_line;
  const std::string from_environment = Environment("TUNER_DB");
  if (!from_environment.empty()) return from_environment;
  return XdgDir("XDG_DATA_HOME", ".local/share") + "/tuner/tuner.db";
}

std::string SelfExecutable() {
  std::error_code error;
  return std::filesystem::read_symlink("/proc/self/exe", error).string();
}

std::string CacheDir() { return XdgDir("XDG_CACHE_HOME", ".cache") + "/tuner"; }

}  // namespace tuner
