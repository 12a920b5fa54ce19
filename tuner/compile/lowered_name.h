// The lowered (mangled) name of an entry point compiled by nvcc, which has no NVRTC name
// expression: found among the entry functions ptxas reports by demangling each and comparing it with
// the description's C++ name ("ns::tile<32, 4>"), written as people write it.
#pragma once

#include <string>
#include <vector>

namespace tuner {

// The entry functions of a ptxas -v report, in order ("Compiling entry function 'NAME'").
std::vector<std::string> PtxasEntryNames(const std::string& log);

// "ns::tile<32,4>" for "void ns::tile<32u, 4>(float*, int)": the demangled name without its return
// type, parameters, integer suffixes, casts of integers and spaces; the C++ name expressions of
// descriptions are compared in this form.
std::string ComparableName(const std::string& name);

// The one of `lowered` whose demangled name is `expression` (parameters already replaced by their
// values); else the one whose declared name is the expression's, when only one is; else "" with
// `why` saying what was found.
std::string FindLoweredName(const std::vector<std::string>& lowered, const std::string& expression, std::string& why);

}  // namespace tuner
