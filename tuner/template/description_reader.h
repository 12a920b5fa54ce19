// Reads the fields of one TOML template description strictly: a key the format does not have, a
// value of the wrong type or a malformed expression is a TemplateError "file:line: field: problem".
#pragma once

#include <toml++/toml.h>

#include <string>
#include <vector>

#include "expression/expression.h"

namespace tuner {

class DescriptionReader {
 public:
  explicit DescriptionReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void Fail(const toml::node* node, const std::string& field, const std::string& problem) const;

  // Refuses every key of `table` that is not in `allowed`, suggesting the nearest allowed one. A key
  // that belongs at the top level (`top_level`) is explained: TOML puts every key after a [table]
  // header into that table.
  void AllowOnly(const toml::table& table, const std::string& field, const std::vector<std::string>& allowed,
                 const std::vector<std::string>& top_level = {}) const;

  std::string String(const toml::table& table, const std::string& key, const std::string& field, bool required,
                     const std::string& fallback = "") const;
  bool Bool(const toml::table& table, const std::string& key, const std::string& field, bool fallback) const;
  long long Integer(const toml::table& table, const std::string& key, const std::string& field) const;
  const toml::array& Array(const toml::node* node, const std::string& field) const;
  const toml::table& Table(const toml::node& node, const std::string& field) const;
  // An array of strings; absent is empty.
  std::vector<std::string> Strings(const toml::node* node, const std::string& field,
                                   const std::string& what = "strings") const;

  // An expression, written as a string or, for convenience, a plain integer, that uses only the
  // names in `scope` (`scope_note` says which those are when one is missing).
  std::string Expression(const toml::node* node, const std::string& field, const Variables& scope,
                         const std::string& scope_note = "") const;
  // An array of expressions; absent is empty. Constraints are strings only: `[5]` is a slip.
  std::vector<std::string> Expressions(const toml::node* node, const std::string& field, const Variables& scope,
                                       bool integers_allowed = true) const;
  // A finite number, or an expression over `scope`.
  std::string NumberOrExpression(const toml::node* node, const std::string& field, const Variables& scope,
                                 const std::string& scope_note = "") const;

  // Calls fn(table, "key[i]") for each table of the array of tables `key` (none when absent).
  template <typename Fn>
  void ForEachTable(const toml::table& root, const std::string& key, Fn fn) const {
    const toml::node* node = root.get(key);
    if (!node) return;
    const toml::array& array = Array(node, key);
    for (std::size_t i = 0; i < array.size(); ++i) {
      const std::string field = key + "[" + std::to_string(i) + "]";
      fn(Table(array[i], field), field);
    }
  }

 private:
  std::string file_;
};

}  // namespace tuner
