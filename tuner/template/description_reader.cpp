#include "template/description_reader.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "common/spelling.h"
#include "template/template_spec.h"

namespace tuner {

namespace {

bool Has(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

void DescriptionReader::Fail(const toml::node* node, const std::string& field, const std::string& problem) const {
  const auto line = node ? node->source().begin.line : 0;
  throw TemplateError(file_ + ":" + std::to_string(line) + ": " + field + ": " + problem);
}

void DescriptionReader::ThrowIfErrors() const {
  if (errors_.empty()) return;
  std::string all;
  // The others as the continuation lines of one message, indented, as messages of several lines are.
  for (const std::string& error : errors_) all += (all.empty() ? "" : "\n  ") + error;
  throw TemplateError(all);
}

void DescriptionReader::AllowOnly(const toml::table& table, const std::string& field,
                                  const std::vector<std::string>& allowed,
                                  const std::vector<std::string>& top_level) const {
  std::vector<std::pair<toml::source_index, std::string>> unknown;  // a table iterates its keys sorted by name
  for (auto&& [key, value] : table) {
    const std::string name(key.str());
    if (Has(allowed, name)) continue;
    const std::string where = field.empty() ? name : field + "." + name;
    const std::string hint =
        Has(top_level, name) ? " (a top-level key: write it before the first table)" : DidYouMean(name, allowed);
    const toml::source_index line = key.source().begin.line;
    unknown.emplace_back(line, file_ + ":" + std::to_string(line) + ": " + where + ": unknown key" + hint);
  }
  std::stable_sort(unknown.begin(), unknown.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [line, error] : unknown) Keep(TemplateError(error));
}

std::string DescriptionReader::String(const toml::table& table, const std::string& key, const std::string& field,
                                      bool required, const std::string& fallback) const {
  const toml::node* node = table.get(key);
  if (!node) {
    if (required) Fail(&table, field, "is required");
    return fallback;
  }
  if (auto value = node->value_exact<std::string>()) return *value;
  Fail(node, field, "must be a string");
}

bool DescriptionReader::Bool(const toml::table& table, const std::string& key, const std::string& field,
                             bool fallback) const {
  const toml::node* node = table.get(key);
  if (!node) return fallback;
  if (auto value = node->value_exact<bool>()) return *value;
  Fail(node, field, "must be true or false");
}

long long DescriptionReader::Integer(const toml::table& table, const std::string& key, const std::string& field) const {
  const toml::node* node = table.get(key);
  if (!node) Fail(&table, field, "is required");
  if (auto value = node->value_exact<long long>()) return *value;
  Fail(node, field, "must be an integer");
}

const toml::array& DescriptionReader::Array(const toml::node* node, const std::string& field) const {
  if (const toml::array* array = node ? node->as_array() : nullptr) return *array;
  Fail(node, field, "must be an array");
}

const toml::table& DescriptionReader::Table(const toml::node& node, const std::string& field) const {
  if (const toml::table* table = node.as_table()) return *table;
  Fail(&node, field, "must be a table");
}

std::vector<std::string> DescriptionReader::Strings(const toml::node* node, const std::string& field,
                                                    const std::string& what) const {
  std::vector<std::string> result;
  if (!node) return result;
  for (const toml::node& item : Array(node, field)) {
    if (auto text = item.value_exact<std::string>())
      result.push_back(*text);
    else
      Fail(&item, field, "must hold " + what);
  }
  return result;
}

std::string DescriptionReader::Expression(const toml::node* node, const std::string& field, const Variables& scope,
                                          const std::string& scope_note) const {
  std::string text;
  if (auto string = node->value_exact<std::string>())
    text = *string;
  else if (auto number = node->value_exact<long long>())
    text = std::to_string(*number);
  else
    Fail(node, field, "must be an expression string");
  try {
    CheckSyntax(text, scope);
  } catch (const ExpressionError& e) {
    Fail(node, field, e.what() + scope_note);
  }
  return text;
}

std::vector<std::string> DescriptionReader::Expressions(const toml::node* node, const std::string& field,
                                                        const Variables& scope, bool integers_allowed) const {
  std::vector<std::string> result;
  if (!node) return result;
  std::optional<TemplateError> last;
  for (const toml::node& item : Array(node, field)) {
    try {
      if (!integers_allowed && !item.is_string()) Fail(&item, field, "must hold expression strings");
      result.push_back(Expression(&item, field, scope));
    } catch (const TemplateError& e) {
      if (last) Keep(*last);
      last = e;
    }
  }
  if (last) throw *last;
  return result;
}

std::string DescriptionReader::NumberOrExpression(const toml::node* node, const std::string& field,
                                                  const Variables& scope, const std::string& scope_note) const {
  if (node->is_floating_point()) {
    if (!std::isfinite(*node->value<double>())) Fail(node, field, "must be finite");
    std::ostringstream exact;
    exact.precision(17);
    exact << *node->value<double>();
    return exact.str();
  }
  return Expression(node, field, scope, scope_note);
}

}  // namespace tuner
