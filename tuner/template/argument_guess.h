// What a kernel's declaration says of the template to write for it (`tuner new`): each parameter's
// element type and role, guessed from how it is declared, and the integer template arguments of the
// kernel's name as tuning parameters with their one value. A guess for the user to edit, said so in
// the description it becomes (starter_description.h).
#pragma once

#include <string>
#include <vector>

#include "template/element_types.h"
#include "template/kernel_declaration.h"

namespace tuner {

enum class ArgumentRole {
  kInput,   // a pointer to const: filled with random data, must stay unchanged
  kOutput,  // a pointer the kernel only assigns to: starts as poison, compared with the reference
  kInOut,   // a pointer the kernel also reads: starts from random data, compared with the reference
  kSize,    // an integer named like a count (n, size, count, ...): the problem size
  kScalar,  // any other value
};
const char* ToString(ArgumentRole role);

struct GuessedArgument {
  std::string name;     // the parameter's, or arg0, arg1, ... where the source gives none
  std::string written;  // its type as the source writes it, template arguments put in
  ScalarType type = ScalarType::kFloat;
  ArgumentRole role = ArgumentRole::kScalar;
};

struct GuessedParameter {
  std::string name;  // the template parameter's
  long long value = 0;
};

struct KernelGuess {
  KernelDeclaration declaration;
  std::string kernel;  // for the description: the integer template arguments replaced by their parameters' names
  std::vector<GuessedArgument> arguments;
  std::vector<GuessedParameter> parameters;  // the integer template arguments
  std::string block_parameter;         // the one that is the block size (BLOCK, THREADS, __launch_bounds__'s), or ""
  long long max_block_threads = 1024;  // __launch_bounds__' number, where it is one
};

// The kernel `expression` ("scale", "ns::scale<float, 128>") names in `text` (the file `path`),
// with its arguments' types and roles. Throws UsageError naming the file when the kernel is not
// there (with the nearest kernel the file has), when the template arguments do not match its
// template parameters, and naming the argument and its type when a type has no element type.
KernelGuess GuessKernel(const std::string& path, const std::string& text, const std::string& expression);

}  // namespace tuner
