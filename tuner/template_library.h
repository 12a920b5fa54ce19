// Where templates are found (--templates, $TUNER_TEMPLATES, the shipped folder) and loading all of
// them, keeping the error of a malformed one without losing the others.
#pragma once

#include <string>
#include <vector>

#include "template_spec.h"

namespace tuner {

struct TemplateLibrary {
  std::vector<TemplateSpec> templates;
  std::vector<std::string> errors;  // one line per description that failed to load

  // Throws UsageError naming the known templates when `name` is not one of them; a template that
  // failed to load is reported with its error.
  const TemplateSpec& Find(const std::string& name) const;
};

// User folders first (so a user's template may shadow a shipped one of the same name).
// Throws UsageError for a folder given on the command line that does not exist.
std::vector<std::string> TemplateSearchDirs(const std::vector<std::string>& command_line_dirs);

TemplateLibrary LoadTemplateLibrary(const std::vector<std::string>& dirs);

}  // namespace tuner
