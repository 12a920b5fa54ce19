#include "exchange/t1_paths.h"

#include <filesystem>

#include "base/errors.h"
#include "common/option_values.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

// Whether `inner` (both made canonical) is `folder` or under it.
bool IsUnder(const fs::path& inner, const fs::path& folder) {
  auto i = inner.begin();
  for (auto f = folder.begin(); f != folder.end(); ++f, ++i)
    if (i == inner.end() || *i != *f) return false;
  return true;
}

}  // namespace

std::string ResolveInsideFolder(const std::string& description_path, const std::string& field,
                                const std::string& named, const std::string& hint) {
  const auto fail = [&](const std::string& problem) {
    throw UsageError(description_path + ": " + field + ": " + Quoted(named) + " " + problem + "; " + hint);
  };
  const fs::path given(named);
  if (named.empty()) fail("is empty");
  if (given.is_absolute()) fail("is an absolute path, and the file must be in the description's folder");
  for (const fs::path& part : given)
    if (part == "..") fail("leaves the description's folder ('..')");
  const fs::path folder = fs::path(description_path).parent_path().empty() ? fs::path(".")
                                                                            : fs::path(description_path).parent_path();
  const fs::path place = folder / given;
  std::error_code error;
  if (!fs::exists(place, error)) fail("is not there (looked at " + Quoted(place.string()) + ")");
  std::error_code place_error, folder_error;
  const fs::path real = fs::canonical(place, place_error);
  const fs::path real_folder = fs::canonical(folder, folder_error);
  if (place_error || folder_error) fail("cannot be followed (" + (place_error ? place_error : folder_error).message() + ")");
  if (!IsUnder(real, real_folder))
    fail("is a symbolic link out of the description's folder (to " + Quoted(real.string()) + ")");
  if (!fs::is_regular_file(real, error)) fail("is not a regular file");
  return place.string();
}

}  // namespace tuner
