// The shipped templates (kernel_templates/), loaded once per test binary, for tests that need a real
// one; most take transpose.
#pragma once

#include <string>

#include "template/template_library.h"

namespace tuner::testing {

inline const TemplateSpec& ShippedTemplate(const std::string& name) {
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  return library.Find(name);
}

inline const TemplateSpec& Transpose() { return ShippedTemplate("transpose"); }

}  // namespace tuner::testing
