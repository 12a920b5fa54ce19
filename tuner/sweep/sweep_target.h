// What one sweep tunes: a template at one problem size, checked at that size, with its candidates
// enumerated once (the sweep measures these; a command checks them before it touches a GPU).
#pragma once

#include <vector>

#include "template/problem_size.h"
#include "template/search_space.h"
#include "template/template_spec.h"

namespace tuner {

struct SweepTarget {
  TemplateSpec spec;  // at the size: its data files and what depends on the size resolved
  ProblemSize size;
  std::vector<ParamValues> candidates;  // every valid one, in enumeration order
};

// `templ` at `size`: throws (a usage or template error) when its lengths, tolerances or data files
// are wrong at the size, or when a constraint cannot be evaluated for a candidate (a division by zero).
SweepTarget TargetAtSize(const TemplateSpec& templ, const ProblemSize& size);

}  // namespace tuner
