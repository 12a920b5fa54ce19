// Plain records exchanged with the results store. No SQLite here: this header is the contract
// between the sweep, the commands, the reports and the store.
#pragma once

#include <cstdint>
#include <string>

#include "base/candidate_status.h"
#include "base/gpu_identity.h"

namespace tuner::db {

// One physical GPU as the store keeps it: its identity (the model and, by the UUID, the card, which
// keeps timings of two cards of one model separable) and what it ran under.
struct GpuRecord : GpuIdentity {
  std::string driver_version;  // "13.0" (cudaDriverGetVersion)
  std::string cuda_version;    // runtime the tool was built with
  int sm_clock_mhz = 0;        // peak SM clock, for the FP32 ceiling of reports (0: unknown)
};

// A template version: `hash` covers the source and the description, so results of an edited
// template are kept but never taken as best for the new version.
struct TemplateRecord {
  std::string name;
  std::string hash;
  std::string first_seen;  // ISO 8601 UTC, set by the store: the newest version is the current one
};

struct SweepRecord {
  std::string command;      // the command line that started it
  std::string strategy;     // "brute_force", ...
  std::int64_t budget = 0;  // evaluations (0: none)
  std::string size_key;     // "8192x8192": every size variable, in the template's order
  std::string status;       // "running", "done", "interrupted", "failed"
  std::string tool_version;
  std::string nvrtc_version;
  std::string started_at;  // ISO 8601 UTC
  std::string ended_at;
  std::string uid;       // globally unique (set by the store when empty): merging databases keys on it
  double copy_gbps = 0;  // device-to-device copy bandwidth measured in the same run (0: unknown)
};

// One candidate's result (tuner/base/candidate_status.h: only ok can be best).
struct MeasurementRecord {
  std::int64_t id = 0;      // the store's measurement id (0: not read from the store); kept on re-measuring
  std::string params_json;  // {"TILE":64,"ROWS":4,"PAD":1}, parameters in the template's order
  std::string launch_json;  // {"grid":[128,128,1],"block":[64,4,1],"shared_bytes":0}
  CandidateStatus status = CandidateStatus::kOk;
  std::string reason;  // one line: why it failed, was invalid or was skipped
  double time_ms_median = 0;
  double time_ms_min = 0;
  double time_ms_max = 0;
  double time_ms_spread = 0;  // relative: (p75 - p25) / median
  int samples = 0;
  double perf_value = 0;  // in perf_unit
  std::string perf_unit;  // "GB/s" or "GFLOP/s"
  int regs_per_thread = 0;
  std::int64_t smem_bytes = 0;  // static + dynamic per block
  int spill_bytes = 0;
  int blocks_per_sm = 0;
  double occupancy = 0;  // 0..1
  std::string limiter;   // warps, registers, shared_memory, blocks, barriers
  double compile_ms = 0;
  std::string error_text;   // compile log, CUDA error text, first mismatch
  std::string measured_at;  // ISO 8601 UTC
  int worker_kills = 0;     // times measuring it killed the GPU worker (fault, timeout); at 2 it is final
  // Measured after timing, for some `ok` candidates only (--counters, --objective): hardware
  // counters as JSON (db/counters.h; "" when not measured) and energy (0 when not measured).
  std::string counters_json;
  double energy_j = 0;          // per launch
  double power_w = 0;           // mean power while it ran back to back (the energy counter's)
  double energy_launch_ms = 0;  // wall time per launch while it ran back to back (power_w x this = energy_j)
  double perf_per_joule = 0;    // GB/J or GFLOP/J: the work of one launch over energy_j
  // How its time was taken (base/timing_mode.h's text): results of different modes are never
  // compared. Rows stored before schema version 7 were timed isolated.
  std::string timing_mode = "isolated";
  // A member of a tie its sweep reported (db/query/tie_rule.h): the tie's time, its fastest member's
  // median, at which every member ranks (0: in no tie), and its place by the tie rule (1: chosen).
  double tie_ms = 0;
  int tie_rank = 0;
  std::string toolchain;     // what measured it, "driver 13.0, runtime 12.9, nvrtc 12.9" (db/query/toolchain.h)
  std::string revalidation;  // "" never revalidated, else the outcome (db/query/revalidation.h)
};

std::string NowUtc();  // "2026-11-22T01:49:28Z": the form of every *_at field

}  // namespace tuner::db
