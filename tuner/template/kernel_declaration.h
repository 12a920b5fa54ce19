// A kernel's declaration as its source writes it: the template parameters and the parameter list of
// a __global__ function, read from the text without compiling it (`tuner new`). Not a C++ parser:
// it finds `__global__ ... NAME (`, with comments and string literals blanked, reads to the matching
// `)` and splits at the commas outside (), <>, [] and {}; host code, headers and other kernels
// around it are passed over.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tuner {

struct DeclaredParameter {
  std::string type;           // the words and symbols before the name, one space apart: "const float * __restrict__"
  std::string name;           // "" for a parameter written without one
  std::string default_value;  // after '=', "" when none
};

struct KernelDeclaration {
  std::string name;
  std::vector<DeclaredParameter> template_parameters;  // `template <typename T, int BLOCK = 128>`: empty when none
  std::vector<DeclaredParameter> parameters;
  std::string body;           // between the braces; "" for a declaration without a definition
  std::string launch_bounds;  // the first argument of __launch_bounds__, "" when none
  std::size_t line = 0;       // of `__global__`, from 1
};

// The __global__ function named `name` in `text`: its definition when the text has one, else its
// first declaration; nullopt when the text declares no kernel of that name.
std::optional<KernelDeclaration> FindKernelDeclaration(const std::string& text, const std::string& name);

// One parameter as written ("const float* __restrict__ in = nullptr"): its type, name and default.
DeclaredParameter ReadParameter(const std::string& text);

// `list` split at the commas outside brackets of any kind, each part trimmed; empty parts dropped.
std::vector<std::string> SplitTopLevel(const std::string& list);

}  // namespace tuner
