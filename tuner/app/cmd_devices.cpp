// `tuner devices`: the CUDA GPUs of this machine. Works without a GPU or driver: it says why
// there are none.
#include <iostream>
#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/command_options.h"
#include "app/commands.h"
#include "base/errors.h"
#include "common/text_table.h"
#include "cuda/device.h"

namespace tuner {

int RunDevices(int argc, char** argv) {
  const CommandSpec spec{"devices", "tuner devices [--json]", "List the CUDA GPUs of this machine.",
                         "tuner devices --json"};
  po::options_description options("Options");
  AddJsonOption(options);
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, spec, options, {}, &vm)) return kExitOk;
  const GpuDiscovery found = DiscoverGpus();
  if (JsonOutput(vm)) {
    nlohmann::json gpus = nlohmann::json::array();
    for (const GpuInfo& g : found.gpus)
      gpus.push_back({{"index", g.index},
                      {"name", g.name},
                      {"compute_capability", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor)},
                      {"arch", g.Arch()},
                      {"sm_count", g.sm_count},
                      {"memory_bytes", g.memory_bytes},
                      {"uuid", g.uuid}});
    nlohmann::json doc = {{"gpus", gpus}, {"driver", DriverVersion()}, {"runtime", RuntimeVersion()}};
    if (!found.problem.empty()) doc["problem"] = found.problem;
    std::cout << doc.dump(2) << "\n";
    return kExitOk;
  }
  if (found.gpus.empty()) {
    std::cout << "No CUDA GPU: " << found.problem << ".\n"
              << "Offline commands still work, e.g. 'tuner occupancy --arch sm_90 --threads 256 --regs 32'.\n";
    return kExitOk;
  }
  TextTable table({"GPU", "NAME", "CC", "SMs", "MEMORY", "UUID"});
  for (const GpuInfo& g : found.gpus)
    table.Add({std::to_string(g.index), g.name, std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor),
               std::to_string(g.sm_count), Fixed(static_cast<double>(g.memory_bytes) / (1 << 30), 1) + " GiB", g.uuid});
  table.Print(std::cout);
  std::cout << "driver CUDA " << DriverVersion() << ", runtime " << RuntimeVersion() << "\n";
  return kExitOk;
}

}  // namespace tuner
