#include "exchange/imported_template.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>

#include "base/errors.h"
#include "common/input_file.h"
#include "common/interrupt.h"
#include "common/option_values.h"
#include "common/scratch_folder.h"
#include "common/whole_file.h"
#include "template/search_space.h"
#include "template/source_headers.h"
#include "template/template_spec.h"
#include "template/template_values.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

// A file to write: where, and its contents.
struct PlannedFile {
  fs::path path;
  std::string contents;
};

// An #include of an absolute path or through `..`: with the compiler's own folders searched for an
// <...> one, it would read any file of the machine (its text then quoted in a compile log).
void RefuseIncludesOutside(const std::string& path, const std::string& text) {
  static const std::regex include(R"re([ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"].*)re");
  std::istringstream lines(text);
  std::smatch match;
  for (std::string line; std::getline(lines, line);) {
    if (!std::regex_match(line, match, include)) continue;
    const fs::path name(match[1].str());
    const bool leaves = name.is_absolute() || std::any_of(name.begin(), name.end(), [](const fs::path& part) {
                          return part == "..";
                        });
    if (leaves)
      throw UsageError(path + ": includes " + Quoted(match[1].str()) +
                       ", a file outside its folder; copy the kernel and its headers into one folder first");
  }
}

// The headers `text` (at `path`) includes from beside itself, at their places in `folder`, each read
// again once, beneath the source's folder without following a link (common/input_file.h).
void PlanHeaders(const std::string& path, const std::string& text, const fs::path& folder,
                 std::vector<PlannedFile>& files) {
  RefuseIncludesOutside(path, text);
  const fs::path source_folder = fs::path(path).parent_path().empty() ? "." : fs::path(path).parent_path();
  for (const SourceHeader& header : FindSourceHeaders(path, text)) {
    const fs::path relative = fs::relative(header.path, source_folder);
    if (relative.empty() || *relative.begin() == "..")
      throw UsageError(path + ": includes " + Quoted(header.include_name) +
                       " from outside its folder; copy the kernel and its headers into one folder first");
    const std::string read =
        ReadInputFileInside(source_folder.string(), relative.string(), kMaxSourceBytes, "the header");
    if (read != header.text)
      throw UsageError(header.path + ": changed while it was read; import again once the folder stays as it is");
    RefuseIncludesOutside(header.path, read);
    files.push_back({folder / relative, read});
  }
}

// Two files of one name would overwrite each other; one named NAME.toml, the description.
void RefuseCollisions(const ImportedTemplate& imported, const std::vector<PlannedFile>& files) {
  for (std::size_t i = 1; i < files.size(); ++i)
    for (std::size_t k = 0; k < i; ++k)
      if (files[i].path.lexically_normal() == files[k].path.lexically_normal() &&
          files[i].contents != files[k].contents)
        throw UsageError(imported.origin_path + ": the kernel's file " + Quoted(files[i].path.filename().string()) +
                         (k == 0 ? " would take the description's name" : " would be written twice") +
                         "; import it with another --name, or rename the file");
}

// The description, the source (after the header's #include) and the headers, at their places in `folder`.
std::vector<PlannedFile> PlanFiles(const ImportedTemplate& imported, const fs::path& folder) {
  const std::string& source = imported.source_text;
  std::string prelude;
  if (!imported.header_path.empty())  // #line: the compiler's messages keep the source's own line numbers
    prelude = "#include \"" + imported.header_file_name + "\"\n#line 1 \"" + imported.source_file_name + "\"\n";
  std::vector<PlannedFile> files = {{folder / (imported.name + ".toml"), imported.description},
                                    {folder / imported.source_file_name, prelude + source}};
  PlanHeaders(imported.source_path, source, folder, files);
  if (!imported.header_path.empty()) {
    const std::string& header = imported.header_text;
    files.push_back({folder / imported.header_file_name, header});
    PlanHeaders(imported.header_path, header, folder, files);
  }
  RefuseCollisions(imported, files);
  return files;
}

// Writes the files; a failure removes those written and the folders created, and is rethrown.
void WriteAll(const std::vector<PlannedFile>& files, const fs::path& folder) {
  std::vector<fs::path> created;
  std::error_code error;
  for (fs::path f = folder; !f.empty() && !fs::exists(f, error); f = f.parent_path()) created.push_back(f);
  std::vector<fs::path> written;
  try {
    for (const PlannedFile& file : files) {
      if (fs::exists(file.path, error)) continue;  // the same contents: PlanFiles' caller checked
      for (fs::path f = file.path.parent_path(); !f.empty() && !fs::exists(f, error); f = f.parent_path())
        created.push_back(f);
      WriteWholeFile(file.path.string(), file.contents);
      written.push_back(file.path);
    }
  } catch (...) {
    for (const fs::path& path : written) fs::remove(path, error);
    std::sort(created.begin(), created.end(),
              [](const fs::path& a, const fs::path& b) { return a.native().size() > b.native().size(); });
    for (const fs::path& path : created) fs::remove(path, error);  // deepest first; only if left empty
    throw;
  }
}

// A message that names a staged file, naming the one it would have been in `folder` instead.
std::string NamingTheFolder(std::string message, const std::string& staging, const std::string& folder) {
  for (std::size_t at; (at = message.find(staging)) != std::string::npos;) message.replace(at, staging.size(), folder);
  return message;
}

}  // namespace

WrittenTemplate WriteImportedTemplate(const ImportedTemplate& imported, const std::string& folder,
                                      ProgressBar* progress) {
  std::error_code error;
  if (fs::exists(folder, error) && !fs::is_directory(folder, error))
    throw UsageError("--output " + Quoted(folder) + ": is a file; give a folder");
  const ScratchFolder staging("tuner-import");
  for (const PlannedFile& file : PlanFiles(imported, staging.path())) WriteWholeFile(file.path.string(), file.contents);
  WrittenTemplate written;
  try {
    const TemplateSpec spec = LoadTemplateFile((staging.path() / (imported.name + ".toml")).string());
    const ProblemSize size = DefaultSize(spec);
    written.candidates = CountCandidates(spec, size, std::numeric_limits<std::size_t>::max(), progress);
    written.size_key = size.Key();
  } catch (const TemplateError& e) {
    throw UsageError(imported.origin_path + ": the imported description does not work as a template: " +
                     NamingTheFolder(e.what(), staging.path().string(), folder));
  } catch (const UsageError& e) {  // a limit passed while counting
    throw UsageError(imported.origin_path + ": " + NamingTheFolder(e.what(), staging.path().string(), folder));
  } catch (const InterruptedError& e) {
    throw InterruptedError(NamingTheFolder(e.what(), staging.path().string(), folder));
  }
  const std::vector<PlannedFile> files = PlanFiles(imported, folder);
  for (const PlannedFile& file : files)
    if (fs::exists(file.path, error) && ReadInputFile(file.path.string(), kMaxSourceBytes, "the file") != file.contents)
      throw UsageError(Quoted(file.path.string()) +
                       " is there with other contents; choose another --output folder or --name");
  WriteAll(files, folder);
  written.description_path = files.front().path.string();
  return written;
}

}  // namespace tuner
