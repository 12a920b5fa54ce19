#include "template/kernel_declaration.h"

#include <algorithm>
#include <cctype>

#include "template/source_names.h"

namespace tuner {

namespace {

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The contents of string and character literals blanked, so that a brace or parenthesis in a
// printf format cannot unbalance the scan; a quote after a digit is C++14's digit separator.
std::string WithoutLiterals(std::string code) {
  for (std::size_t i = 0; i < code.size(); ++i) {
    const char quote = code[i];
    if ((quote != '"' && quote != '\'') || (quote == '\'' && i > 0 && IsWordChar(code[i - 1]))) continue;
    for (++i; i < code.size() && code[i] != quote && code[i] != '\n'; ++i) {
      if (code[i] == '\\' && i + 1 < code.size()) code[i++] = ' ';
      code[i] = ' ';
    }
  }
  return code;
}

// The position of the bracket that closes the one at `open` (any of ( [ { <), or npos.
std::size_t Closing(const std::string& code, std::size_t open) {
  const char opening = code[open];
  const char closing = opening == '(' ? ')' : opening == '[' ? ']' : opening == '{' ? '}' : '>';
  int depth = 0;
  for (std::size_t i = open; i < code.size(); ++i) {
    if (code[i] == opening) ++depth;
    if (code[i] == closing && --depth == 0) return i;
  }
  return std::string::npos;
}

std::string Trimmed(const std::string& text) {
  const auto first = std::find_if_not(text.begin(), text.end(), IsSpace);
  const auto last = std::find_if_not(text.rbegin(), text.rend(), IsSpace).base();
  return first < last ? std::string(first, last) : "";
}

// Words (with `::` inside them) and single symbols, whitespace dropped.
std::vector<std::string> Tokens(const std::string& text) {
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < text.size();) {
    if (IsSpace(text[i])) {
      ++i;
      continue;
    }
    std::size_t end = i + 1;
    if (IsWordChar(text[i]) || text[i] == ':')
      while (end < text.size() && (IsWordChar(text[end]) || text[end] == ':')) ++end;
    tokens.push_back(text.substr(i, end - i));
    i = end;
  }
  return tokens;
}

// Words that end a type rather than name a parameter: `unsigned int`, `float* const`.
bool IsTypeWord(const std::string& word) {
  static const std::vector<std::string> kWords = {
      "int",   "unsigned", "signed",   "long",         "short",      "char",     "float", "double", "bool",
      "const", "void",     "volatile", "__restrict__", "__restrict", "typename", "class", "size_t"};
  return std::find(kWords.begin(), kWords.end(), word) != kWords.end();
}

// `template <...>` right before `__global__` at `at` (specifiers such as `static` between them).
std::vector<DeclaredParameter> TemplateParametersBefore(const std::string& code, std::size_t at) {
  std::size_t end = at;
  for (;;) {
    while (end > 0 && IsSpace(code[end - 1])) --end;
    std::size_t begin = end;
    while (begin > 0 && IsWordChar(code[begin - 1])) --begin;
    const std::string word = code.substr(begin, end - begin);
    if (word != "static" && word != "inline" && word != "__forceinline__" && word != "__noinline__") break;
    end = begin;
  }
  if (end == 0 || code[end - 1] != '>') return {};
  int depth = 0;
  std::size_t open = end - 1;
  for (;; --open) {
    depth += code[open] == '>' ? 1 : code[open] == '<' ? -1 : 0;
    if (depth == 0 || open == 0) break;
  }
  const std::string before = Trimmed(code.substr(0, open));
  if (depth != 0 || before.size() < 8 || before.compare(before.size() - 8, 8, "template") != 0) return {};
  std::vector<DeclaredParameter> parameters;
  for (const std::string& part : SplitTopLevel(code.substr(open + 1, end - open - 2)))
    parameters.push_back(ReadParameter(part));
  return parameters;
}

// The declaration whose `__global__` is at `at`, when it names a function `name`.
std::optional<KernelDeclaration> DeclarationAt(const std::string& code, std::size_t at, const std::string& name) {
  KernelDeclaration declaration;
  for (std::size_t i = at + 10; i < code.size(); ++i) {
    if (code[i] == ';' || code[i] == '{' || code[i] == '}') return std::nullopt;  // a variable, not a function
    if (code[i] != '(') continue;
    std::size_t begin = i;
    while (begin > at && IsSpace(code[begin - 1])) --begin;
    std::size_t word = begin;
    while (word > at && IsWordChar(code[word - 1])) --word;
    const std::string identifier = code.substr(word, begin - word);
    const std::size_t close = Closing(code, i);
    if (close == std::string::npos) return std::nullopt;
    if (identifier == "__launch_bounds__") {
      const std::vector<std::string> bounds = SplitTopLevel(code.substr(i + 1, close - i - 1));
      declaration.launch_bounds = bounds.empty() ? "" : bounds.front();
    }
    if (identifier.rfind("__", 0) == 0) {  // an attribute's arguments
      i = close;
      continue;
    }
    if (identifier != name) return std::nullopt;
    declaration.name = name;
    for (const std::string& part : SplitTopLevel(code.substr(i + 1, close - i - 1)))
      if (part != "void") declaration.parameters.push_back(ReadParameter(part));
    const std::size_t after = code.find_first_not_of(" \t\r\n", close + 1);
    if (after != std::string::npos && code[after] == '{') {
      const std::size_t end = Closing(code, after);
      declaration.body = code.substr(after + 1, (end == std::string::npos ? code.size() : end) - after - 1);
    }
    declaration.template_parameters = TemplateParametersBefore(code, at);
    declaration.line = 1 + static_cast<std::size_t>(std::count(code.begin(), code.begin() + at, '\n'));
    return declaration;
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> SplitTopLevel(const std::string& list) {
  std::vector<std::string> parts;
  int depth = 0;
  std::string part;
  for (const char c : list) {
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
    if (c == ',' && depth == 0) {
      if (!Trimmed(part).empty()) parts.push_back(Trimmed(part));
      part.clear();
      continue;
    }
    part += c;
  }
  if (!Trimmed(part).empty()) parts.push_back(Trimmed(part));
  return parts;
}

DeclaredParameter ReadParameter(const std::string& text) {
  DeclaredParameter parameter;
  std::vector<std::string> tokens = Tokens(text);
  const auto equals = std::find(tokens.begin(), tokens.end(), "=");
  if (equals != tokens.end()) {
    parameter.default_value = Trimmed(text.substr(text.find('=') + 1));
    tokens.erase(equals, tokens.end());
  }
  if (tokens.size() > 1 && IsWordChar(tokens.back().front()) && !IsTypeWord(tokens.back())) {
    parameter.name = tokens.back();
    tokens.pop_back();
  }
  for (const std::string& token : tokens) parameter.type += (parameter.type.empty() ? "" : " ") + token;
  return parameter;
}

std::optional<KernelDeclaration> FindKernelDeclaration(const std::string& text, const std::string& name) {
  const std::string code = WithoutLiterals(WithoutComments(text));
  std::optional<KernelDeclaration> first;
  for (std::size_t at = code.find("__global__"); at != std::string::npos; at = code.find("__global__", at + 1)) {
    if ((at > 0 && IsWordChar(code[at - 1])) || (at + 10 < code.size() && IsWordChar(code[at + 10]))) continue;
    std::optional<KernelDeclaration> declaration = DeclarationAt(code, at, name);
    if (!declaration) continue;
    if (!declaration->body.empty()) return declaration;
    if (!first) first = std::move(declaration);
  }
  return first;
}

}  // namespace tuner
