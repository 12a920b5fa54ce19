// A candidate compiled by the toolkit's nvcc, for a file that NVRTC cannot take: host code next to
// the kernels (main, cudaMalloc, <<<...>>>), the C and C++ standard headers (<cassert>, <limits>,
// <vector>). nvcc compiles the file as its project does, for the device only (-cubin): host code
// is parsed, never compiled, so it needs only to be valid CUDA C++ for this toolkit.
#pragma once

#include <string>
#include <vector>

#include "compile/compiler.h"

namespace tuner {

// `options` are NVRTC's (NvrtcOptions): nvcc takes the same spellings for the architecture, the
// language, defines, include folders and ptxas's report. `name_expression` has the parameters'
// values; its kernel is instantiated by a reference appended to the source.
CompileResult CompileWithNvcc(const TemplateSpec& spec, const std::string& name_expression,
                              const std::vector<std::string>& options, const std::string& nvcc);

// What a user reads when a file needs nvcc and none was found.
std::string NoNvccAdvice();

}  // namespace tuner
