// A sweep's timing mode (base/timing_mode.h): `tune --timing` when given, else the template's
// [timing] mode, else isolated. Isolated is the default of a template that says nothing: it is what
// every earlier result was measured with, so a silent template keeps comparing with its stored
// results, and its cold-cache time is the safe bound for a kernel called once. A template of short
// kernels an application calls in loops or graphs says mode = "graph".
//
// back_to_back and graph repeat the launch with nothing between, so they are refused, never
// silently replaced, where that cannot be: a [pipeline] template (each sample is a run from host
// memory to host memory over its own streams) and a template with an output reset before each launch
// (init "zero" or a file: an accumulator would add up over the batch, and its check would fail).
#pragma once

#include <optional>
#include <string>

#include "base/timing_mode.h"
#include "template/description_reader.h"
#include "template/template_spec.h"

namespace tuner {

// Why `spec`'s launches cannot be batched; "" when they can.
std::string UnbatchableReason(const TemplateSpec& spec);

// Reads the optional [timing] table (mode = "isolated" | "back_to_back" | "graph") into
// spec.timing_mode, after the arguments and the pipeline: a batched mode the template cannot have
// is a TemplateError naming the reason.
void ReadTiming(const DescriptionReader& r, const toml::table& root, const std::vector<std::string>& top_level,
                TemplateSpec& spec);

struct TimingChoice {
  TimingMode mode = TimingMode::kIsolated;
  std::string source;  // "--timing", "the template", or "the default (the template says none)"
};

// The mode of a sweep of `spec`: `asked` when given, else the template's, else isolated. A batched
// mode asked of a template that cannot have it is a UsageError naming the template and the reason.
TimingChoice ChooseTimingMode(const TemplateSpec& spec, std::optional<TimingMode> asked);

}  // namespace tuner
