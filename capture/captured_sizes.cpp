#include "captured_sizes.h"

#include <filesystem>
#include <system_error>

namespace tuner::capture {

namespace {

namespace fs = std::filesystem;

void RequireSameArguments(const std::vector<CapturedArg>& first, const std::vector<CapturedArg>& more) {
  auto describe = [](const std::vector<CapturedArg>& args) {
    std::string text;
    for (const CapturedArg& a : args) text += (text.empty() ? "" : ", ") + a.name + " " + a.descr;
    return text;
  };
  bool same = first.size() == more.size();
  for (std::size_t i = 0; same && i < first.size(); ++i)
    same = first[i].name == more[i].name && first[i].descr == more[i].descr && first[i].role == more[i].role;
  if (!same)
    throw CaptureError("its arguments (" + describe(more) + ") are not those of the first captured size (" +
                       describe(first) + ")");
}

// An InOut buffer that held zeros at the first size has no file there; once another size needs
// the file (it held other values), the first size gets its file of zeros.
void WriteMissingZeroFiles(const KernelCapture& kernel, const std::vector<CapturedArg>& more) {
  for (std::size_t i = 0; i < more.size(); ++i) {
    const CapturedArg& first = kernel.launch.args[i];
    const std::string path = (fs::path(kernel.folder) / InputFile(first.name)).string();
    if (first.role == ArgRole::kInOut && first.initially_zero && !more[i].initially_zero && !fs::exists(path))
      WriteZeroArray(path, first.descr, first.count);
  }
}

}  // namespace

SizeClaim ClaimSize(KernelCapture& kernel, const std::string& size_key) {
  if (!kernel.seen.insert(size_key).second) return SizeClaim::kSeen;
  if (kernel.folder.empty()) return SizeClaim::kFirst;
  if (kernel.launch.more_sizes.size() + 1 >= kMaxCapturedSizes) return SizeClaim::kOverBound;
  return SizeClaim::kFurther;
}

std::string AddFurtherSize(KernelCapture& kernel, const CapturedSize& size, const CaptureBuffers& capture) {
  const std::string key = SizeKey(size.sizes);
  const fs::path sizes_folder = fs::path(kernel.folder) / fs::path(SizeFolder(key)).parent_path();
  std::error_code error;
  fs::create_directories(sizes_folder, error);
  if (error) throw CaptureError(sizes_folder.string() + ": cannot create the folder: " + error.message());
  CaptureFolder folder(sizes_folder.string(), key);
  CapturedSize captured = size;
  captured.args = capture(folder);
  RequireSameArguments(kernel.launch.args, captured.args);
  captured.folder = SizeFolder(key);
  const std::string path = folder.CommitAs(fs::path(captured.folder).filename().string());
  WriteMissingZeroFiles(kernel, captured.args);
  kernel.launch.more_sizes.push_back(captured);
  try {
    ReplaceTextFile((fs::path(kernel.folder) / (kernel.launch.name + ".toml")).string(),
                    DescriptionToml(kernel.launch));
  } catch (...) {
    kernel.launch.more_sizes.pop_back();  // the description still names the sizes before
    throw;
  }
  return path;
}

}  // namespace tuner::capture
