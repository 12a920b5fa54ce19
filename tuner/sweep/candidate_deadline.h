// How long one measure request (load, check and time a candidate) may take before its worker is
// killed as hung. Until a request (a candidate's or the reference's) has answered, the generous
// rule: the floor (--timeout-floor) or 20 times the best time for every sample, whichever is
// longer. After that, where kernels take milliseconds, a hang is known far sooner: three times the
// slowest request that answered, or 1 s plus a thousand times the best time (before any best
// time: three reference runs and the sampling's time cap), 2 s at least; never longer than the
// generous rule. A floor the user set is kept as a floor (`tightens` false).
#pragma once

namespace tuner {

class CandidateDeadline {
 public:
  CandidateDeadline(double floor_s, bool tightens) : floor_s_(floor_s), tightens_(tightens) {}

  // A measure or reference request answered after `worker_s` of the worker's time (0: none).
  void Answered(double worker_s);

  // For requests that do more than one candidate's timing (counters, turns of the leaders).
  double GenerousS(double best_ms) const;
  // For one measure request, with the best median so far (0: none yet).
  double MeasureS(double best_ms) const;

 private:
  double floor_s_;
  bool tightens_;
  double slowest_answer_s_ = 0;  // 0: none answered yet
};

}  // namespace tuner
