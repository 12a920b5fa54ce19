// Reads the fields of one TOML template description strictly: a key the format does not have, a
// value of the wrong type or a malformed expression is a TemplateError "file:line: field: problem".
// Every error is kept and reading goes on with the next part (Part), so that one run reports them
// all (ThrowIfErrors), one per line.
#pragma once

#include <toml++/toml.h>

#include <string>
#include <utility>
#include <vector>

#include "expression/expression.h"
#include "template/template_spec.h"

namespace tuner {

class DescriptionReader {
 public:
  explicit DescriptionReader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void Fail(const toml::node* node, const std::string& field, const std::string& problem) const;

  // Runs `read`; a TemplateError it throws is kept and reading goes on: one part's error stops that
  // part alone.
  template <typename Fn>
  void Part(Fn read) const;
  bool HasErrors() const { return !errors_.empty(); }
  // One TemplateError with every error kept, one per line in the order met, the lines after the
  // first indented; nothing when none.
  void ThrowIfErrors() const;

  // Keeps an error for every key of `table` that is not in `allowed`, suggesting the nearest allowed
  // one. A key that belongs at the top level (`top_level`) is explained: TOML puts every key after a
  // [table] header into that table.
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
  // An array of expressions; absent is empty. Constraints are strings only: `[5]` is a slip. Every
  // item is checked: the errors of all but the last bad one are kept, the last is thrown.
  std::vector<std::string> Expressions(const toml::node* node, const std::string& field, const Variables& scope,
                                       bool integers_allowed = true) const;
  // A finite number, or an expression over `scope`.
  std::string NumberOrExpression(const toml::node* node, const std::string& field, const Variables& scope,
                                 const std::string& scope_note = "") const;

  // Calls fn(table, "key[i]") for each table of the array of tables `key` (none when absent), each
  // as a Part of its own.
  template <typename Fn>
  void ForEachTable(const toml::table& root, const std::string& key, Fn fn) const {
    const toml::node* node = root.get(key);
    if (!node) return;
    Part([&] {
      const toml::array& array = Array(node, key);
      for (std::size_t i = 0; i < array.size(); ++i) {
        const std::string field = key + "[" + std::to_string(i) + "]";
        Part([&] { fn(Table(array[i], field), field); });
      }
    });
  }

 private:
  void Keep(const std::exception& error) const { errors_.push_back(error.what()); }

  std::string file_;
  mutable std::vector<std::string> errors_;
};

template <typename Fn>
void DescriptionReader::Part(Fn read) const {
  try {
    read();
  } catch (const TemplateError& e) {
    Keep(e);
  }
}

}  // namespace tuner
