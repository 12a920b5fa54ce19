#include "compile/parallel_compiler.h"

#include <cstdlib>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>

#include "base/default_paths.h"

namespace tuner {

namespace {

constexpr double kCompileTimeoutS = 300;

nlohmann::json Request(const TemplateSpec& spec, const ParamValues& params, const std::string& entry,
                       const std::string& arch, const std::string& cache_dir) {
  return {{"description", spec.description_path},
          {"params", ParamsJson(params)},
          {"entry", entry},
          {"arch", arch},
          {"cache_dir", cache_dir},
          {"hash", spec.hash}};
}

}  // namespace

bool CompileInProcesses() {
  const char* mode = std::getenv("TUNER_COMPILE");
  return !mode || std::string(mode) != "threads";
}

ParallelCompiler::ParallelCompiler(int slots, std::string cache_dir, std::string executable)
    : use_processes_(CompileInProcesses()),
      executable_(executable.empty() ? SelfExecutable() : std::move(executable)),
      cache_dir_(std::move(cache_dir)),
      cache_(cache_dir_),
      processes_(slots) {}

CachedCompile ParallelCompiler::Compile(int slot, const TemplateSpec& spec, const ParamValues& params,
                                        const std::string& entry, const std::string& arch) {
  return use_processes_ ? CompileInProcess(slot, spec, params, entry, arch) : cache_.Compile(spec, params, entry, arch);
}

CachedCompile ParallelCompiler::CompileInProcess(int slot, const TemplateSpec& spec, const ParamValues& params,
                                                 const std::string& entry, const std::string& arch) {
  std::unique_ptr<WorkerProcess>& process = processes_.at(slot);
  if (!process || !process->Alive())
    process = std::make_unique<WorkerProcess>(executable_, std::vector<std::string>{"__compile"});
  const auto reply = process->Call(Request(spec, params, entry, arch, cache_dir_), kCompileTimeoutS);
  CachedCompile compiled;
  if (reply.outcome != WorkerProcess::Outcome::kReplied) {
    process.reset();
    compiled.result.log = "the NVRTC process failed on this candidate: " + reply.detail;
    return compiled;
  }
  if (!reply.body.value("ok", false)) {
    compiled.result.log = reply.body.value("log", std::string("compile failed"));
    compiled.result.compile_ms = reply.body.value("compile_ms", 0.0);
    return compiled;
  }
  compiled = cache_.Compile(spec, params, entry, arch);  // a cache hit: the process just wrote it
  compiled.cache_hit = reply.body.value("cache_hit", false);
  compiled.result.compile_ms = reply.body.value("compile_ms", compiled.result.compile_ms);
  return compiled;
}

// The hidden `tuner __compile` command: one JSON request per line, one reply per line.
int RunCompileServer(int, char**) {
  std::map<std::string, TemplateSpec> templates;  // by description path
  for (std::string line; std::getline(std::cin, line);) {
    nlohmann::json reply;
    try {
      const auto request = nlohmann::json::parse(line);
      const std::string path = request.at("description");
      auto it = templates.find(path);
      if (it == templates.end() || it->second.hash != request.at("hash"))
        it = templates.insert_or_assign(path, LoadTemplateFile(path)).first;
      const CachedCompile compiled =
          CubinCache(request.at("cache_dir"))
              .Compile(it->second, ParamsFromJson(request.at("params")), request.at("entry"), request.at("arch"));
      reply = {
          {"ok", compiled.result.ok}, {"cache_hit", compiled.cache_hit}, {"compile_ms", compiled.result.compile_ms}};
      if (!compiled.result.ok) reply["log"] = compiled.result.log;
    } catch (const std::exception& e) {
      reply = {{"ok", false}, {"log", e.what()}};
    }
    std::cout << reply.dump() << "\n" << std::flush;
  }
  return 0;
}

}  // namespace tuner
