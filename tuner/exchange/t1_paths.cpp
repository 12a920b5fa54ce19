#include "exchange/t1_paths.h"

#include <filesystem>

#include "base/errors.h"
#include "common/input_file.h"
#include "common/option_values.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

// Whether a part of `given` below `folder` is a symbolic link: for the message only, the read
// itself refuses one whatever the folder holds by then.
bool GoesThroughLink(const fs::path& folder, const fs::path& given) {
  fs::path at = folder;
  std::error_code error;
  for (const fs::path& part : given) {
    at /= part;
    if (fs::is_symlink(fs::symlink_status(at, error))) return true;
  }
  return false;
}

// The folder of the description, "." when it names none.
std::string DescriptionFolder(const std::string& description_path) {
  const fs::path folder = fs::path(description_path).parent_path();
  return folder.empty() ? "." : folder.string();
}

}  // namespace

FolderFile ReadInsideFolder(const std::string& description_path, const std::string& field, const std::string& named,
                            const std::string& hint, std::size_t max_bytes) {
  const auto fail = [&](const std::string& problem) {
    throw UsageError(description_path + ": " + field + ": " + Quoted(named) + " " + problem + "; " + hint);
  };
  const fs::path given(named);
  if (named.empty()) fail("is empty");
  if (given.is_absolute()) fail("is an absolute path, and the file must be in the description's folder");
  for (const fs::path& part : given)
    if (part == "..") fail("leaves the description's folder ('..')");
  const fs::path folder = DescriptionFolder(description_path);
  const fs::path place = folder / given;
  if (GoesThroughLink(folder, given))
    fail("is a symbolic link, or in a folder that is one, which tuner does not follow in a bundle (copy the file)");
  std::error_code error;
  if (!fs::exists(place, error)) fail("is not there (looked at " + Quoted(place.string()) + ")");
  if (!fs::is_regular_file(place, error)) fail("is not a regular file");
  try {
    return {place.string(), ReadInputFileInside(folder.string(), given.string(), max_bytes, "the file")};
  } catch (const UsageError& e) {
    fail(std::string("cannot be read as a file of the folder (") + e.what() + ")");
    throw;  // not reached: fail throws
  }
}

}  // namespace tuner
