#include "compile/cubin_cache.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "base/default_paths.h"
#include "common/content_hash.h"
#include "common/whole_file.h"
#include "template/pipeline_spec.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

std::string ReadAll(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  if (in) bytes << in.rdbuf();
  return bytes.str();
}

// Readers see a whole entry file or none (WriteWholeFile). A failed write is no error here: Compile
// reports a kernel file that is missing, and a missing metadata file only means compiling again.
void WriteEntryFile(const fs::path& path, const std::string& bytes) {
  try {
    WriteWholeFile(path.string(), bytes);
  } catch (const std::runtime_error&) {
  }
}

nlohmann::json InfoToJson(const CompileResult& r, const std::string& cubin_hash) {
  return {{"lowered_name", r.lowered_name},
          {"log", r.log},
          {"compile_ms", r.compile_ms},
          {"regs_per_thread", r.info.regs_per_thread},
          {"static_smem_bytes", r.info.static_smem_bytes},
          {"barriers", r.info.barriers},
          {"stack_bytes", r.info.stack_bytes},
          {"spill_bytes", r.info.spill_bytes},
          {"cubin_hash", cubin_hash}};
}

bool LoadEntry(const fs::path& meta_path, const fs::path& cubin_path, CompileResult& result) {
  const auto meta = nlohmann::json::parse(ReadAll(meta_path), nullptr, false);
  if (meta.is_discarded() || !meta.is_object()) return false;
  const std::string cubin = ReadAll(cubin_path);
  if (cubin.empty() || ContentHash().Add(cubin).Hex() != meta.value("cubin_hash", "")) return false;
  result.ok = true;
  result.lowered_name = meta.value("lowered_name", "");
  result.log = meta.value("log", "");
  result.compile_ms = meta.value("compile_ms", 0.0);
  result.info = {meta.value("regs_per_thread", 0), meta.value("static_smem_bytes", 0LL), meta.value("barriers", 0),
                 meta.value("stack_bytes", 0), meta.value("spill_bytes", 0)};
  return true;
}

}  // namespace

std::string DefaultCubinCacheDir() { return (fs::path(CacheDir()) / "cubins").string(); }

CubinCache::CubinCache(std::string directory) : directory_(std::move(directory)) {
  std::error_code error;
  fs::create_directories(directory_, error);
}

CachedCompile CubinCache::Compile(const TemplateSpec& spec, const ParamValues& candidate, const std::string& entry,
                                  const std::string& arch) const {
  const ParamValues params = KernelParams(spec, candidate);  // host parameters do not change the kernel
  ContentHash key;
  key.Add(spec.source_text).Add(ParamsJson(params)).Add(entry).Add(arch).Add(CompilerIdentity(spec));
  for (const SourceHeader& header : spec.headers) key.Add(header.include_name).Add(header.text);
  for (const std::string& option : NvrtcOptions(spec, params, arch)) key.Add(option);
  const fs::path cubin_path = fs::path(directory_) / (key.Hex() + ".cubin");
  const fs::path meta_path = fs::path(directory_) / (key.Hex() + ".json");
  CachedCompile cached;
  cached.cubin_path = cubin_path.string();
  if (LoadEntry(meta_path, cubin_path, cached.result)) {
    cached.cache_hit = true;
    return cached;
  }
  cached.result = CompileCandidate(spec, params, entry, arch);
  if (!cached.result.ok) return cached;
  WriteEntryFile(cubin_path, cached.result.cubin);
  WriteEntryFile(meta_path, InfoToJson(cached.result, ContentHash().Add(cached.result.cubin).Hex()).dump());
  cached.result.cubin.clear();
  if (!fs::exists(cubin_path)) {
    cached.result.ok = false;
    cached.result.log = "cannot write the compiled kernel to " + cubin_path.string();
  }
  return cached;
}

}  // namespace tuner
