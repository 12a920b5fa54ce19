// tuner: an autotuner and occupancy explorer for CUDA kernels. main only dispatches to a
// subcommand and turns exceptions into exit codes.
#include <cstring>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "app/commands.h"
#include "app/error_document.h"
#include "base/errors.h"
#include "common/interrupt.h"
#include "common/spelling.h"
#include "common/version.h"
#include "compile/parallel_compiler.h"
#include "measure/worker.h"

namespace {

struct Command {
  const char* name;
  int (*run)(int, char**);
  const char* summary;  // nullptr: hidden
};

const Command kCommands[] = {
    {"devices", tuner::RunDevices, "list the CUDA GPUs of this machine"},
    {"kernels", tuner::RunKernels, "list the kernel templates, their parameters and sizes"},
    {"occupancy", tuner::RunOccupancy, "blocks per SM, occupancy and its limiter, with or without a GPU"},
    {"explore", tuner::RunExplore, "compile every candidate offline: registers, shared memory, occupancy"},
    {"new", tuner::RunNew, "write a first template description for a kernel of a CUDA file"},
    {"tune", tuner::RunTune, "compile, verify and time every candidate of a kernel on a GPU"},
    {"query", tuner::RunQuery, "print the stored best configuration of a kernel"},
    {"simulate", tuner::RunSimulate, "replay a stored sweep to compare search strategies, no GPU needed"},
    {"report", tuner::RunReport, "write an HTML, Markdown or CSV report of the stored results"},
    {"db", tuner::RunDb, "check, inspect, export, import, merge and upgrade the results database"},
    {"import", tuner::RunFormatImport, "turn a T1 description (the community's input format) into a template"},
    {"export", tuner::RunFormatExport, "write stored results as T4 (the community's results format)"},
    {"__worker", tuner::RunWorker, nullptr},
    {"__compile", tuner::RunCompileServer, nullptr},
};

void PrintUsage(std::ostream& out) {
  out << "Usage: tuner COMMAND [options]\n\n"
         "Autotuner and occupancy explorer for CUDA kernels.\n\nCommands:\n";
  for (const Command& c : kCommands)
    if (c.summary) out << "  " << c.name << std::string(12 - std::strlen(c.name), ' ') << c.summary << "\n";
  out << "\nRun 'tuner COMMAND --help' for the options of one command.\n\n"
         "Exit codes: 0 success, 1 the work failed, 2 bad usage or input (nothing created or changed),\n"
         "3 no usable GPU or driver, 4 the database is corrupt, foreign or newer, 130 interrupted.\n";
}

// The message on stderr and, under --json, the error document on stdout unless the command wrote its own.
int Fail(const std::string& command, const std::string& message, int exit_code, const tuner::StdoutCount* json_stdout) {
  std::cerr << "tuner" << (command.empty() ? "" : " " + command) << ": " << message << "\n";
  if (json_stdout && json_stdout->written_chars() == 0) std::cout << tuner::ErrorDocument(command, message, exit_code);
  return exit_code;
}

int Dispatch(const Command& command, int argc, char** argv) {
  std::optional<tuner::StdoutCount> json_stdout;
  if (tuner::AsksForJson(argc, argv)) json_stdout.emplace();
  const tuner::StdoutCount* json = json_stdout ? &*json_stdout : nullptr;
  try {
    return command.run(argc, argv);
  } catch (const tuner::UsageError& e) {
    return Fail(command.name, e.what(), tuner::kExitUsage, json);
  } catch (const tuner::NoGpuError& e) {
    return Fail(command.name, e.what(), tuner::kExitNoGpu, json);
  } catch (const tuner::BadDatabaseError& e) {
    return Fail(command.name, e.what(), tuner::kExitBadDatabase, json);
  } catch (const tuner::InterruptedError& e) {
    return Fail(command.name, e.what(), tuner::kExitInterrupted, json);
  } catch (const std::exception& e) {
    return Fail(command.name, e.what(), tuner::kExitFailed, json);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    PrintUsage(std::cerr);
    return tuner::kExitUsage;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    PrintUsage(std::cout);
    return tuner::kExitOk;
  }
  if (name == "--version") {
    std::cout << "tuner " << tuner::kVersion << "\n";
    return tuner::kExitOk;
  }
  std::vector<std::string> names;
  for (const Command& c : kCommands) {
    if (name == c.name) return Dispatch(c, argc - 1, argv + 1);
    if (c.summary) names.push_back(c.name);
  }
  const tuner::StdoutCount json;
  return Fail("", "'" + name + "' is not a tuner command" + tuner::DidYouMean(name, names) + "; see 'tuner --help'",
              tuner::kExitUsage, tuner::AsksForJson(argc, argv) ? &json : nullptr);
}
