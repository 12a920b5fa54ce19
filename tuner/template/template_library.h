// Where templates are found (--templates, $TUNER_TEMPLATES, the shipped folder) and loading all of
// them, keeping the error of a malformed one without losing the others. A name is never taken
// silently: two files of one name are refused, and a user's template named like a shipped one is
// refused unless it says `replaces_shipped = true`, which is then reported whenever it is used.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "template/template_spec.h"

namespace tuner {

struct TemplateLibrary {
  std::vector<TemplateSpec> templates;
  std::vector<std::string> errors;               // one line per description that failed or name that conflicts
  std::map<std::string, std::string> conflicts;  // a name two files claim -> why it cannot be used
  std::map<std::string, std::string> replaced;   // a shipped name a user's template took -> the note saying so
  std::vector<std::string> searched;             // the folders looked in, for the message when none holds a template

  // Throws UsageError naming the known templates when `name` is not one of them (a template that
  // failed to load is reported with its error), or naming both files when two claim it. Writes the
  // note to stderr when the template found replaces a shipped one.
  const TemplateSpec& Find(const std::string& name) const;

  // As Find, but nullptr for a name no template has (commands that can work from the database alone).
  const TemplateSpec* Lookup(const std::string& name) const;
};

// Where the shipped templates may be, in order: beside the executable as installed
// (<exe dir>/../share/tuner/kernel_templates, so an installed prefix can be moved), then, for an
// executable inside the build folder, the source tree it was built from.
std::vector<std::string> ShippedTemplatesCandidates();

// The first of the candidates that is a folder, or "" when none is.
std::string ShippedTemplatesDir();

// Why no template could be found: the folders looked in and how to name one. Used where a command
// needs templates and the search found none at all.
std::string NoTemplatesMessage(const std::vector<std::string>& searched);

// User folders first, then the shipped one (left out when no candidate exists). Throws UsageError for a folder given on the command
// line that does not exist.
std::vector<std::string> TemplateSearchDirs(const std::vector<std::string>& command_line_dirs);

// A folder listed twice, or a file reached twice, is read once.
TemplateLibrary LoadTemplateLibrary(const std::vector<std::string>& dirs);

}  // namespace tuner
