// The values a template computes from the problem size alone (buffer lengths, scalar arguments,
// tolerances, work, the reference's launch), each checked, so that a bad one is refused naming the
// field and the sizes before any GPU, file or database is touched: at load time for the default
// sizes, and by `tune` for the sizes it is given.
#pragma once

#include <optional>
#include <string>

#include "template/problem_size.h"
#include "template/template_spec.h"

namespace tuner {

// The check compares |out - ref| <= atol + rtol * |ref|. rtol of 0.1 already accepts an output 10%
// off, far beyond rounding even in bfloat16 (0.4% per operation), and at 1 an all-zero output
// passes; atol of 1000 covers the rounding of fp32 sums of 2^34 inputs in [-1, 1), while larger
// magnitudes are what rtol is for. rtol's limit is 0.1, wider for fp8 outputs (MaxRtol,
// default_tolerance.h).
constexpr double kMaxAtol = 1000.0;

struct FieldProblem {
  std::string field;    // "arg[0].length", as in the description
  std::string problem;  // "'N / 3' gives 341.333333333, not a whole number (at N=1024)"
};

// The template's default sizes, in declared order.
ProblemSize DefaultSize(const TemplateSpec& spec);

// The first wrong value at `size`, if any.
std::optional<FieldProblem> FindValueProblem(const TemplateSpec& spec, const ProblemSize& size);

// Throws TemplateError "<description>: <field>: <problem>" for the first wrong value at `size`.
void CheckValuesAtSize(const TemplateSpec& spec, const ProblemSize& size);

}  // namespace tuner
