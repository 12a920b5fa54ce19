#include "template/imported_template.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "common/errors.h"
#include "common/option_values.h"
#include "common/whole_file.h"
#include "db/query/random_hex.h"
#include "template/search_space.h"
#include "template/source_headers.h"
#include "template/template_spec.h"
#include "template/template_values.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read " + Quoted(path));
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A file to write: where, and its contents.
struct PlannedFile {
  fs::path path;
  std::string contents;
};

// The description, the source and the headers it includes from beside itself, at their places in `folder`.
std::vector<PlannedFile> PlanFiles(const ImportedTemplate& imported, const fs::path& folder) {
  const std::string source = ReadText(imported.source_path);
  std::vector<PlannedFile> files = {{folder / (imported.name + ".toml"), imported.description},
                                    {folder / imported.source_file_name, source}};
  const fs::path source_folder = fs::path(imported.source_path).parent_path();
  for (const SourceHeader& header : FindSourceHeaders(imported.source_path, source)) {
    const fs::path relative = fs::relative(header.path, source_folder);
    if (relative.empty() || *relative.begin() == "..")
      throw UsageError(imported.source_path + ": includes " + Quoted(header.include_name) +
                       " from outside its folder; copy the kernel and its headers into one folder first");
    files.push_back({folder / relative, header.text});
  }
  return files;
}

// A folder of its own under the system's temporary folder, removed with it.
class StagingFolder {
 public:
  StagingFolder()
      : path_(fs::temp_directory_path() / ("tuner-import-" + std::to_string(getpid()) + "-" + db::RandomHex(4))) {
    fs::create_directories(path_);
  }
  ~StagingFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  StagingFolder(const StagingFolder&) = delete;
  StagingFolder& operator=(const StagingFolder&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

}  // namespace

WrittenTemplate WriteImportedTemplate(const ImportedTemplate& imported, const std::string& folder) {
  std::error_code error;
  if (fs::exists(folder, error) && !fs::is_directory(folder, error))
    throw UsageError("--output " + Quoted(folder) + ": is a file; give a folder");
  const StagingFolder staging;
  for (const PlannedFile& file : PlanFiles(imported, staging.path())) WriteWholeFile(file.path.string(), file.contents);
  WrittenTemplate written;
  try {
    const TemplateSpec spec = LoadTemplateFile((staging.path() / (imported.name + ".toml")).string());
    const ProblemSize size = DefaultSize(spec);
    written.candidates = CountCandidates(spec, size);
    written.size_key = size.Key();
  } catch (const TemplateError& e) {
    std::string what = e.what();  // names the staged file: name the one it would have been
    for (std::size_t at; (at = what.find(staging.path().string())) != std::string::npos;)
      what.replace(at, staging.path().string().size(), folder);
    throw UsageError(imported.origin_path + ": the imported description does not work as a template: " + what);
  }
  const std::vector<PlannedFile> files = PlanFiles(imported, folder);
  for (const PlannedFile& file : files)
    if (fs::exists(file.path, error) && ReadText(file.path.string()) != file.contents)
      throw UsageError(Quoted(file.path.string()) +
                       " is there with other contents; choose another --output folder or --name");
  for (const PlannedFile& file : files) WriteWholeFile(file.path.string(), file.contents);
  written.description_path = files.front().path.string();
  return written;
}

}  // namespace tuner
