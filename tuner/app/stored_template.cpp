#include "app/stored_template.h"

#include "base/errors.h"
#include "common/option_values.h"
#include "base/number_text.h"
#include "db/query/selection.h"
#include "template/problem_size.h"
#include "template/template_library.h"

namespace tuner {

std::optional<TemplateSpec> FindTemplateIfAny(const std::vector<std::string>& dirs, const std::string& name) {
  const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs(dirs));
  if (const TemplateSpec* spec = library.Lookup(name)) return *spec;  // two files of this name: exit 2
  return std::nullopt;
}

std::vector<long long> ResolveSizes(const std::optional<TemplateSpec>& spec, const std::string& kernel,
                                    const std::string& size_text) {
  if (spec) {
    std::vector<long long> sizes;
    for (const auto& [name, value] : ParseProblemSize(*spec, size_text).values) sizes.push_back(value);
    return sizes;
  }
  if (size_text.empty())
    throw UsageError("no template " + Quoted(kernel) + " is loaded here to give the default sizes; pass --size");
  return ParseSizeNumbers(size_text);
}

std::string ResolveSizeKey(const std::optional<TemplateSpec>& spec, const std::string& kernel,
                           const std::string& size_text) {
  return SizeKey(ResolveSizes(spec, kernel, size_text));
}

}  // namespace tuner
