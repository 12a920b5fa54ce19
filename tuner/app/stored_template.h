// The template of stored results, for commands that work from the database alone (simulate,
// export): the description when it is at hand, and the size key a --size means for it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "template/template_spec.h"

namespace tuner {

// The template `name` from these folders (and the shipped ones), or nothing when none has the name.
// Throws UsageError when two files claim it.
std::optional<TemplateSpec> FindTemplateIfAny(const std::vector<std::string>& dirs, const std::string& name);

// The sizes `size_text` (--size; "" for the template's defaults) means: completed with the template's
// defaults, or as given without the template, when the sizes must be given. Throws UsageError.
std::vector<long long> ResolveSizes(const std::optional<TemplateSpec>& spec, const std::string& kernel,
                                    const std::string& size_text);
// Their stored size key ("8192x8192").
std::string ResolveSizeKey(const std::optional<TemplateSpec>& spec, const std::string& kernel,
                           const std::string& size_text);

}  // namespace tuner
