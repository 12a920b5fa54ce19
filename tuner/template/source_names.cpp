#include "template/source_names.h"

#include <cctype>
#include <filesystem>

#include "common/spelling.h"

namespace tuner {

namespace {

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool HasWord(const std::string& text, const std::string& word) {
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool starts = at == 0 || !IsWordChar(text[at - 1]);
    const bool ends = at + word.size() == text.size() || !IsWordChar(text[at + word.size()]);
    if (starts && ends) return true;
  }
  return false;
}

// The identifier before the first '(' after `from` that is not an attribute such as __launch_bounds__.
std::string FunctionNameAfter(const std::string& text, std::size_t from) {
  for (std::size_t open = text.find('(', from); open != std::string::npos; open = text.find('(', open + 1)) {
    std::size_t end = open;
    while (end > from && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
    std::size_t begin = end;
    while (begin > from && IsWordChar(text[begin - 1])) --begin;
    const std::string name = text.substr(begin, end - begin);
    if (name.empty()) return "";
    if (name.rfind("__", 0) != 0) return name;
    open = text.find(')', open);  // skip the attribute's arguments
    if (open == std::string::npos) return "";
  }
  return "";
}

}  // namespace

namespace {

std::string Trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t");
  const std::size_t last = text.find_last_not_of(" \t");
  return first == std::string::npos ? "" : text.substr(first, last - first + 1);
}

// The position after the parenthesis that closes the one at `open`, or npos.
std::size_t AfterClosing(const std::string& text, std::size_t open) {
  int depth = 0;
  for (std::size_t i = open; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth == 0) return i + 1;
  }
  return std::string::npos;
}

// The function an overload-choosing name expression names: "k" for "static_cast<void (*)(int*)>(k)"
// and for "(void (*)(float*))k"; any other expression as it is, without a leading '&'.
std::string NamedFunction(const std::string& entry) {
  std::string name = Trimmed(entry);
  if (name.rfind("static_cast", 0) == 0) {
    const std::size_t open = name.rfind('('), close = name.rfind(')');
    name = open != std::string::npos && close > open ? name.substr(open + 1, close - open - 1) : "";
  } else if (!name.empty() && name.front() == '(') {
    const std::size_t after = AfterClosing(name, 0);
    name = after == std::string::npos ? "" : name.substr(after);
  }
  name = Trimmed(name);
  if (!name.empty() && name.front() == '&') name = Trimmed(name.substr(1));
  return name;
}

}  // namespace

std::string WithoutComments(const std::string& text) {
  std::string out = text;
  for (std::size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '/' && out[i + 1] == '/') {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out[i] == '/' && out[i + 1] == '*') {
      std::size_t end = out.find("*/", i + 2);
      end = end == std::string::npos ? out.size() : end + 2;
      for (; i < end; ++i)
        if (out[i] != '\n') out[i] = ' ';
    }
  }
  return out;
}

std::string DeclaredName(const std::string& entry) {
  const std::string function = NamedFunction(entry);
  std::string name = function.substr(0, function.find('<'));
  const std::size_t scope = name.rfind("::");
  if (scope != std::string::npos) name = name.substr(scope + 2);
  return Trimmed(name);
}

std::vector<std::string> KernelNamesIn(const std::string& text) {
  const std::string code = WithoutComments(text);
  std::vector<std::string> names;
  for (std::size_t at = code.find("__global__"); at != std::string::npos; at = code.find("__global__", at + 1)) {
    const std::string name = FunctionNameAfter(code, at + 10);
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

std::string MissingFromSource(const std::string& entry, const std::string& source_path, const std::string& source_text,
                              const std::vector<SourceHeader>& headers) {
  const std::string name = DeclaredName(entry);
  std::vector<std::string> kernels = KernelNamesIn(source_text);
  bool found = HasWord(WithoutComments(source_text), name);
  for (const SourceHeader& header : headers) {
    found = found || HasWord(WithoutComments(header.text), name);
    for (const std::string& kernel : KernelNamesIn(header.text)) kernels.push_back(kernel);
  }
  if (found) return "";
  const std::string file = std::filesystem::path(source_path).filename().string();
  std::string problem =
      "'" + name + "' does not occur in " + file + (headers.empty() ? "" : " or the headers it includes");
  const std::string suggestion = DidYouMean(name, kernels);
  if (!suggestion.empty()) return problem + suggestion;
  if (kernels.empty()) return problem + "; it defines no __global__ function";
  problem += "; its __global__ functions:";
  for (const std::string& kernel : kernels) problem += " " + kernel;
  return problem;
}

}  // namespace tuner
