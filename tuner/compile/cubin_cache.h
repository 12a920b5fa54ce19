// A content-addressed cache of compiled kernels on disk (under $XDG_CACHE_HOME/tuner/cubins). The
// key covers the source, the options, the parameters, the entry point, the architecture and the
// NVRTC version. Entries are written to a temporary file and renamed, so two processes filling
// the same entry do not clash; an entry whose checksum does not match is rebuilt.
#pragma once

#include <string>

#include "compile/compiler.h"

namespace tuner {

struct CachedCompile {
  CompileResult result;    // result.cubin is left empty: the kernel is in `cubin_path`
  std::string cubin_path;  // valid when result.ok
  bool cache_hit = false;
};

class CubinCache {
 public:
  explicit CubinCache(std::string directory);

  CachedCompile Compile(const TemplateSpec& spec, const ParamValues& params, const std::string& entry,
                        const std::string& arch) const;

 private:
  std::string directory_;
};

// $XDG_CACHE_HOME/tuner/cubins, or ~/.cache/tuner/cubins.
std::string DefaultCubinCacheDir();

}  // namespace tuner
