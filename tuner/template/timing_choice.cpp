#include "template/timing_choice.h"

#include "base/errors.h"

namespace tuner {

std::string UnbatchableReason(const TemplateSpec& spec) {
  if (spec.pipeline.enabled)
    return "its [pipeline] runs from host memory to host memory on streams of its own, one run per sample";
  for (const ArgSpec& arg : spec.args)
    if (arg.is_buffer && arg.output && (arg.init == BufferInit::kZero || StartsFromContents(arg.init)))
      return "its output '" + arg.name +
             "' is reset before each launch (init zero, a file or data of its own), which a batch of launches back to "
             "back cannot do";
  return "";
}

void ReadTiming(const DescriptionReader& r, const toml::table& root, const std::vector<std::string>& top_level,
                TemplateSpec& spec) {
  const toml::node* node = root.get("timing");
  if (!node) return;
  const toml::table& t = r.Table(*node, "timing");
  r.AllowOnly(t, "timing", {"mode"}, top_level);
  const std::string text = r.String(t, "mode", "timing.mode", true);
  const std::optional<TimingMode> mode = TimingModeFromText(text);
  if (!mode) r.Fail(t.get("mode"), "timing.mode", "unknown mode '" + text + "' (" + TimingModeChoices() + ")");
  const std::string unbatchable = *mode == TimingMode::kIsolated ? "" : UnbatchableReason(spec);
  if (!unbatchable.empty())
    r.Fail(t.get("mode"), "timing.mode", "'" + text + "' cannot time this template: " + unbatchable + "; use isolated");
  spec.timing_mode = mode;
}

TimingChoice ChooseTimingMode(const TemplateSpec& spec, std::optional<TimingMode> asked) {
  if (!asked) {
    if (spec.timing_mode) return {*spec.timing_mode, "the template"};
    return {TimingMode::kIsolated, "the default (the template says none)"};
  }
  const std::string unbatchable = *asked == TimingMode::kIsolated ? "" : UnbatchableReason(spec);
  if (!unbatchable.empty())
    throw UsageError(std::string("--timing ") + ToText(*asked) + " cannot time " + spec.name + ": " + unbatchable +
                     "; use --timing isolated");
  return {*asked, "--timing"};
}

}  // namespace tuner
