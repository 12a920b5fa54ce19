#include "template_spec.h"

#include <toml++/toml.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "content_hash.h"
#include "expression.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TemplateError(path + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Reads fields of one description and reports errors as "file:line: field: problem".
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void Fail(const toml::node* node, const std::string& field, const std::string& problem) const {
    const auto line = node ? node->source().begin.line : 0;
    throw TemplateError(file_ + ":" + std::to_string(line) + ": " + field + ": " + problem);
  }

  std::string String(const toml::table& table, const std::string& key, const std::string& field,
                     bool required, const std::string& fallback = "") const {
    const toml::node* node = table.get(key);
    if (!node) {
      if (required) Fail(&table, field, "is required");
      return fallback;
    }
    if (auto value = node->value<std::string>()) return *value;
    Fail(node, field, "must be a string");
  }

  // An expression may be written as a string or, for convenience, a plain integer.
  std::string Expression(const toml::node* node, const std::string& field) const {
    if (auto text = node->value<std::string>()) return *text;
    if (auto number = node->value<long long>()) return std::to_string(*number);
    Fail(node, field, "must be an expression string");
  }

  long long Integer(const toml::table& table, const std::string& key, const std::string& field) const {
    const toml::node* node = table.get(key);
    if (!node) Fail(&table, field, "is required");
    if (auto value = node->value<long long>()) return *value;
    Fail(node, field, "must be an integer");
  }

  // A number, or an expression over the sizes.
  std::string Tolerance(const toml::node* node, const std::string& field) const {
    if (auto text = node->value<std::string>()) return *text;
    if (auto value = node->value<double>()) {
      std::ostringstream exact;
      exact.precision(17);
      exact << *value;
      return exact.str();
    }
    Fail(node, field, "must be a number or an expression");
  }

  const toml::array& Array(const toml::node* node, const std::string& field) const {
    if (const toml::array* array = node ? node->as_array() : nullptr) return *array;
    Fail(node, field, "must be an array");
  }

  const toml::table& Table(const toml::node& node, const std::string& field) const {
    if (const toml::table* table = node.as_table()) return *table;
    Fail(&node, field, "must be a table");
  }

  std::vector<std::string> Expressions(const toml::node* node, const std::string& field) const {
    std::vector<std::string> result;
    if (!node) return result;
    for (const toml::node& item : Array(node, field)) result.push_back(Expression(&item, field));
    return result;
  }

 private:
  std::string file_;
};

ScalarType ParseType(const Reader& r, const toml::table& t, const std::string& field) {
  static const std::map<std::string, ScalarType> kTypes = {
      {"float", ScalarType::kFloat}, {"double", ScalarType::kDouble}, {"int", ScalarType::kInt},
      {"uint", ScalarType::kUint},   {"int64", ScalarType::kInt64},   {"uint64", ScalarType::kUint64}};
  const std::string name = r.String(t, "type", field + ".type", true);
  auto it = kTypes.find(name);
  if (it == kTypes.end()) r.Fail(t.get("type"), field + ".type", "unknown type '" + name + "' (float, double, int, uint, int64, uint64)");
  return it->second;
}

BufferInit ParseInit(const Reader& r, const toml::table& t, const std::string& field, bool output) {
  static const std::map<std::string, BufferInit> kInits = {
      {"random", BufferInit::kRandom}, {"zero", BufferInit::kZero}, {"one", BufferInit::kOne},
      {"index", BufferInit::kIndex},   {"poison", BufferInit::kPoison}, {"random_int", BufferInit::kRandomInt}};
  const std::string name = r.String(t, "init", field + ".init", false, output ? "poison" : "zero");
  auto it = kInits.find(name);
  if (it == kInits.end()) r.Fail(t.get("init"), field + ".init", "unknown init '" + name + "' (random, random_int, zero, one, index, poison)");
  if (output && it->second != BufferInit::kPoison && it->second != BufferInit::kZero)
    r.Fail(t.get("init"), field + ".init", "an output is initialised with 'poison' or 'zero'");
  return it->second;
}

template <typename Fn>
void ForEachTable(const Reader& r, const toml::table& root, const std::string& key, Fn fn) {
  const toml::node* node = root.get(key);
  if (!node) return;
  const toml::array& array = r.Array(node, key);
  for (std::size_t i = 0; i < array.size(); ++i)
    fn(r.Table(array[i], key + "[" + std::to_string(i) + "]"), key + "[" + std::to_string(i) + "]");
}

void ReadSizesAndParams(const Reader& r, const toml::table& root, TemplateSpec& spec) {
  ForEachTable(r, root, "size", [&](const toml::table& t, const std::string& field) {
    spec.sizes.push_back({r.String(t, "name", field + ".name", true), r.Integer(t, "default", field + ".default")});
  });
  ForEachTable(r, root, "param", [&](const toml::table& t, const std::string& field) {
    ParamSpec param{r.String(t, "name", field + ".name", true), {}, {}};
    for (const toml::node& v : r.Array(t.get("values"), field + ".values")) {
      if (auto value = v.value<long long>()) param.values.push_back(*value);
      else r.Fail(&v, field + ".values", "must hold integers");
    }
    if (param.values.empty()) r.Fail(&t, field + ".values", "must not be empty");
    if (const toml::node* labels = t.get("labels")) {
      for (const toml::node& l : r.Array(labels, field + ".labels")) param.labels.push_back(l.value_or(std::string()));
      if (param.labels.size() != param.values.size()) r.Fail(labels, field + ".labels", "needs one label per value");
    }
    spec.params.push_back(std::move(param));
  });
}

LaunchSpec ReadLaunch(const Reader& r, const toml::table& t, const std::string& field, bool required) {
  LaunchSpec launch;
  launch.grid = r.Expressions(t.get("grid"), field + ".grid");
  launch.block = r.Expressions(t.get("block"), field + ".block");
  if (const toml::node* smem = t.get("shared_bytes")) launch.shared_bytes = r.Expression(smem, field + ".shared_bytes");
  for (const auto* dims : {&launch.grid, &launch.block}) {
    const std::string which = dims == &launch.grid ? ".grid" : ".block";
    if ((required || !dims->empty()) && (dims->empty() || dims->size() > 3))
      r.Fail(&t, field + which, "needs one to three expressions");
  }
  return launch;
}

void ReadArgs(const Reader& r, const toml::table& root, TemplateSpec& spec) {
  ForEachTable(r, root, "arg", [&](const toml::table& t, const std::string& field) {
    ArgSpec arg;
    arg.name = r.String(t, "name", field + ".name", true);
    arg.type = ParseType(r, t, field);
    arg.is_buffer = t.contains("length");
    if (arg.is_buffer == t.contains("value")) r.Fail(&t, field, "needs either 'length' (a buffer) or 'value' (a scalar)");
    if (arg.is_buffer) {
      arg.length = r.Expression(t.get("length"), field + ".length");
      arg.output = t["output"].value_or(false);
      arg.init = ParseInit(r, t, field, arg.output);
    } else {
      arg.value = r.Expression(t.get("value"), field + ".value");
    }
    spec.args.push_back(std::move(arg));
  });
  ForEachTable(r, root, "symbol", [&](const toml::table& t, const std::string& field) {
    spec.symbols.push_back({r.String(t, "name", field + ".name", true), r.String(t, "from", field + ".from", true)});
  });
}

void ReadCheck(const Reader& r, const toml::table& root, TemplateSpec& spec) {
  static const toml::table kEmpty;
  const toml::node* node = root.get("check");
  const toml::table& t = node ? r.Table(*node, "check") : kEmpty;
  spec.check.kernel = r.String(t, "kernel", "check.kernel", false, spec.kernel);
  for (const ParamSpec& p : spec.params) spec.check.params[p.name] = p.values.front();
  if (const toml::node* params = t.get("params")) {
    for (auto&& [key, value] : r.Table(*params, "check.params")) {
      const std::string name(key.str());
      if (!spec.check.params.count(name)) r.Fail(&value, "check.params." + name, "is not a parameter");
      if (auto v = value.value<long long>()) spec.check.params[name] = *v;
      else r.Fail(&value, "check.params." + name, "must be an integer");
    }
  }
  spec.check.launch = ReadLaunch(r, t, "check", false);
  if (spec.check.launch.grid.empty() != spec.check.launch.block.empty())
    r.Fail(&t, "check", "give both 'grid' and 'block', or neither");
  if (spec.check.launch.grid.empty()) spec.check.launch = spec.launch;
  if (const toml::node* atol = t.get("atol")) spec.check.atol = r.Tolerance(atol, "check.atol");
  if (const toml::node* rtol = t.get("rtol")) spec.check.rtol = r.Tolerance(rtol, "check.rtol");
}

// Every expression is parsed once at load time, so a typo is reported with its field and line.
void CheckExpressions(const Reader& r, const toml::table& root, const TemplateSpec& spec) {
  Variables vars;
  for (const SizeSpec& s : spec.sizes) vars[s.name] = 1;
  Variables sizes_only = vars;
  for (const ParamSpec& p : spec.params) vars[p.name] = 1;
  auto check = [&](const std::string& expr, const Variables& scope, const std::string& field, const char* key) {
    try {
      CheckSyntax(expr, scope);
    } catch (const ExpressionError& e) {
      const toml::node* node = root.get(key);
      r.Fail(node ? node : &root, field, std::string(e.what()) + (&scope == &sizes_only ? " (only sizes may be used here)" : ""));
    }
  };
  for (const std::string& c : spec.constraints) check(c, vars, "constraints", "constraints");
  for (const auto* launch : {&spec.launch, &spec.check.launch}) {
    const char* key = launch == &spec.launch ? "launch" : "check";
    for (const auto& e : launch->grid) check(e, vars, std::string(key) + ".grid", key);
    for (const auto& e : launch->block) check(e, vars, std::string(key) + ".block", key);
    check(launch->shared_bytes, vars, std::string(key) + ".shared_bytes", key);
  }
  for (const ArgSpec& a : spec.args) check(a.is_buffer ? a.length : a.value, sizes_only, "arg " + a.name, "arg");
  check(spec.check.atol, sizes_only, "check.atol", "check");
  check(spec.check.rtol, sizes_only, "check.rtol", "check");
  if (!spec.work.bytes.empty()) check(spec.work.bytes, sizes_only, "work.bytes", "work");
  if (!spec.work.flops.empty()) check(spec.work.flops, sizes_only, "work.flops", "work");
}

void CheckReferences(const Reader& r, const toml::table& root, const TemplateSpec& spec) {
  if (spec.work.bytes.empty() && spec.work.flops.empty()) r.Fail(&root, "work", "needs 'bytes' or 'flops'");
  bool has_output = false;
  for (const ArgSpec& a : spec.args) has_output |= a.output;
  if (!has_output) r.Fail(&root, "arg", "at least one buffer must be an output");
  for (const SymbolSpec& s : spec.symbols) {
    bool found = false;
    for (const ArgSpec& a : spec.args) found |= a.is_buffer && a.name == s.from;
    if (!found) r.Fail(&root, "symbol " + s.name + ".from", "'" + s.from + "' is not a buffer argument");
  }
}

}  // namespace

TemplateSpec LoadTemplateFile(const std::string& description_path) {
  const std::string description = ReadFile(description_path);
  toml::table root;
  try {
    root = toml::parse(description, description_path);
  } catch (const toml::parse_error& e) {
    throw TemplateError(description_path + ":" + std::to_string(e.source().begin.line) + ": " +
                        std::string(e.description()));
  }
  const Reader r(description_path);
  TemplateSpec spec;
  spec.description_path = description_path;
  spec.name = r.String(root, "name", "name", true);
  spec.summary = r.String(root, "summary", "summary", false);
  spec.kernel = r.String(root, "kernel", "kernel", true);
  const fs::path dir = fs::path(description_path).parent_path();
  spec.source_path = (dir / r.String(root, "source", "source", false, spec.name + ".cu")).string();
  spec.constraints = r.Expressions(root.get("constraints"), "constraints");
  for (const std::string& o : r.Expressions(root.get("options"), "options")) spec.options.push_back(o);
  ReadSizesAndParams(r, root, spec);
  const toml::node* launch = root.get("launch");
  if (!launch) r.Fail(&root, "launch", "is required");
  spec.launch = ReadLaunch(r, r.Table(*launch, "launch"), "launch", true);
  ReadArgs(r, root, spec);
  ReadCheck(r, root, spec);
  if (const toml::node* work = root.get("work")) {
    const toml::table& w = r.Table(*work, "work");
    if (w.contains("bytes")) spec.work.bytes = r.Expression(w.get("bytes"), "work.bytes");
    if (w.contains("flops")) spec.work.flops = r.Expression(w.get("flops"), "work.flops");
  }
  CheckReferences(r, root, spec);
  CheckExpressions(r, root, spec);
  try {
    spec.source_text = ReadFile(spec.source_path);
  } catch (const TemplateError& e) {
    r.Fail(root.get("source") ? root.get("source") : &root, "source", e.what());
  }
  spec.headers = FindSourceHeaders(spec.source_path, spec.source_text);
  ContentHash hash;
  hash.Add(description).Add(spec.source_text);
  for (const SourceHeader& header : spec.headers) hash.Add(header.include_name).Add(header.text);
  spec.hash = hash.Hex();
  return spec;
}

std::size_t SizeOf(ScalarType type) {
  switch (type) {
    case ScalarType::kFloat: case ScalarType::kInt: case ScalarType::kUint: return 4;
    default: return 8;
  }
}

std::string ToString(ScalarType type) {
  switch (type) {
    case ScalarType::kFloat: return "float";
    case ScalarType::kDouble: return "double";
    case ScalarType::kInt: return "int";
    case ScalarType::kUint: return "uint";
    case ScalarType::kInt64: return "int64";
    case ScalarType::kUint64: return "uint64";
  }
  return "?";
}

bool IsFloatingPoint(ScalarType type) { return type == ScalarType::kFloat || type == ScalarType::kDouble; }

std::string ToString(BufferInit init) {
  switch (init) {
    case BufferInit::kRandom: return "random";
    case BufferInit::kZero: return "zero";
    case BufferInit::kOne: return "one";
    case BufferInit::kIndex: return "index";
    case BufferInit::kPoison: return "poison";
    case BufferInit::kRandomInt: return "random_int";
  }
  return "?";
}

std::string ValueLabel(const ParamSpec& param, long long value) {
  for (std::size_t i = 0; i < param.values.size() && i < param.labels.size(); ++i)
    if (param.values[i] == value) return param.labels[i];
  return std::to_string(value);
}

}  // namespace tuner
