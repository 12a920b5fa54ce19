#include "template/argument_guess.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "base/errors.h"
#include "common/option_values.h"
#include "common/spelling.h"
#include "template/reserved_names.h"
#include "template/source_names.h"

namespace tuner {

namespace {

std::vector<std::string> Words(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

std::string Joined(const std::vector<std::string>& words, const char* separator = " ") {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : separator) + word;
  return text;
}

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The element type a type's words (qualifiers and '*' left out) spell, as CUDA and <cstdint> name them.
std::optional<ScalarType> ElementSpelled(const std::string& spelled) {
  static const std::map<std::string, ScalarType> kSpellings = {
      {"float", ScalarType::kFloat},
      {"double", ScalarType::kDouble},
      {"__half", ScalarType::kHalf},
      {"half", ScalarType::kHalf},
      {"__nv_bfloat16", ScalarType::kBfloat16},
      {"nv_bfloat16", ScalarType::kBfloat16},
      {"__nv_fp8_e4m3", ScalarType::kFp8E4m3},
      {"__nv_fp8_e5m2", ScalarType::kFp8E5m2},
      {"int", ScalarType::kInt},
      {"signed", ScalarType::kInt},
      {"signed int", ScalarType::kInt},
      {"int32_t", ScalarType::kInt},
      {"unsigned", ScalarType::kUint},
      {"unsigned int", ScalarType::kUint},
      {"uint32_t", ScalarType::kUint},
      {"long", ScalarType::kInt64},  // LP64, as on every platform CUDA runs on but Windows
      {"long int", ScalarType::kInt64},
      {"long long", ScalarType::kInt64},
      {"long long int", ScalarType::kInt64},
      {"signed long long", ScalarType::kInt64},
      {"int64_t", ScalarType::kInt64},
      {"ptrdiff_t", ScalarType::kInt64},
      {"unsigned long", ScalarType::kUint64},
      {"unsigned long int", ScalarType::kUint64},
      {"unsigned long long", ScalarType::kUint64},
      {"unsigned long long int", ScalarType::kUint64},
      {"uint64_t", ScalarType::kUint64},
      {"size_t", ScalarType::kUint64},
      {"short", ScalarType::kInt16},
      {"short int", ScalarType::kInt16},
      {"int16_t", ScalarType::kInt16},
      {"unsigned short", ScalarType::kUint16},
      {"unsigned short int", ScalarType::kUint16},
      {"uint16_t", ScalarType::kUint16},
      {"char", ScalarType::kInt8},  // signed on the x86 and Arm hosts nvcc targets
      {"signed char", ScalarType::kInt8},
      {"int8_t", ScalarType::kInt8},
      {"unsigned char", ScalarType::kUint8},
      {"uint8_t", ScalarType::kUint8},
  };
  const auto it = kSpellings.find(spelled);
  return it == kSpellings.end() ? std::nullopt : std::optional<ScalarType>(it->second);
}

// Whether the body reads `name` rather than only assigning to its elements (`name[i] = ...`): any
// other use (`name[i] += v`, `v = name[i]`, `name + i`) counts as a read.
bool BodyReads(const std::string& body, const std::string& name) {
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = body.find(name); at != std::string::npos; at = body.find(name, at + 1)) {
    const std::size_t end = at + name.size();
    if ((at > 0 && word_char(body[at - 1])) || (end < body.size() && word_char(body[end]))) continue;
    std::size_t next = body.find_first_not_of(" \t\r\n", end);
    if (next == std::string::npos || body[next] != '[') return true;
    int depth = 0;
    for (; next < body.size(); ++next) {
      depth += body[next] == '[' ? 1 : body[next] == ']' ? -1 : 0;
      if (depth == 0) break;
    }
    next = body.find_first_not_of(" \t\r\n", next + 1);
    if (next == std::string::npos || body[next] != '=' || (next + 1 < body.size() && body[next + 1] == '='))
      return true;
  }
  return false;
}

const char* const kPassable =
    "float, double, __half, __nv_bfloat16, __nv_fp8_e4m3, __nv_fp8_e5m2 and the integers of 8 to 64 bits "
    "(int, unsigned, int64_t, size_t, ...)";

bool NamedLikeASize(const std::string& name) {
  static const std::vector<std::string> kNames = {"n",        "size",         "count",     "len",    "length",
                                                  "num",      "numel",        "nelem",     "nelems", "total",
                                                  "elements", "num_elements", "n_elements"};
  const std::string lower = Lower(name);
  return std::count(kNames.begin(), kNames.end(), lower) || lower.rfind("num_", 0) == 0 || lower.rfind("n_", 0) == 0;
}

GuessedArgument GuessArgument(const std::string& kernel, const DeclaredParameter& parameter, std::size_t index,
                              const std::string& body) {
  GuessedArgument argument{parameter.name.empty() ? "arg" + std::to_string(index) : parameter.name, parameter.type};
  const std::vector<std::string> words = Words(parameter.type);
  const auto star = std::find(words.begin(), words.end(), "*");
  const bool is_const = std::find(words.begin(), star, "const") != star;
  std::vector<std::string> spelled;
  for (const std::string& word : words)
    if (word != "const" && word != "volatile" && word != "__restrict__" && word != "__restrict" && word != "*")
      spelled.push_back(word.rfind("std::", 0) == 0 ? word.substr(5)
                        : word.rfind("::", 0) == 0  ? word.substr(2)
                                                    : word);
  const std::optional<ScalarType> type = ElementSpelled(Joined(spelled));
  const auto stars = std::count(words.begin(), words.end(), "*");
  if (!type || stars > 1 || parameter.type.find_first_of("&[(") != std::string::npos)
    throw UsageError("kernel " + Quoted(kernel) + ": argument " + Quoted(argument.name) + " has type " +
                     Quoted(parameter.type) + ", which a description cannot pass: it passes " + kPassable +
                     ", and pointers to them; give the kernel a wrapper kernel that takes such arguments");
  argument.type = *type;
  if (stars == 1)  // an unnamed pointer is neither read nor written: an input that must stay as it is
    argument.role = is_const || parameter.name.empty() ? ArgumentRole::kInput
                    : BodyReads(body, parameter.name)  ? ArgumentRole::kInOut
                                                       : ArgumentRole::kOutput;
  else
    argument.role =
        !Element(*type).floating && NamedLikeASize(argument.name) ? ArgumentRole::kSize : ArgumentRole::kScalar;
  return argument;
}

// An integer literal ("128", "128u"), or nullopt.
std::optional<long long> IntegerLiteral(const std::string& text) {
  std::size_t used = 0;
  try {
    const long long value = std::stoll(text, &used, 0);
    const std::string suffix = Lower(text.substr(used));
    if (suffix.find_first_not_of("ul") == std::string::npos) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::string TemplateList(const KernelDeclaration& declaration) {
  std::vector<std::string> parts;
  for (const DeclaredParameter& p : declaration.template_parameters)
    parts.push_back(p.type + " " + p.name + (p.default_value.empty() ? "" : " = " + p.default_value));
  return "template <" + Joined(parts, ", ") + ">";
}

// The template arguments of `expression` against the declaration's parameters: types put into the
// arguments' types, integers made tuning parameters, anything else kept as written.
void TakeTemplateArguments(const std::string& expression, KernelGuess& guess) {
  const KernelDeclaration& declaration = guess.declaration;
  const std::size_t open = expression.find('<');
  const std::vector<std::string> given =
      open == std::string::npos ? std::vector<std::string>{}
                                : SplitTopLevel(expression.substr(open + 1, expression.rfind('>') - open - 1));
  const auto& parameters = declaration.template_parameters;
  const bool too_few = given.size() < parameters.size() && parameters[given.size()].default_value.empty();
  if (given.size() > parameters.size() || too_few)
    throw UsageError(
        "kernel " + Quoted(expression) + " gives " + std::to_string(given.size()) + " template argument(s); " +
        declaration.name + " is declared " +
        (parameters.empty() ? "without template parameters" : TemplateList(declaration)) +
        (too_few ? ": name it with its arguments, e.g. --kernel '" + declaration.name + "<float, 256>'" : ""));
  std::map<std::string, std::string> types;
  std::vector<std::string> written;
  for (std::size_t i = 0; i < given.size(); ++i) {
    const DeclaredParameter& parameter = parameters[i];
    const std::optional<long long> value = IntegerLiteral(given[i]);
    if (parameter.type == "typename" || parameter.type == "class") types[parameter.name] = given[i];
    if (!value || parameter.type == "typename" || parameter.type == "class" || !WhyReserved(parameter.name).empty()) {
      written.push_back(given[i]);
      continue;
    }
    guess.parameters.push_back({parameter.name, *value});
    written.push_back(parameter.name);
  }
  for (std::size_t i = given.size(); i < parameters.size(); ++i)  // a type left to its default
    if (parameters[i].type == "typename" || parameters[i].type == "class")
      types[parameters[i].name] = parameters[i].default_value;
  // A template's name always with its argument list, `k<>` too: a template's bare name names no kernel.
  if (parameters.empty())
    guess.kernel = expression;
  else
    guess.kernel = expression.substr(0, open) + "<" + Joined(written, ", ") + ">";
  for (DeclaredParameter& parameter : guess.declaration.parameters) {
    std::vector<std::string> words = Words(parameter.type);
    for (std::string& word : words)
      if (types.count(word)) word = types.at(word);
    parameter.type = Joined(words);
  }
}

// The parameter that sets the block size: the one __launch_bounds__ names, else one named so.
void FindBlockSize(KernelGuess& guess) {
  const std::string& bounds = guess.declaration.launch_bounds;
  if (const std::optional<long long> threads = IntegerLiteral(bounds)) guess.max_block_threads = *threads;
  for (const GuessedParameter& parameter : guess.parameters) {
    const std::string lower = Lower(parameter.name);
    if (parameter.name == bounds) guess.block_parameter = parameter.name;
    if (guess.block_parameter.empty() &&
        (lower.find("block") != std::string::npos || lower.find("thread") != std::string::npos))
      guess.block_parameter = parameter.name;
  }
}

}  // namespace

const char* ToString(ArgumentRole role) {
  switch (role) {
    case ArgumentRole::kInput:
      return "input";
    case ArgumentRole::kOutput:
      return "output";
    case ArgumentRole::kInOut:
      return "inout";
    case ArgumentRole::kSize:
      return "size";
    case ArgumentRole::kScalar:
      break;
  }
  return "scalar";
}

KernelGuess GuessKernel(const std::string& path, const std::string& text, const std::string& expression) {
  const std::string name = DeclaredName(expression);
  const bool balanced = std::count(expression.begin(), expression.end(), '<') ==
                            std::count(expression.begin(), expression.end(), '>') &&
                        (expression.find('<') == std::string::npos || expression.back() == '>');
  if (!IsIdentifier(name) || !balanced || expression.find('(') != std::string::npos)
    throw UsageError("--kernel " + Quoted(expression) +
                     ": not a kernel name (a C++ name, optionally with <template arguments>)");
  std::optional<KernelDeclaration> declaration = FindKernelDeclaration(text, name);
  if (!declaration) {
    const std::vector<std::string> kernels = KernelNamesIn(text);
    const std::string hint = DidYouMean(name, kernels);
    throw UsageError(path + ": no __global__ function " + Quoted(name) +
                     (!hint.empty()     ? hint
                      : kernels.empty() ? "; the file defines no __global__ function"
                                        : "; its __global__ functions: " + Joined(kernels)));
  }
  KernelGuess guess;
  guess.declaration = std::move(*declaration);
  TakeTemplateArguments(expression, guess);
  FindBlockSize(guess);
  bool writes = false;
  for (std::size_t i = 0; i < guess.declaration.parameters.size(); ++i) {
    guess.arguments.push_back(GuessArgument(expression, guess.declaration.parameters[i], i, guess.declaration.body));
    writes |=
        guess.arguments.back().role == ArgumentRole::kOutput || guess.arguments.back().role == ArgumentRole::kInOut;
  }
  if (!writes)
    throw UsageError("kernel " + Quoted(expression) + " (" + path + ":" + std::to_string(guess.declaration.line) +
                     ") has no pointer it may write (one not to const): a template checks an output buffer");
  return guess;
}

}  // namespace tuner
