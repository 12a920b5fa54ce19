// The subcommands. Each parses its own options and returns an exit code (errors.h); main only
// dispatches. The hidden ones are declared where they live: RunWorker in measure/worker.h,
// RunCompileServer in compile/parallel_compiler.h.
#pragma once

namespace tuner {

int RunDevices(int argc, char** argv);
int RunKernels(int argc, char** argv);
int RunOccupancy(int argc, char** argv);
int RunExplore(int argc, char** argv);
int RunTune(int argc, char** argv);
int RunQuery(int argc, char** argv);
int RunSimulate(int argc, char** argv);
int RunReport(int argc, char** argv);
int RunDb(int argc, char** argv);
int RunFormatImport(int argc, char** argv);   // tuner import: a T1 description as a template
int RunResultsImport(int argc, char** argv);  // tuner import kernel-tuner-cache|t4: published results as a sweep
int RunFormatExport(int argc, char** argv);   // tuner export: stored results as T4
int RunNew(int argc, char** argv);            // tuner new: a first template of a kernel from its declaration

}  // namespace tuner
