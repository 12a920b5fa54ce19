#include "compile/lowered_name.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <regex>

#include "template/source_names.h"

namespace tuner {

namespace {

std::string Demangled(const std::string& lowered) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(lowered.c_str(), nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && text ? std::string(text.get()) : lowered;  // extern "C": the name itself
}

// The name before a demangled signature's parameter list: "void ns::k<1>(int*)" -> "void ns::k<1>".
std::string WithoutParameters(const std::string& name) {
  if (name.empty() || name.back() != ')') return name;
  int depth = 0;
  for (std::size_t i = name.size(); i-- > 0;) {
    if (name[i] == ')') ++depth;
    if (name[i] == '(' && --depth == 0) return name.substr(0, i);
  }
  return name;
}

// "ns::k<1, 2>" of "void ns::k<1, 2>": what follows the last space outside template brackets.
std::string WithoutReturnType(const std::string& name) {
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '<') ++depth;
    if (name[i] == '>') --depth;
    if (name[i] == ' ' && depth == 0) start = i + 1;
  }
  return name.substr(start);
}

}  // namespace

std::vector<std::string> PtxasEntryNames(const std::string& log) {
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  std::vector<std::string> names;
  for (std::sregex_iterator it(log.begin(), log.end(), entry), end; it != end; ++it) {
    const std::string name = (*it)[1];
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

std::string ComparableName(const std::string& name) {
  std::string text = WithoutReturnType(WithoutParameters(name));
  text = std::regex_replace(text, std::regex(R"(\s+)"), "");
  text =
      std::regex_replace(text, std::regex(R"(\((?:unsigned|signed|int|long|short|char|bool|size_t)+\)(?=-?\d))"), "");
  text = std::regex_replace(text, std::regex(R"((\d)(?:[uU](?:ll|LL|l|L)?|(?:ll|LL|l|L)[uU]?)(?![\w]))"), "$1");
  return text;
}

std::string FindLoweredName(const std::vector<std::string>& lowered, const std::string& expression, std::string& why) {
  const std::string wanted = ComparableName(expression);
  for (const std::string& name : lowered)
    if (ComparableName(Demangled(name)) == wanted) return name;
  // A name written through a typedef or a cast ("k<half>", "(void (*)(int*))k") demangles otherwise.
  const std::string declared = DeclaredName(expression);
  std::vector<std::string> same_name;
  for (const std::string& name : lowered)
    if (DeclaredName(WithoutReturnType(WithoutParameters(Demangled(name)))) == declared) same_name.push_back(name);
  if (same_name.size() == 1) return same_name.front();
  why = "cannot tell which compiled kernel '" + expression + "' is: nvcc compiled ";
  if (lowered.empty()) why += "no kernel";
  for (std::size_t i = 0; i < lowered.size() && i < 8; ++i) why += (i ? ", " : "") + Demangled(lowered[i]);
  why += "; write the kernel's name as one of these";
  return "";
}

}  // namespace tuner
