#include "template/macro_collisions.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "template/source_names.h"

namespace tuner {

namespace {

enum class Use { kTemplateParameter, kDeclaration, kPreprocessorCondition, kExpression };

struct Occurrence {
  Use use = Use::kExpression;
  std::string file;  // the file name, its folder left out
  int line = 0;
  std::string text;  // the line, trimmed
};

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Words after which a name is used, not declared: `return TILE`, `case TILE:`.
bool IsExpressionKeyword(const std::string& word) {
  static const std::set<std::string> kKeywords = {"return", "case",   "sizeof",    "alignof", "else",
                                                  "do",     "throw",  "new",       "delete",  "goto",
                                                  "co_return", "co_yield", "co_await", "and",  "or",
                                                  "not",    "decltype"};
  return kKeywords.count(word) > 0;
}

std::string LineAt(const std::string& text, std::size_t at, int* line_number) {
  *line_number = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(at), '\n'));
  const std::size_t begin = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
  const std::size_t end = text.find('\n', at);
  std::string line = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  const std::size_t first = line.find_first_not_of(" \t");
  return first == std::string::npos ? "" : line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
}

// True when `at` lies inside the parameter list of a `template <...>`.
bool InTemplateParameterList(const std::string& code, std::size_t at) {
  for (std::size_t t = code.rfind("template", at); t != std::string::npos; t = t ? code.rfind("template", t - 1) : std::string::npos) {
    const bool word = (t == 0 || !IsWordChar(code[t - 1])) && !IsWordChar(code[t + 8]);
    const std::size_t open = code.find_first_not_of(" \t\r\n", t + 8);
    if (!word || open == std::string::npos || code[open] != '<') continue;
    int depth = 0;
    for (std::size_t i = open; i < code.size(); ++i) {
      if (code[i] == '<') ++depth;
      if (code[i] == '>' && --depth == 0) return at > open && at < i;
    }
    return false;
  }
  return false;
}

// How the word at `at` is used: declared after a type or keyword (`int TILE`, `typename T`), or
// after `.`, `->` or `::`, where a number cannot stand; else an expression.
Use UseAt(const std::string& code, std::size_t at) {
  std::size_t end = at;
  while (end > 0 && std::isspace(static_cast<unsigned char>(code[end - 1]))) --end;
  if (end == 0) return Use::kExpression;
  const char before = code[end - 1];
  if (before == '.' || (before == '>' && end >= 2 && code[end - 2] == '-') || (before == ':' && end >= 2 && code[end - 2] == ':'))
    return Use::kDeclaration;
  if (!IsWordChar(before)) return Use::kExpression;
  std::size_t begin = end;
  while (begin > 0 && IsWordChar(code[begin - 1])) --begin;
  const std::string word = code.substr(begin, end - begin);
  if (IsExpressionKeyword(word) || std::isdigit(static_cast<unsigned char>(word[0]))) return Use::kExpression;
  return InTemplateParameterList(code, at) ? Use::kTemplateParameter : Use::kDeclaration;
}

// The text with the insides of string and character literals blanked: a macro does not rewrite them.
std::string WithoutLiterals(const std::string& code) {
  std::string out = code;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char quote = out[i];
    if (quote != '"' && quote != '\'') continue;
    for (++i; i < out.size() && out[i] != quote && out[i] != '\n'; ++i) {
      if (out[i] == '\\' && i + 1 < out.size()) out[i++] = ' ';
      out[i] = ' ';
    }
  }
  return out;
}

// The text with preprocessor lines blanked; the conditions among them are looked at separately.
std::string WithoutDirectives(const std::string& code) {
  std::string out = code;
  std::size_t begin = 0;
  while (begin < out.size()) {
    const std::size_t end = std::min(out.find('\n', begin), out.size());
    const std::size_t first = out.find_first_not_of(" \t", begin);
    if (first < end && out[first] == '#') std::fill(out.begin() + static_cast<long>(begin), out.begin() + static_cast<long>(end), ' ');
    begin = end + 1;
  }
  return out;
}

bool IsCondition(const std::string& line) {
  for (const char* directive : {"#if", "#elif", "# if", "# elif"})
    if (line.rfind(directive, 0) == 0) return true;
  return false;
}

void AddOccurrences(const std::string& name, const std::string& file, const std::string& text,
                    std::vector<Occurrence>& found) {
  const std::string commented = WithoutLiterals(WithoutComments(text)), code = WithoutDirectives(commented);
  for (std::size_t at = commented.find(name); at != std::string::npos; at = commented.find(name, at + 1)) {
    const bool word = (at == 0 || !IsWordChar(commented[at - 1])) &&
                      (at + name.size() == commented.size() || !IsWordChar(commented[at + name.size()]));
    if (!word) continue;
    Occurrence o;
    o.file = file;
    o.text = LineAt(text, at, &o.line);  // as written
    if (code[at] == ' ')
      o.use = IsCondition(o.text) ? Use::kPreprocessorCondition : Use::kExpression;
    else
      o.use = UseAt(code, at);
    found.push_back(o);
  }
}

std::vector<Occurrence> OccurrencesOf(const std::string& name, const TemplateSpec& spec) {
  std::vector<Occurrence> found;
  AddOccurrences(name, std::filesystem::path(spec.source_path).filename().string(), spec.source_text, found);
  for (const SourceHeader& header : spec.headers) AddOccurrences(name, header.include_name, header.text, found);
  return found;
}

bool NamesWord(const std::string& expression, const std::string& word) {
  for (std::size_t at = expression.find(word); at != std::string::npos; at = expression.find(word, at + 1))
    if ((at == 0 || !IsWordChar(expression[at - 1])) &&
        (at + word.size() == expression.size() || !IsWordChar(expression[at + word.size()])))
      return true;
  return false;
}

const Occurrence* FirstOf(const std::vector<Occurrence>& found, Use use) {
  const auto it = std::find_if(found.begin(), found.end(), [&](const Occurrence& o) { return o.use == use; });
  return it == found.end() ? nullptr : &*it;
}

std::string Where(const Occurrence& o) { return o.file + ":" + std::to_string(o.line) + " ('" + o.text + "')"; }

[[noreturn]] void Refuse(const TemplateSpec& spec, const std::string& param, const std::string& problem) {
  throw TemplateError(spec.description_path + ": parameter " + param + ": " + problem);
}

}  // namespace

std::vector<std::string> TemplateArgumentParams(const TemplateSpec& spec) {
  std::vector<std::string> arguments;
  const bool named = !spec.kernel.empty();
  for (const ParamSpec& param : spec.params) {
    if (param.host || !named) continue;
    const std::vector<Occurrence> found = OccurrencesOf(param.name, spec);
    const Occurrence* template_parameter = FirstOf(found, Use::kTemplateParameter);
    const Occurrence* declaration = FirstOf(found, Use::kDeclaration);
    const Occurrence* condition = FirstOf(found, Use::kPreprocessorCondition);
    const bool passed = NamesWord(spec.kernel, param.name) || NamesWord(spec.check.kernel, param.name);
    if (template_parameter && passed) {
      if (condition)
        Refuse(spec, param.name,
               "is a template parameter at " + Where(*template_parameter) + " and the kernel name passes it, so it is "
               "no macro, but " + Where(*condition) + " reads it as one (it would read 0); use the template "
               "parameter there, or rename one of the two");
      arguments.push_back(param.name);
    } else if (template_parameter) {
      Refuse(spec, param.name,
             "is also a template parameter at " + Where(*template_parameter) + ", which its -D" + param.name +
                 " macro would rewrite into a syntax error; pass " + param.name +
                 " among the template arguments of the kernel name (now \"" + spec.kernel +
                 "\") if that template is the kernel, or rename one of the two");
    } else if (declaration) {
      Refuse(spec, param.name,
             "is also declared at " + Where(*declaration) + ", which its -D" + param.name +
                 " macro would rewrite into a syntax error; rename the declaration or the parameter");
    }
  }
  return arguments;
}

}  // namespace tuner
