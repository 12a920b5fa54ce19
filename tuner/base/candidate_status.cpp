#include "base/candidate_status.h"

#include <stdexcept>

namespace tuner {

const char* ToText(CandidateStatus status) {
  switch (status) {
    case CandidateStatus::kOk:
      return "ok";
    case CandidateStatus::kWrongResult:
      return "wrong_result";
    case CandidateStatus::kCompileError:
      return "compile_error";
    case CandidateStatus::kInvalid:
      return "invalid";
    case CandidateStatus::kLaunchError:
      return "launch_error";
    case CandidateStatus::kFault:
      return "fault";
    case CandidateStatus::kTimeout:
      return "timeout";
    case CandidateStatus::kSkipped:
      return "skipped";
  }
  throw std::logic_error("a candidate status out of range");
}

CandidateStatus CandidateStatusFromText(const std::string& text) {
  std::string known;
  for (CandidateStatus status : kAllCandidateStatuses) {
    if (text == ToText(status)) return status;
    known += (known.empty() ? "" : ", ") + std::string(ToText(status));
  }
  throw std::invalid_argument("unknown candidate status \"" + text + "\" (known: " + known + ")");
}

}  // namespace tuner
