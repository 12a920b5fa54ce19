// Compiling many candidates at once. By default each compile thread of the caller drives its own
// NVRTC process (`tuner __compile`): on a 16-core host threads of one process scaled about 2x for
// small kernels while separate processes scaled about 6x (remeasure with
// bench/bench_compile.sh), and an NVRTC crash is contained in its process. Each process writes
// its result into the content-addressed cubin cache, where the caller picks it up.
// $TUNER_COMPILE=threads compiles in the caller's threads instead.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/worker_process.h"
#include "compile/cubin_cache.h"

namespace tuner {

class ParallelCompiler {
 public:
  // `slots`: the caller's compile threads. `executable`: the tuner binary ("" for this process's).
  ParallelCompiler(int slots, std::string cache_dir, std::string executable = "");

  // Called from caller thread `slot` only. A process that crashes or hangs is replaced, and the
  // candidate becomes a compile error saying so.
  CachedCompile Compile(int slot, const TemplateSpec& spec, const ParamValues& params, const std::string& entry,
                        const std::string& arch);

 private:
  CachedCompile CompileInProcess(int slot, const TemplateSpec& spec, const ParamValues& params,
                                 const std::string& entry, const std::string& arch);

  bool use_processes_;
  std::string executable_;
  std::string cache_dir_;
  CubinCache cache_;
  std::vector<std::unique_ptr<WorkerProcess>> processes_;
};

// Whether compiles run in processes (default) or threads ($TUNER_COMPILE=threads).
bool CompileInProcesses();

// The hidden `tuner __compile` command: an NVRTC process of the pool, one JSON request per line on
// stdin, one reply per line on stdout.
int RunCompileServer(int argc, char** argv);

}  // namespace tuner
