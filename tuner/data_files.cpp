#include "data_files.h"

#include <cstring>

#include "errors.h"
#include "expression.h"
#include "npy.h"
#include "search_space.h"

namespace tuner {

namespace {

// FNV-1a over 64-bit words: a byte at a time would take a second per GiB.
class WordHash {
 public:
  void Add(const char* bytes, std::size_t size) {
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      std::uint64_t word;
      std::memcpy(&word, bytes + i, 8);
      Mix(word);
    }
    for (; i < size; ++i) Mix(static_cast<unsigned char>(bytes[i]));
  }
  std::uint64_t Value() const { return state_; }

 private:
  void Mix(std::uint64_t word) {
    state_ ^= word;
    state_ *= 1099511628211ULL;
  }
  std::uint64_t state_ = 14695981039346656037ULL;
};

void CheckFile(const std::string& path, const ArgSpec& arg, const std::string& use, const Variables& sizes,
               const ProblemSize& size) {
  const long long count = EvaluateInteger(arg.length, sizes);
  try {
    npy::CheckMatches(npy::ReadHeader(path), path, use + " of '" + arg.name + "'", NpyDescr(arg.type),
                      static_cast<std::uint64_t>(count));
  } catch (const npy::NpyError& e) {
    throw UsageError(std::string(e.what()) + " (length " + arg.length + (size.values.empty() ? "" : " at size " + size.Key()) + ")");
  }
}

}  // namespace

std::vector<std::string> DataFilesOf(const TemplateSpec& spec) {
  std::vector<std::string> files;
  for (const ArgSpec& arg : spec.args)
    if (arg.init == BufferInit::kFile) files.push_back(arg.file);
  for (const ArgSpec& arg : spec.args)
    if (spec.check.expected.count(arg.name)) files.push_back(spec.check.expected.at(arg.name));
  return files;
}

std::string DataFileDigest(const std::string& path) {
  WordHash hash;
  npy::ReadData(path, npy::ReadHeader(path), [&](const char* bytes, std::size_t size) { hash.Add(bytes, size); });
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash.Value()));
  return text;
}

void CheckDataFiles(const TemplateSpec& spec, const ProblemSize& size) {
  const Variables sizes = MakeVariables(size, {});
  for (const ArgSpec& arg : spec.args) {
    if (arg.init == BufferInit::kFile) CheckFile(arg.file, arg, "the initial contents", sizes, size);
    if (spec.check.expected.count(arg.name)) CheckFile(spec.check.expected.at(arg.name), arg, "the expected contents", sizes, size);
  }
}

}  // namespace tuner
