// A candidate's status: the worker's verdict on it or the sweep's, as the store keeps it. The text
// form ("ok", "wrong_result", ...) is what the database, the JSON rows, T4 and the worker protocol
// hold; it never changes, so every database reads as it was written.
#pragma once

#include <string>

namespace tuner {

enum class CandidateStatus {
  kOk,            // checked and timed: the only status that can be best
  kWrongResult,   // ran, but its output differs from the reference's
  kCompileError,  // NVRTC refused it
  kInvalid,       // it cannot launch (geometry, resources, a constraint)
  kLaunchError,   // the launch failed without losing the GPU's context
  kFault,         // a sticky CUDA error: it killed its worker
  kTimeout,       // it hung: its worker was killed
  kSkipped,       // never measured (imported rows only)
};

// Every status, in the order above.
inline constexpr CandidateStatus kAllCandidateStatuses[] = {
    CandidateStatus::kOk,      CandidateStatus::kWrongResult, CandidateStatus::kCompileError,
    CandidateStatus::kInvalid, CandidateStatus::kLaunchError, CandidateStatus::kFault,
    CandidateStatus::kTimeout, CandidateStatus::kSkipped};

const char* ToText(CandidateStatus status);
// The status this text names; throws std::invalid_argument naming the text (and the known ones)
// for any other, so a database, a row or a reply with an unknown status is refused, never guessed.
CandidateStatus CandidateStatusFromText(const std::string& text);

inline bool IsOk(CandidateStatus status) { return status == CandidateStatus::kOk; }
// A fault or a timeout kills the GPU worker (the sweep retries such a candidate with a new one).
inline bool KillsWorker(CandidateStatus status) {
  return status == CandidateStatus::kFault || status == CandidateStatus::kTimeout;
}

}  // namespace tuner
