#include "sweep/sweep_target.h"

#include "template/data_files.h"
#include "template/template_values.h"

namespace tuner {

SweepTarget TargetAtSize(const TemplateSpec& templ, const ProblemSize& size) {
  SweepTarget target{SpecAtSize(templ, size), size, {}};
  CheckValuesAtSize(target.spec, size);
  CheckDataFiles(target.spec, size);
  target.candidates = EnumerateCandidates(target.spec, size);
  return target;
}

}  // namespace tuner
