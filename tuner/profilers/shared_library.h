// A shared library opened at run time (dlopen), so the binary starts where it is missing: CUPTI and
// NVML are optional, and a missing one costs only what it measures.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tuner {

class SharedLibrary {
 public:
  // The first of `candidates` (file names searched by the loader, or paths) that opens; nullopt
  // with every attempt's error in `why_not` when none does.
  static std::optional<SharedLibrary> OpenFirst(const std::vector<std::string>& candidates, std::string* why_not);

  ~SharedLibrary();
  SharedLibrary(SharedLibrary&& other) noexcept;
  SharedLibrary& operator=(SharedLibrary&& other) noexcept;
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  // The symbol's address as a function pointer of type F; throws naming the library and symbol.
  template <typename F>
  F Function(const char* name) const {
    return reinterpret_cast<F>(Address(name));
  }
  const std::string& path() const { return path_; }

 private:
  SharedLibrary(void* handle, std::string path) : handle_(handle), path_(std::move(path)) {}
  void* Address(const char* name) const;

  void* handle_ = nullptr;
  std::string path_;
};

}  // namespace tuner
