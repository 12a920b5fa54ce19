// The names a description expects in its CUDA source (the kernel, an independent reference kernel,
// the symbols), looked for in the text and the headers it includes before anything is compiled, so
// that a misspelt name is reported as such and not as a misleading NVRTC or driver message.
#pragma once

#include <string>
#include <vector>

#include "template/source_headers.h"

namespace tuner {

// The identifier an entry point is declared with: "transpose_tile" for "ns::transpose_tile<TILE, 4>",
// "k" for an overload chosen by a cast, "static_cast<void (*)(int*)>(k)" or "(void (*)(int*))k".
std::string DeclaredName(const std::string& entry);

// The text with // and /* */ comments blanked out, lines kept (string literals are not told apart:
// a name is rarely in one, and a false "found" only defers the error to the compiler).
std::string WithoutComments(const std::string& text);

// The names of the __global__ functions defined in `text`, comments left out.
std::vector<std::string> KernelNamesIn(const std::string& text);

// "" when `entry`'s declared name occurs as a word outside comments in the source or its headers;
// else why not, with the nearest kernel name of the source as a suggestion.
std::string MissingFromSource(const std::string& entry, const std::string& source_path, const std::string& source_text,
                              const std::vector<SourceHeader>& headers);

}  // namespace tuner
