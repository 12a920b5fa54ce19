#include "template/data_files.h"

#include <algorithm>
#include <cstring>

#include "base/errors.h"
#include "npy.h"
#include "expression/expression.h"
#include "template/search_space.h"
#include "template/template_values.h"

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
    npy::CheckMatches(npy::ReadHeader(path), path, use + " of '" + arg.name + "'", AcceptedNpyDescrs(arg.type),
                      static_cast<std::uint64_t>(count));
  } catch (const npy::NpyError& e) {
    throw UsageError(std::string(e.what()) + " (length " + arg.length +
                     (size.values.empty() ? "" : " at size " + size.Key()) + ")");
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

TemplateSpec SpecAtSize(const TemplateSpec& spec, const ProblemSize& size) {
  const std::string key = size.Key();
  if (spec.data_sizes.empty() || key == DefaultSize(spec).Key()) return spec;
  const auto data = std::find_if(spec.data_sizes.begin(), spec.data_sizes.end(),
                                 [&](const DataSizeSpec& d) { return d.size_key == key; });
  if (data == spec.data_sizes.end()) {
    std::string sizes;
    for (const ProblemSize& s : SizesWithData(spec)) sizes += (sizes.empty() ? "" : ", ") + s.Key();
    throw UsageError(spec.name + " has no data files for size " + key + ": its data (" + spec.description_path +
                     ") is for the sizes " + sizes);
  }
  TemplateSpec at_size = spec;
  for (ArgSpec& arg : at_size.args)
    if (arg.init == BufferInit::kFile) arg.file = data->files.at(arg.file);
  for (auto& [name, file] : at_size.check.expected) file = data->files.at(file);
  return at_size;
}

std::vector<ProblemSize> SizesWithData(const TemplateSpec& spec) {
  if (DataFilesOf(spec).empty())
    throw UsageError(
        spec.name + " reads no data files (" + spec.description_path +
        "), so it has no captured sizes; list the sizes to tune instead, e.g. --sizes 1024x1024,4096x4096");
  std::vector<ProblemSize> sizes = {DefaultSize(spec)};
  for (const DataSizeSpec& data : spec.data_sizes) sizes.push_back(ParseProblemSize(spec, data.size_key));
  return sizes;
}

void CheckDataFiles(const TemplateSpec& spec, const ProblemSize& size) {
  const Variables sizes = MakeVariables(size, {});
  for (const ArgSpec& arg : spec.args) {
    if (arg.init == BufferInit::kFile) CheckFile(arg.file, arg, "the initial contents", sizes, size);
    if (spec.check.expected.count(arg.name))
      CheckFile(spec.check.expected.at(arg.name), arg, "the expected contents", sizes, size);
  }
}

}  // namespace tuner
