#include "profilers/shared_library.h"

#include <dlfcn.h>

#include <stdexcept>
#include <utility>

namespace tuner {

std::optional<SharedLibrary> SharedLibrary::OpenFirst(const std::vector<std::string>& candidates,
                                                      std::string* why_not) {
  std::string errors;
  for (const std::string& candidate : candidates) {
    if (void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) return SharedLibrary(handle, candidate);
    const char* error = dlerror();
    errors += (errors.empty() ? "" : "; ") + std::string(error ? error : candidate + ": not loadable");
  }
  if (why_not) *why_not = errors;
  return std::nullopt;
}

SharedLibrary::~SharedLibrary() {
  if (handle_) dlclose(handle_);
}

SharedLibrary::SharedLibrary(SharedLibrary&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), path_(std::move(other.path_)) {}

SharedLibrary& SharedLibrary::operator=(SharedLibrary&& other) noexcept {
  std::swap(handle_, other.handle_);
  std::swap(path_, other.path_);
  return *this;
}

void* SharedLibrary::Address(const char* name) const {
  dlerror();
  void* address = dlsym(handle_, name);
  if (!address) throw std::runtime_error(path_ + " has no symbol " + name + " (an older version?)");
  return address;
}

}  // namespace tuner
