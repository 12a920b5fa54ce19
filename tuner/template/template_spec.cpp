#include "template/template_spec.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/content_hash.h"
#include "common/option_values.h"
#include "common/spelling.h"
#include "npy.h"
#include "template/arch_specific.h"
#include "template/data_files.h"
#include "template/default_tolerance.h"
#include "template/description_reader.h"
#include "template/macro_collisions.h"
#include "template/pipeline_spec.h"
#include "template/reserved_names.h"
#include "template/search_space.h"
#include "template/source_names.h"
#include "template/template_values.h"
#include "template/timing_choice.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

// Keys written before the first table; a table's keys are listed where it is read.
const std::vector<std::string> kTopLevelKeys = {"name",        "summary", "source",  "kernel", "replaces_shipped",
                                                "constraints", "options", "compiler"};
const std::vector<std::string> kTables = {"size", "param",     "launch",   "arg",    "symbol",       "check",
                                          "work", "data_size", "pipeline", "timing", "arch_specific"};
const char* const kOnlySizes = " (only sizes may be used here)";
const char* const kCheckChoices =
    "name an independent reference kernel of the source (kernel = \"..._reference\"), give expected outputs "
    "for every output (expected = { out = \"expected/out.npy\" }), or say "
    "reference = \"own_configuration\" to check against one of the template's own configurations";

const char* const kIdentifierRule = "use letters, digits and '_', not starting with a digit";

// Only a regular file: a folder reads as empty, and a device such as /dev/zero never ends.
std::string ReadFile(const std::string& path) {
  std::error_code error;
  if (fs::is_directory(path, error)) throw TemplateError("'" + path + "' is a folder, not a file");
  if (fs::exists(path, error) && !fs::is_regular_file(path, error))
    throw TemplateError("'" + path + "' is not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw TemplateError("cannot read '" + path + "'" + (fs::exists(path, error) ? "" : ": no such file"));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw TemplateError("cannot read '" + path + "'");
  return text.str();
}

struct Scopes {
  Variables sizes;  // lengths, scalar values, tolerances, work
  Variables all;    // constraints and launch geometry: sizes and parameters
};

// A declared name: an identifier used once among `taken`, which maps a name to the field that
// declared it. Sizes and parameters (`variable`) reach the expressions and the source, so they may
// not be a reserved word either.
std::string DeclaredNameOf(const DescriptionReader& r, const toml::table& t, const std::string& field,
                           std::map<std::string, std::string>& taken, bool variable) {
  const std::string name = r.String(t, "name", field + ".name", true);
  if (!IsIdentifier(name)) r.Fail(t.get("name"), field + ".name", Quoted(name) + " is not a name: " + kIdentifierRule);
  const std::string reserved = variable ? WhyReserved(name) : "";
  if (!reserved.empty())
    r.Fail(t.get("name"), field + ".name", Quoted(name) + " is " + reserved + "; choose another name");
  const auto [it, fresh] = taken.emplace(name, field);
  if (!fresh) r.Fail(t.get("name"), field + ".name", Quoted(name) + " is already the name of " + it->second);
  return name;
}

void ReadTopLevel(const DescriptionReader& r, const toml::table& root, TemplateSpec& spec) {
  std::vector<std::string> allowed = kTopLevelKeys;
  allowed.insert(allowed.end(), kTables.begin(), kTables.end());
  r.AllowOnly(root, "", allowed);
  spec.name = r.String(root, "name", "name", true);
  if (!IsIdentifier(spec.name))
    r.Fail(root.get("name"), "name", Quoted(spec.name) + " is not a template name: " + kIdentifierRule);
  spec.summary = r.String(root, "summary", "summary", false);
  spec.kernel = r.String(root, "kernel", "kernel", true);
  if (!IsIdentifier(DeclaredName(spec.kernel)))
    r.Fail(root.get("kernel"), "kernel",
           Quoted(spec.kernel) + " is not a kernel name (a C++ name, optionally with <template arguments>)");
  spec.replaces_shipped = r.Bool(root, "replaces_shipped", "replaces_shipped", false);
  spec.options = r.Strings(root.get("options"), "options");
  static const std::map<std::string, CompilerChoice> kCompilers = {
      {"auto", CompilerChoice::kAuto}, {"nvrtc", CompilerChoice::kNvrtc}, {"nvcc", CompilerChoice::kNvcc}};
  const std::string compiler = r.String(root, "compiler", "compiler", false, "auto");
  const auto it = kCompilers.find(compiler);
  if (it == kCompilers.end())
    r.Fail(root.get("compiler"), "compiler", Quoted(compiler) + " is no compiler (auto, nvrtc, nvcc)");
  spec.compiler = it->second;
}

void ReadParamValues(const DescriptionReader& r, const toml::table& t, const std::string& field, ParamSpec& param) {
  for (const toml::node& v : r.Array(t.get("values"), field + ".values")) {
    const auto value = v.value_exact<long long>();
    if (!value) r.Fail(&v, field + ".values", "must hold integers");
    if (std::count(param.values.begin(), param.values.end(), *value))
      r.Fail(&v, field + ".values", std::to_string(*value) + " is listed twice");
    param.values.push_back(*value);
  }
  if (param.values.empty()) r.Fail(&t, field + ".values", "must not be empty");
  const toml::node* labels = t.get("labels");
  if (!labels) return;
  param.labels = r.Strings(labels, field + ".labels");
  if (param.labels.size() != param.values.size()) r.Fail(labels, field + ".labels", "needs one label per value");
  for (std::size_t i = 0; i < param.labels.size(); ++i)
    if (std::count(param.labels.begin(), param.labels.begin() + i, param.labels[i]))
      r.Fail(labels, field + ".labels", Quoted(param.labels[i]) + " is listed twice");
}

Scopes ReadSizesAndParams(const DescriptionReader& r, const toml::table& root, TemplateSpec& spec) {
  std::map<std::string, std::string> taken;
  Scopes scopes;
  r.ForEachTable(root, "size", [&](const toml::table& t, const std::string& field) {
    r.AllowOnly(t, field, {"name", "default"}, kTopLevelKeys);
    SizeSpec size{DeclaredNameOf(r, t, field, taken, true), r.Integer(t, "default", field + ".default")};
    if (size.default_value <= 0)
      r.Fail(t.get("default"), field + ".default",
             "must be positive (it is " + std::to_string(size.default_value) + ")");
    scopes.sizes[size.name] = 1;
    spec.sizes.push_back(size);
  });
  r.ForEachTable(root, "param", [&](const toml::table& t, const std::string& field) {
    r.AllowOnly(t, field, {"name", "values", "labels", "host"}, kTopLevelKeys);
    ParamSpec param{DeclaredNameOf(r, t, field, taken, true), {}, {}, r.Bool(t, "host", field + ".host", false)};
    ReadParamValues(r, t, field, param);
    spec.params.push_back(std::move(param));
  });
  scopes.all = scopes.sizes;
  for (const ParamSpec& p : spec.params) scopes.all[p.name] = 1;
  return scopes;
}

LaunchSpec ReadLaunch(const DescriptionReader& r, const toml::table& t, const std::string& field, bool required,
                      const Variables& scope) {
  LaunchSpec launch;
  launch.grid = r.Expressions(t.get("grid"), field + ".grid", scope);
  launch.block = r.Expressions(t.get("block"), field + ".block", scope);
  if (const toml::node* smem = t.get("shared_bytes"))
    launch.shared_bytes = r.Expression(smem, field + ".shared_bytes", scope);
  for (const auto* dims : {&launch.grid, &launch.block}) {
    const std::string which = dims == &launch.grid ? ".grid" : ".block";
    if ((required || !dims->empty()) && (dims->empty() || dims->size() > 3))
      r.Fail(t.get(which.substr(1)) ? t.get(which.substr(1)) : &t, field + which, "needs one to three expressions");
  }
  return launch;
}

ScalarType ParseType(const DescriptionReader& r, const toml::table& t, const std::string& field) {
  const std::string name = r.String(t, "type", field + ".type", true);
  const std::optional<ScalarType> type = ElementTypeNamed(name);
  if (!type) r.Fail(t.get("type"), field + ".type", "unknown type '" + name + "' (" + ElementTypeNames() + ")");
  return *type;
}

constexpr char kFilePrefix[] = "file:";

BufferInit ParseInit(const DescriptionReader& r, const toml::table& t, const std::string& field, bool output) {
  static const std::map<std::string, BufferInit> kInits = {
      {"random", BufferInit::kRandom}, {"zero", BufferInit::kZero},     {"one", BufferInit::kOne},
      {"index", BufferInit::kIndex},   {"poison", BufferInit::kPoison}, {"random_int", BufferInit::kRandomInt}};
  const std::string name = r.String(t, "init", field + ".init", false, output ? "poison" : "zero");
  if (name.rfind(kFilePrefix, 0) == 0) return BufferInit::kFile;
  auto it = kInits.find(name);
  if (it == kInits.end())
    r.Fail(t.get("init"), field + ".init",
           "unknown init '" + name + "' (random, random_int, zero, one, index, poison, file:PATH)");
  if (output && it->second != BufferInit::kPoison && it->second != BufferInit::kZero)
    r.Fail(t.get("init"), field + ".init", "an output is initialised with 'poison', 'zero' or 'file:PATH'");
  return it->second;
}

// A .npy file named by the description: relative to its folder, and of the argument's type
// (its length is checked once the sizes are known: CheckDataFiles).
std::string DataFile(const DescriptionReader& r, const toml::node* node, const std::string& field,
                     const std::string& relative, const fs::path& dir, const ArgSpec& arg, const std::string& use) {
  if (relative.empty()) r.Fail(node, field, "names no file (file:PATH, relative to the description)");
  const std::string path = (dir / relative).lexically_normal().string();
  try {
    const npy::Header header = npy::ReadHeader(path);
    npy::CheckMatches(header, path, use + " of '" + arg.name + "' (" + ToString(arg.type) + ")",
                      AcceptedNpyDescrs(arg.type), header.Count());
  } catch (const npy::NpyError& e) {
    r.Fail(node, field, e.what());
  }
  return path;
}

ArgSpec ReadArg(const DescriptionReader& r, const toml::table& t, const std::string& field, const Scopes& scopes,
                const fs::path& dir, std::map<std::string, std::string>& taken) {
  r.AllowOnly(t, field, {"name", "type", "length", "value", "init", "output", "accumulate"}, kTopLevelKeys);
  ArgSpec arg;
  arg.name = DeclaredNameOf(r, t, field, taken, false);
  arg.type = ParseType(r, t, field);
  arg.is_buffer = t.contains("length");
  if (arg.is_buffer == t.contains("value")) r.Fail(&t, field, "needs either 'length' (a buffer) or 'value' (a scalar)");
  if (!arg.is_buffer) {
    for (const char* key : {"init", "output", "accumulate"})
      if (t.contains(key))
        r.Fail(t.get(key), field + "." + key, std::string("only a buffer (with 'length') has '") + key + "'");
    arg.value = r.Expression(t.get("value"), field + ".value", scopes.sizes, kOnlySizes);
    return arg;
  }
  arg.length = r.Expression(t.get("length"), field + ".length", scopes.sizes, kOnlySizes);
  arg.output = r.Bool(t, "output", field + ".output", false);
  arg.init = ParseInit(r, t, field, arg.output);
  arg.accumulate = r.Bool(t, "accumulate", field + ".accumulate", false);
  if (arg.accumulate && (!arg.output || arg.init == BufferInit::kPoison))
    r.Fail(t.get("accumulate"), field + ".accumulate",
           arg.output ? "an output that the kernel adds into starts from init = \"zero\" or a file, not poison"
                      : "only an output (output = true) is accumulated into");
  if (arg.init == BufferInit::kRandomInt && Element(arg.type).floating && Element(arg.type).epsilon > 0x1p-7)
    r.Fail(t.get("init"), field + ".init",
           "random_int gives whole numbers in [-98, 97], which " + ToString(arg.type) +
               " cannot hold exactly (use random, or half or bfloat16)");
  if (arg.init == BufferInit::kFile)
    arg.file = DataFile(r, t.get("init"), field + ".init",
                        r.String(t, "init", field + ".init", true).substr(sizeof kFilePrefix - 1), dir, arg,
                        "the initial contents");
  return arg;
}

void ReadArgsAndSymbols(const DescriptionReader& r, const toml::table& root, const Scopes& scopes, TemplateSpec& spec) {
  std::map<std::string, std::string> args, symbols;
  const fs::path dir = fs::path(spec.description_path).parent_path();
  r.ForEachTable(root, "arg", [&](const toml::table& t, const std::string& field) {
    spec.args.push_back(ReadArg(r, t, field, scopes, dir, args));
  });
  bool has_output = false;
  for (const ArgSpec& a : spec.args) has_output |= a.output;
  if (!has_output) r.Fail(root.get("arg") ? root.get("arg") : &root, "arg", "at least one buffer must be an output");
  r.ForEachTable(root, "symbol", [&](const toml::table& t, const std::string& field) {
    r.AllowOnly(t, field, {"name", "from"}, kTopLevelKeys);
    SymbolSpec symbol{DeclaredNameOf(r, t, field, symbols, false), r.String(t, "from", field + ".from", true)};
    const auto from =
        std::find_if(spec.args.begin(), spec.args.end(), [&](const ArgSpec& a) { return a.name == symbol.from; });
    if (from == spec.args.end() || !from->is_buffer)
      r.Fail(t.get("from"), field + ".from", Quoted(symbol.from) + " is not a buffer argument");
    spec.symbols.push_back(std::move(symbol));
  });
}

// [check] expected = { out = "expected/out.npy" }: outputs compared with stored files.
void ReadExpected(const DescriptionReader& r, const toml::table& t, TemplateSpec& spec) {
  const toml::node* node = t.get("expected");
  if (!node) return;
  const fs::path dir = fs::path(spec.description_path).parent_path();
  for (auto&& [key, value] : r.Table(*node, "check.expected")) {
    const std::string name(key.str()), field = "check.expected." + name;
    const auto arg = std::find_if(spec.args.begin(), spec.args.end(), [&](const ArgSpec& a) { return a.name == name; });
    if (arg == spec.args.end() || !arg->output)
      r.Fail(&value, field, "'" + name + "' is not an output buffer argument");
    const auto text = value.value<std::string>();
    if (!text) r.Fail(&value, field, "must be a string: the .npy file, relative to the description");
    std::string relative = *text;
    if (relative.rfind(kFilePrefix, 0) == 0) relative.erase(0, sizeof kFilePrefix - 1);
    spec.check.expected[name] = DataFile(r, &value, field, relative, dir, *arg, "the expected contents");
  }
}

bool EveryOutputExpected(const TemplateSpec& spec) {
  for (const ArgSpec& a : spec.args)
    if (a.output && !spec.check.expected.count(a.name)) return false;
  return !spec.check.expected.empty();
}

void ReadCheckKernel(const DescriptionReader& r, const toml::table& t, TemplateSpec& spec) {
  const std::string reference = r.String(t, "reference", "check.reference", false, "kernel");
  if (reference != "kernel" && reference != "own_configuration")
    r.Fail(t.get("reference"), "check.reference",
           Quoted(reference) +
               " is neither 'kernel' (an independent reference kernel, the default) nor 'own_configuration'");
  spec.check.own_configuration = reference == "own_configuration";
  if (spec.check.own_configuration) {
    if (t.contains("kernel"))
      r.Fail(t.get("kernel"), "check.kernel",
             "an own-configuration check runs the template's kernel: give 'kernel' or 'reference', not both");
    spec.check.kernel = spec.kernel;
    return;
  }
  if (!t.contains("kernel") && !t.contains("reference") && EveryOutputExpected(spec))
    return;  // the files are the check
  if (!t.contains("kernel")) r.Fail(&t, "check", std::string("has no reference: ") + kCheckChoices);
  spec.check.kernel = r.String(t, "kernel", "check.kernel", true);
  if (DeclaredName(spec.check.kernel) == DeclaredName(spec.kernel))
    r.Fail(t.get("kernel"), "check.kernel",
           Quoted(spec.check.kernel) +
               " is the template's own kernel, not an independent reference; to check against one "
               "of its own configurations say reference = \"own_configuration\" instead");
}

void ReadCheckParams(const DescriptionReader& r, const toml::table& t, TemplateSpec& spec) {
  std::vector<std::string> names;
  for (const ParamSpec& p : spec.params) {
    spec.check.params[p.name] = p.values.front();
    names.push_back(p.name);
  }
  const toml::node* params = t.get("params");
  if (!params) return;
  for (auto&& [key, value] : r.Table(*params, "check.params")) {
    const std::string name(key.str()), field = "check.params." + name;
    const auto param =
        std::find_if(spec.params.begin(), spec.params.end(), [&](const ParamSpec& p) { return p.name == name; });
    if (param == spec.params.end()) r.Fail(&value, field, "is not a parameter" + DidYouMean(name, names));
    const auto v = value.value_exact<long long>();
    if (!v) r.Fail(&value, field, "must be an integer");
    if (spec.check.own_configuration && !std::count(param->values.begin(), param->values.end(), *v))
      r.Fail(&value, field,
             std::to_string(*v) + " is not one of its values: an own-configuration reference is a candidate");
    spec.check.params[name] = *v;
  }
}

void ReadOutputDependsOn(const DescriptionReader& r, const toml::table& t, TemplateSpec& spec) {
  const toml::node* node = t.get("output_depends_on");
  if (!node) return;
  std::vector<std::string> names;
  for (const ParamSpec& p : spec.params) names.push_back(p.name);
  for (const std::string& name : r.Strings(node, "check.output_depends_on")) {
    const auto param =
        std::find_if(spec.params.begin(), spec.params.end(), [&](const ParamSpec& p) { return p.name == name; });
    if (param == spec.params.end())
      r.Fail(node, "check.output_depends_on", Quoted(name) + " is not a parameter" + DidYouMean(name, names));
    if (param->host) r.Fail(node, "check.output_depends_on", Quoted(name) + " is a host parameter: no kernel reads it");
    if (std::count(spec.check.output_depends_on.begin(), spec.check.output_depends_on.end(), name))
      r.Fail(node, "check.output_depends_on", Quoted(name) + " is listed twice");
    spec.check.output_depends_on.push_back(name);
  }
  if (!spec.check.output_depends_on.empty() && spec.check.kernel.empty())
    r.Fail(node, "check.output_depends_on",
           "needs a reference kernel to run with each value (expected files are one output for every candidate)");
}

void ReadCheck(const DescriptionReader& r, const toml::table& root, const Scopes& scopes, TemplateSpec& spec) {
  const toml::node* node = root.get("check");
  if (!node) r.Fail(&root, "check", std::string("is required: ") + kCheckChoices);
  const toml::table& t = r.Table(*node, "check");
  r.AllowOnly(t, "check",
              {"reference", "kernel", "expected", "params", "output_depends_on", "grid", "block", "shared_bytes",
               "atol", "rtol", "reduction"},
              kTopLevelKeys);
  ReadExpected(r, t, spec);
  ReadCheckKernel(r, t, spec);
  ReadCheckParams(r, t, spec);
  ReadOutputDependsOn(r, t, spec);
  spec.check.launch = ReadLaunch(r, t, "check", false, scopes.all);
  if (spec.check.launch.grid.empty() != spec.check.launch.block.empty())
    r.Fail(&t, "check", "give both 'grid' and 'block', or neither");
  if (spec.check.launch.grid.empty()) spec.check.launch = spec.launch;
  if (const toml::node* reduction = t.get("reduction"))
    spec.check.reduction = r.Expression(reduction, "check.reduction", scopes.sizes, kOnlySizes);
  spec.check.atol = DefaultAtol(spec.args, spec.check.reduction);
  spec.check.rtol = DefaultRtol(spec.args);
  if (const toml::node* atol = t.get("atol"))
    spec.check.atol = r.NumberOrExpression(atol, "check.atol", scopes.sizes, kOnlySizes);
  if (const toml::node* rtol = t.get("rtol"))
    spec.check.rtol = r.NumberOrExpression(rtol, "check.rtol", scopes.sizes, kOnlySizes);
}

void ReadWork(const DescriptionReader& r, const toml::table& root, const Scopes& scopes, TemplateSpec& spec) {
  const toml::node* node = root.get("work");
  if (!node) r.Fail(&root, "work", "needs 'bytes' or 'flops'");
  const toml::table& w = r.Table(*node, "work");
  r.AllowOnly(w, "work", {"bytes", "flops"}, kTopLevelKeys);
  if (w.contains("bytes")) spec.work.bytes = r.Expression(w.get("bytes"), "work.bytes", scopes.sizes, kOnlySizes);
  if (w.contains("flops")) spec.work.flops = r.Expression(w.get("flops"), "work.flops", scopes.sizes, kOnlySizes);
  if (spec.work.bytes.empty() && spec.work.flops.empty()) r.Fail(node, "work", "needs 'bytes' or 'flops'");
}

// The numbers of a [[data_size]]'s size: one per size variable.
std::vector<long long> DataSizeValues(const DescriptionReader& r, const toml::table& t, const std::string& field,
                                      const TemplateSpec& spec) {
  const std::string text = r.String(t, "size", field + ".size", true);
  std::vector<long long> values;
  try {
    values = ParseSizeNumbers(text);
  } catch (const UsageError& e) {
    r.Fail(t.get("size"), field + ".size", std::string(e.what()).substr(std::string("--size ").size()));
  }
  if (values.size() != spec.sizes.size())
    r.Fail(t.get("size"), field + ".size",
           Quoted(text) + " gives " + std::to_string(values.size()) + " number(s) for the " +
               std::to_string(spec.sizes.size()) + " size variable(s)");
  return values;
}

// [[data_size]] size = "65536x256", folder = "sizes/65536x256": the data files at another size.
void ReadDataSizes(const DescriptionReader& r, const toml::table& root, TemplateSpec& spec) {
  const fs::path dir = fs::path(spec.description_path).parent_path();
  const std::vector<std::string> files = DataFilesOf(spec);
  const std::string default_key = DefaultSize(spec).Key();
  r.ForEachTable(root, "data_size", [&](const toml::table& t, const std::string& field) {
    r.AllowOnly(t, field, {"size", "folder"}, kTopLevelKeys);
    if (files.empty())
      r.Fail(
          &t, field,
          "the template reads no data files (init = \"file:...\" or [check] expected), so no size has data of its own");
    DataSizeSpec data;
    const std::vector<long long> values = DataSizeValues(r, t, field, spec);
    ProblemSize size;
    for (std::size_t i = 0; i < values.size(); ++i) size.values.emplace_back(spec.sizes[i].name, values[i]);
    data.size_key = size.Key();
    if (data.size_key == default_key)
      r.Fail(t.get("size"), field + ".size",
             data.size_key + " is the default size, whose data files are named by the description itself");
    for (const DataSizeSpec& other : spec.data_sizes)
      if (other.size_key == data.size_key) r.Fail(t.get("size"), field + ".size", data.size_key + " is listed twice");
    const std::string folder = r.String(t, "folder", field + ".folder", true);
    data.folder = (dir / folder).lexically_normal().string();
    std::error_code error;
    if (folder.empty() || !fs::is_directory(data.folder, error))
      r.Fail(t.get("folder"), field + ".folder", Quoted(data.folder) + " is not a folder");
    for (const ArgSpec& arg : spec.args) {
      auto add = [&](const std::string& file, const std::string& use) {
        const std::string relative = fs::path(file).lexically_relative(dir.empty() ? fs::path(".") : dir).string();
        data.files[file] =
            DataFile(r, t.get("folder"), field + ".folder", relative, data.folder, arg, use + " at " + data.size_key);
      };
      if (arg.init == BufferInit::kFile) add(arg.file, "the initial contents");
      if (spec.check.expected.count(arg.name)) add(spec.check.expected.at(arg.name), "the expected contents");
    }
    spec.data_sizes.push_back(std::move(data));
  });
}

// Reads the source and its headers, and finds in them every name the description expects there.
void ReadSource(const DescriptionReader& r, const toml::table& root, TemplateSpec& spec) {
  const toml::node* source = root.get("source");
  const fs::path dir = fs::path(spec.description_path).parent_path();
  spec.source_path = (dir / r.String(root, "source", "source", false, spec.name + ".cu")).string();
  try {
    spec.source_text = ReadFile(spec.source_path);
  } catch (const TemplateError& e) {
    r.Fail(source ? source : &root, "source", e.what());
  }
  spec.headers = FindSourceHeaders(spec.source_path, spec.source_text);
  auto require = [&](const std::string& name, const toml::node* node, const std::string& field) {
    const std::string missing = MissingFromSource(name, spec.source_path, spec.source_text, spec.headers);
    if (!missing.empty()) r.Fail(node, field, missing);
  };
  require(spec.kernel, root.get("kernel"), "kernel");
  if (!spec.check.own_configuration && !spec.check.kernel.empty())
    require(spec.check.kernel, root.at_path("check.kernel").node(), "check.kernel");
  for (std::size_t i = 0; i < spec.symbols.size(); ++i) {
    const std::string field = "symbol[" + std::to_string(i) + "].name";
    require(spec.symbols[i].name, root.at_path(field).node(), field);
  }
  spec.template_arguments = TemplateArgumentParams(spec);
}

toml::table Parse(const std::string& description, const std::string& path) {
  try {
    return toml::parse(description, path);
  } catch (const toml::parse_error& e) {
    throw TemplateError(path + ":" + std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
}

}  // namespace

TemplateSpec LoadTemplateFile(const std::string& description_path) {
  const std::string description = ReadFile(description_path);
  const toml::table root = Parse(description, description_path);
  const DescriptionReader r(description_path);
  TemplateSpec spec;
  spec.description_path = description_path;
  ReadTopLevel(r, root, spec);
  const Scopes scopes = ReadSizesAndParams(r, root, spec);  // names first: a bad one is blamed on itself
  spec.constraints = r.Expressions(root.get("constraints"), "constraints", scopes.all, false);
  const toml::node* launch = root.get("launch");
  if (!launch) r.Fail(&root, "launch", "is required");
  r.AllowOnly(r.Table(*launch, "launch"), "launch", {"grid", "block", "shared_bytes"}, kTopLevelKeys);
  spec.launch = ReadLaunch(r, r.Table(*launch, "launch"), "launch", true, scopes.all);
  ReadArgsAndSymbols(r, root, scopes, spec);
  ReadPipeline(r, root, scopes.all, kTopLevelKeys, spec);
  ReadTiming(r, root, kTopLevelKeys, spec);
  ReadArchSpecific(r, root, scopes.all, kTopLevelKeys, spec);
  ReadCheck(r, root, scopes, spec);
  ReadWork(r, root, scopes, spec);
  ReadDataSizes(r, root, spec);
  ReadSource(r, root, spec);
  if (const auto problem = FindValueProblem(spec, DefaultSize(spec))) {
    const toml::node* node = root.at_path(problem->field).node();
    r.Fail(node ? node : &root, problem->field, problem->problem);
  }
  ContentHash hash;
  hash.Add(description).Add(spec.source_text);
  for (const SourceHeader& header : spec.headers) hash.Add(header.include_name).Add(header.text);
  for (const std::string& file : DataFilesOf(spec)) hash.Add(DataFileDigest(file));  // other data, another version
  for (const DataSizeSpec& data : spec.data_sizes)
    for (const std::string& file : DataFilesOf(spec)) hash.Add(data.size_key).Add(DataFileDigest(data.files.at(file)));
  spec.hash = hash.Hex();
  return spec;
}

std::string OwnConfigurationWarning(const TemplateSpec& spec) {
  return "warning: " + spec.name + " is checked against its own configuration " +
         DescribeParams(ReferenceParams(spec)) + " (reference = \"own_configuration\" in " + spec.description_path +
         "): a bug all configurations share cannot be seen. Give it an independent reference kernel.";
}

std::string ValueLabel(const ParamSpec& param, long long value) {
  for (std::size_t i = 0; i < param.values.size() && i < param.labels.size(); ++i)
    if (param.values[i] == value) return param.labels[i];
  return std::to_string(value);
}

}  // namespace tuner
