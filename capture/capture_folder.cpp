#include "capture_folder.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace tuner::capture {

namespace {

namespace fs = std::filesystem;

constexpr int kMaxNumberedNames = 1000;

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw CaptureError(path + ": cannot read the kernel source: " + std::strerror(errno));
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Renames without replacing: an existing folder of that name (even an empty one) is never touched.
bool RenameNoReplace(const std::string& from, const std::string& to) {
  if (renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0) return true;
  if (errno == EEXIST) return false;
  throw CaptureError("cannot move the capture " + from + " to " + to + ": " + std::strerror(errno));
}

}  // namespace

CaptureFolder::CaptureFolder(const std::string& parent, const std::string& name) : parent_(parent), name_(name) {
  std::error_code error;
  if (!fs::is_directory(parent_, error)) throw CaptureError(parent_ + ": the capture folder's parent does not exist");
  std::string pattern = (fs::path(parent_) / (".capture-" + name_ + ".partial-XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw CaptureError(parent_ + ": cannot create a folder: " + std::strerror(errno));
  temporary_ = pattern;
}

CaptureFolder::~CaptureFolder() {
  if (committed_) return;
  std::error_code ignored;
  fs::remove_all(temporary_, ignored);
}

std::string CaptureFolder::Path(const std::string& relative) const {
  return (fs::path(temporary_) / relative).string();
}

std::unique_ptr<npy::Writer> CaptureFolder::NewArray(const std::string& relative, const std::string& descr,
                                                     std::uint64_t count) {
  CreateFolderOf(relative);
  return std::make_unique<npy::Writer>(Path(relative), descr, count);
}

void CaptureFolder::Remove(const std::string& relative) { std::remove(Path(relative).c_str()); }

void CaptureFolder::WriteText(const std::string& relative, const std::string& text) {
  std::ofstream out(Path(relative), std::ios::binary);
  out << text;
  out.close();
  if (!out) throw CaptureError(Path(relative) + ": cannot write the file");
}

void CaptureFolder::CreateFolderOf(const std::string& relative) {
  std::error_code error;
  fs::create_directories(fs::path(Path(relative)).parent_path(), error);
  if (error) throw CaptureError(Path(relative) + ": cannot create its folder: " + error.message());
}

namespace {

// Where a kernel file goes inside the capture: its place beside the source, or, for a header from
// above the source's folder ("../common.cuh"), "included/common.cuh" (numbered when names clash),
// so that nothing is written outside the capture.
class CapturePlaces {
 public:
  explicit CapturePlaces(fs::path source_dir) : source_dir_(std::move(source_dir)) {}

  std::string Of(const fs::path& file) {
    const auto known = places_.find(file.string());
    if (known != places_.end()) return known->second;
    std::string place = file.lexically_relative(source_dir_).string();
    if (place.empty() || place.rfind("..", 0) == 0) place = Outside(file.filename().string());
    taken_.insert(place);
    return places_[file.string()] = place;
  }

 private:
  std::string Outside(const std::string& name) {
    std::string place = "included/" + name;
    for (int n = 2; taken_.count(place); ++n) place = "included/" + std::to_string(n) + "/" + name;
    return place;
  }

  fs::path source_dir_;
  std::map<std::string, std::string> places_;  // the file's normal path -> its place in the capture
  std::set<std::string> taken_;
};

}  // namespace

std::string CaptureFolder::CopySource(const std::string& source_path) {
  static const std::regex kQuotedInclude(R"re(^(\s*#\s*include\s*")([^"]+)("[\s\S]*)$)re");
  const fs::path source = fs::absolute(source_path).lexically_normal();
  CapturePlaces places(source.parent_path());
  std::set<std::string> copied;
  std::vector<fs::path> pending = {source};
  while (!pending.empty()) {
    const fs::path file = pending.back();
    pending.pop_back();
    if (!copied.insert(file.string()).second) continue;
    const fs::path place = places.Of(file);
    std::string text = ReadText(file.string()), copy;
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
      std::smatch match;
      const fs::path header = (file.parent_path() / (std::regex_match(line, match, kQuotedInclude) ? match[2].str() : ""))
                                  .lexically_normal();
      // Headers found beside the including file travel with it, their include rewritten to where
      // they are in the capture; others are NVRTC's or -I's.
      if (!match.empty() && fs::is_regular_file(header)) {
        pending.push_back(header);
        const fs::path includer_dir = place.has_parent_path() ? place.parent_path() : fs::path(".");
        const std::string relative = fs::path(places.Of(header)).lexically_relative(includer_dir).string();
        line = match[1].str() + relative + match[3].str();
      }
      copy += line + "\n";
    }
    if (!text.empty() && text.back() != '\n') copy.pop_back();
    CreateFolderOf(place.string());
    WriteText(place.string(), copy);
  }
  return source.filename().string();
}

std::string CaptureFolder::CommitAs(const std::string& final_name) {
  const std::string target = (fs::path(parent_) / final_name).string();
  if (!RenameNoReplace(temporary_, target)) throw CaptureError(target + ": exists already; it is kept");
  committed_ = true;
  return target;
}

void ReplaceTextFile(const std::string& path, const std::string& text) {
  const fs::path target(path);
  const std::string partial = (target.parent_path() / ("." + target.filename().string() + ".partial")).string();
  std::ofstream out(partial, std::ios::binary);
  out << text;
  out.close();
  if (!out || std::rename(partial.c_str(), path.c_str()) != 0) {
    std::remove(partial.c_str());
    throw CaptureError(path + ": cannot write the file");
  }
}

void WriteZeroArray(const std::string& path, const std::string& descr, std::uint64_t count) {
  constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
  std::error_code error;
  fs::create_directories(fs::path(path).parent_path(), error);
  npy::Writer writer(path, descr, count);
  const std::string zeros(kChunkBytes, '\0');
  for (std::uint64_t left = count * npy::ItemBytesOf(descr); left > 0;) {
    const std::size_t size = static_cast<std::size_t>(std::min<std::uint64_t>(left, zeros.size()));
    writer.Write(zeros.data(), size);
    left -= size;
  }
  writer.Close();
}

std::string CaptureFolder::Commit() {
  const std::string base = (fs::path(parent_) / ("capture-" + name_)).string();
  for (int n = 1; n <= kMaxNumberedNames; ++n) {
    const std::string target = n == 1 ? base : base + "-" + std::to_string(n);
    if (RenameNoReplace(temporary_, target)) {
      committed_ = true;
      return target;
    }
  }
  throw CaptureError(base + ": " + std::to_string(kMaxNumberedNames) +
                     " captures of this name exist already; remove some");
}

}  // namespace tuner::capture
