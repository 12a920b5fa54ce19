#include "exchange/t1_import.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "base/errors.h"
#include "common/input_file.h"
#include "common/input_limits.h"
#include "common/option_values.h"
#include "exchange/json_entry_lines.h"
#include "exchange/python_expression.h"
#include "exchange/python_values.h"
#include "exchange/t1_keys.h"
#include "exchange/t1_paths.h"
#include "expression/expression.h"
#include "template/element_types.h"
#include "template/reserved_names.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr std::size_t kMaxReferenceTries = 1000000;  // combinations tried for a reference configuration
constexpr long long kMaxThreadsPerBlock = 1024;
const char* const kAxes[] = {"X", "Y", "Z"};
const char* const kKernelTunerBlockNames[] = {"block_size_x", "block_size_y", "block_size_z"};

// Reads the JSON of one T1 file; every problem names the file and the field.
class T1Reader {
 public:
  explicit T1Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void Fail(const std::string& field, const std::string& problem) const {
    throw UsageError(file_ + ": " + field + ": " + problem);
  }

  const json* Find(const json& object, const std::string& key) const {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }

  const json& Required(const json& object, const std::string& field, const std::string& key) const {
    const json* value = Find(object, key);
    if (!value) Fail(Join(field, key), "missing (the T1 schema requires it)");
    return *value;
  }

  const json& Object(const json& value, const std::string& field) const {
    if (!value.is_object()) Fail(field, "must be an object");
    return value;
  }

  const json& Array(const json& value, const std::string& field) const {
    if (!value.is_array()) Fail(field, "must be an array");
    return value;
  }

  std::string String(const json& value, const std::string& field) const {
    if (!value.is_string()) Fail(field, "must be a string");
    return value.get<std::string>();
  }

  // A number, or an expression written as a string (T1 writes sizes both ways).
  std::string Text(const json& value, const std::string& field) const {
    if (value.is_number_integer()) return std::to_string(value.get<long long>());
    return String(value, field);
  }

  double Number(const json& value, const std::string& field) const {
    if (!value.is_number()) Fail(field, "must be a number");
    return value.get<double>();
  }

  static std::string Join(const std::string& field, const std::string& key) {
    return field.empty() ? key : field + "." + key;
  }
  static std::string At(const std::string& field, std::size_t i) { return field + "[" + std::to_string(i) + "]"; }

 private:
  std::string file_;
};

json ParseJson(const std::string& path) {
  return json(ParseBoundedJson(ReadInputFile(path, InputLimit::kDescriptionBytes, "the T1 file"), path));
}

std::string TomlString(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\u%04x", c);
      out += buffer;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

std::string TomlStrings(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + TomlString(items[i]);
  return out + "]";
}

// An expression as a factor of a product: parenthesised unless a name or a number.
std::string Factor(const std::string& expression) {
  const bool simple = std::all_of(expression.begin(), expression.end(),
                                  [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  return simple ? expression : "(" + expression + ")";
}

struct Param {
  std::string name;
  std::vector<long long> values;
  std::optional<long long> default_value;  // T1's "Default", when it is one of the values
};

struct Argument {
  std::string name;
  std::string type;
  bool is_buffer = false;
  std::string length;  // buffers
  std::string value;   // scalars
  std::string init;    // buffers
  bool output = false;
  bool constant_memory = false;   // Kernel Tuner's "MemType": "Constant": also copied into the __constant__ of its name
  bool read_and_written = false;  // ReadWrite: moved both ways
};

// Everything of the T1 file the description is written from.
class Importer {
 public:
  Importer(const std::string& path, const T1ImportOptions& options)
      : path_(path), given_(options), r_(path), root_(ParseJson(path)) {
    imported_.origin_path = path;
    r_.Object(root_, "(the document)");
    RefuseUnknownT1Keys(root_, T1Object::kRoot, path_, "");
    const json& space = r_.Object(r_.Required(root_, "", "ConfigurationSpace"), "ConfigurationSpace");
    kernel_ = &r_.Object(r_.Required(root_, "", "KernelSpecification"), "KernelSpecification");
    RefuseUnknownKeys(space);
    imported_.name = TemplateName(options.name);
    ReadKernel();
    ReadProblemSize();
    ReadParams(space);
    ReadConditions(space);
    ReadLaunch();
    ReadArguments();
    NoteIgnoredFields();
  }

  ImportedTemplate Result() {
    ChooseReference();
    imported_.description = Description();
    return imported_;
  }

 private:
  std::string TemplateName(const std::string& given) const {
    std::string name = given;
    std::string from = "--name";
    if (name.empty()) {
      const json* general = r_.Find(root_, "General");
      const json* benchmark = general && general->is_object() ? r_.Find(*general, "BenchmarkName") : nullptr;
      if (benchmark && benchmark->is_string()) {
        name = benchmark->get<std::string>();
        from = "General.BenchmarkName";
      } else {
        name = fs::path(path_).stem().string();
        from = "the file's name";
      }
    }
    if (!IsIdentifier(name))
      throw UsageError(
          path_ + ": " + from + ": " + Quoted(name) +
          " is not a template name (letters, digits and _, not starting with a digit); give one with --name");
    return name;
  }

  // Before anything is read: a misspelt key would otherwise drop what it holds without a word.
  void RefuseUnknownKeys(const json& space) const {
    if (const json* general = r_.Find(root_, "General"))
      RefuseUnknownT1Keys(*general, T1Object::kGeneral, path_, "General");
    RefuseUnknownT1Keys(space, T1Object::kConfigurationSpace, path_, "ConfigurationSpace");
    RefuseUnknownT1Keys(*kernel_, T1Object::kKernelSpecification, path_, "KernelSpecification");
    for (const char* key : {"LocalSize", "GlobalSize"})
      if (const json* axes = r_.Find(*kernel_, key))
        RefuseUnknownT1Keys(*axes, T1Object::kAxes, path_, std::string("KernelSpecification.") + key);
    const auto each = [&](const json& object, const char* key, T1Object kind, const std::string& field) {
      const json* list = r_.Find(object, key);
      if (!list || !list->is_array()) return;  // its type is refused where it is read
      for (std::size_t i = 0; i < list->size(); ++i)
        RefuseUnknownT1Keys((*list)[i], kind, path_, T1Reader::At(T1Reader::Join(field, key), i));
    };
    each(space, "TuningParameters", T1Object::kTuningParameter, "ConfigurationSpace");
    each(space, "Conditions", T1Object::kCondition, "ConfigurationSpace");
    each(*kernel_, "Arguments", T1Object::kArgument, "KernelSpecification");
  }

  void ReadKernel() {
    const std::string field = "KernelSpecification";
    const std::string language = r_.String(r_.Required(*kernel_, field, "Language"), field + ".Language");
    if (language != "CUDA" && language != "OpenCL")
      r_.Fail(field + ".Language",
              Quoted(language) + ": tuner compiles CUDA kernels, and OpenCL ones through a header");
    kernel_name_ = r_.String(r_.Required(*kernel_, field, "KernelName"), field + ".KernelName");
    ReadKernelFile();
    ReadCompilerOptions();
    if (!given_.opencl_header.empty()) {
      imported_.header_path = GivenFile(given_.opencl_header, "--opencl-header");
      imported_.header_text = ReadInputFile(imported_.header_path, kMaxSourceBytes, "the header");
      imported_.header_file_name = FileName(given_.opencl_header, "--opencl-header");
    }
    if (language == "OpenCL" && imported_.header_path.empty())
      r_.Fail(field + ".Language",
              "'OpenCL': tuner compiles an OpenCL kernel as CUDA, with a header that defines OpenCL's qualifiers and "
              "work-item functions (__kernel, __global, get_global_id, ...) in CUDA terms included first: give it "
              "with --opencl-header FILE, or ship it beside the description and name it in CompilerOptions: "
              "[\"-include\", \"FILE\"]");
    if (!imported_.header_path.empty())
      imported_.notes.push_back("the kernel source is compiled with " + imported_.header_file_name +
                                " included first (an #include at its top; #line keeps its line numbers)");
    if (const json* smem = r_.Find(*kernel_, "SharedMemory")) {
      if (!smem->is_number_integer() || smem->get<long long>() < 0)
        r_.Fail(field + ".SharedMemory", "must be a whole number of bytes, 0 or more");
      shared_bytes_ = std::to_string(smem->get<long long>());
    }
  }

  // The description's KernelFile, from its folder, unless --kernel-file names another.
  void ReadKernelFile() {
    const std::string field = "KernelSpecification.KernelFile";
    if (!given_.kernel_file.empty()) {
      imported_.source_path = GivenFile(given_.kernel_file, "--kernel-file");
      imported_.source_text = ReadInputFile(imported_.source_path, kMaxSourceBytes, "the kernel source");
      imported_.source_file_name = FileName(given_.kernel_file, "--kernel-file");
      return;
    }
    const std::string file = r_.String(r_.Required(*kernel_, "KernelSpecification", "KernelFile"), field);
    FolderFile source = ReadInsideFolder(path_, field, file, "give the kernel to use with --kernel-file FILE",
                                         kMaxSourceBytes);
    imported_.source_path = std::move(source.path);
    imported_.source_text = std::move(source.text);
    imported_.source_file_name = FileName(file, field);
  }

  // The options, less an -include (or --pre-include) of a header, which is included first. Kernel
  // Tuner defines kernel_tuner in every kernel it compiles, and files written for it keep defaults
  // for a standalone build behind #ifndef kernel_tuner: without it those would replace the
  // candidate's values.
  void ReadCompilerOptions() {
    options_.push_back("-Dkernel_tuner=1");
    const json* list = r_.Find(*kernel_, "CompilerOptions");
    if (!list) return;
    r_.Array(*list, "KernelSpecification.CompilerOptions");
    for (std::size_t i = 0; i < list->size(); ++i) {
      const std::string option = r_.String((*list)[i], TheField("CompilerOptions", i));
      std::string header;
      if (option == "-include" || option == "--pre-include") {
        if (i + 1 == list->size()) r_.Fail(TheField("CompilerOptions", i), Quoted(option) + " names no header");
        ++i;
        header = r_.String((*list)[i], TheField("CompilerOptions", i));
      } else if (option.rfind("--pre-include=", 0) == 0 || option.rfind("-include=", 0) == 0) {
        header = option.substr(option.find('=') + 1);
      } else {
        if (IsIncludeFolderOption(option))
          r_.Fail(TheField("CompilerOptions", i),
                  Quoted(option) + " names a folder to include from; the headers the kernel includes are copied "
                                   "from beside it, and no other folder is read");
        options_.push_back(option);
        continue;
      }
      if (!imported_.header_path.empty())
        r_.Fail(TheField("CompilerOptions", i), "a second header to include first; tuner takes one");
      FolderFile read = ReadInsideFolder(path_, TheField("CompilerOptions", i), header,
                                         "give the header with --opencl-header FILE", kMaxSourceBytes);
      imported_.header_path = std::move(read.path);
      imported_.header_text = std::move(read.text);
      imported_.header_file_name = FileName(header, TheField("CompilerOptions", i));
    }
  }

  // An option that adds a folder to the compiler's include search (NVRTC's and nvcc's spellings): a
  // bundle's would let `#include <passwd>` read /etc.
  static bool IsIncludeFolderOption(const std::string& option) {
    for (const char* prefix : {"-I", "--include-path", "-isystem", "--system-include", "-idirafter", "-iquote"})
      if (option.rfind(prefix, 0) == 0) return true;
    return false;
  }

  // A file the user names on the command line: theirs to choose, but it must be a file.
  static std::string GivenFile(const std::string& path, const std::string& option) {
    std::error_code error;
    if (!fs::is_regular_file(path, error))
      throw UsageError(option + " " + Quoted(path) + ": " + (fs::exists(path, error) ? "not a file" : "no such file"));
    return path;
  }

  // The copy's name, which goes into an #include and a #line: no quote, backslash or control character.
  std::string FileName(const std::string& path, const std::string& field) const {
    const std::string name = fs::path(path).filename().string();
    const bool plain = !name.empty() && std::none_of(name.begin(), name.end(), [](char c) {
      return c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
    });
    if (!plain)
      r_.Fail(field, Quoted(path) + " is not a file name tuner can copy (a quote, a backslash or a control character)");
    return name;
  }

  static std::string TheField(const char* key, std::size_t i) {
    return T1Reader::At(std::string("KernelSpecification.") + key, i);
  }

  void ReadProblemSize() {
    const std::string field = "KernelSpecification.ProblemSize";
    const json* sizes = r_.Find(*kernel_, "ProblemSize");
    if (!sizes) r_.Fail(field, "missing: give the problem size, e.g. [4096, 4096] (Kernel Tuner needs it too)");
    const json list = sizes->is_array() ? *sizes : json::array({*sizes});
    if (list.empty() || list.size() > 3) r_.Fail(field, "must be 1 to 3 whole numbers");
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (!list[i].is_number_integer() || list[i].get<long long>() <= 0)
        r_.Fail(sizes->is_array() ? T1Reader::At(field, i) : field,
                "must be a positive whole number (it is " + Excerpt(list[i].dump()) + ")");
      sizes_.emplace_back("ProblemSize_" + std::to_string(i), list[i].get<long long>());
      scope_.problem_sizes.push_back(sizes_.back().first);
    }
  }

  void ReadParams(const json& space) {
    const std::string list_field = "ConfigurationSpace.TuningParameters";
    const json& list = r_.Array(r_.Required(space, "ConfigurationSpace", "TuningParameters"), list_field);
    if (list.empty()) r_.Fail(list_field, "is empty: nothing to tune");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const std::string field = T1Reader::At(list_field, i);
      const json& p = r_.Object(list[i], field);
      Param param;
      param.name = ParamName(r_.String(r_.Required(p, field, "Name"), field + ".Name"), field + ".Name");
      const std::string type = r_.String(r_.Required(p, field, "Type"), field + ".Type");
      if (type != "int" && type != "uint")
        r_.Fail(field + ".Type", Quoted(type) + ": tuner's parameters are whole numbers (int or uint)");
      param.values = Values(r_.Required(p, field, "Values"), field + ".Values");
      if (type == "uint" && *std::min_element(param.values.begin(), param.values.end()) < 0)
        r_.Fail(field + ".Values", "a uint parameter has a negative value");
      if (const json* d = r_.Find(p, "Default");
          d && d->is_number_integer() && std::count(param.values.begin(), param.values.end(), d->get<long long>()))
        param.default_value = d->get<long long>();
      scope_.params[param.name] = param.values;
      params_.push_back(std::move(param));
    }
    for (const std::string& name : given_.output_depends_on)
      if (!scope_.params.count(name))
        throw UsageError("--output-depends-on: '" + name + "' is not a tuning parameter of " + path_);
  }

  std::string ParamName(const std::string& name, const std::string& field) const {
    if (!IsIdentifier(name))
      r_.Fail(field, Quoted(name) + " is not a name (letters, digits and _, not starting with a digit)");
    if (const std::string why = WhyReserved(name); !why.empty())
      r_.Fail(field, Quoted(name) + " is " + why +
                         ", which a parameter may not be named (it becomes a macro of the source and a variable of the "
                         "expressions)");
    if (scope_.params.count(name)) r_.Fail(field, Quoted(name) + " is listed twice");
    for (const auto& size : sizes_)
      if (size.first == name)
        r_.Fail(field, Quoted(name) + " is the name the import gives KernelSpecification.ProblemSize");
    return name;
  }

  std::vector<long long> Values(const json& values, const std::string& field) const {
    std::vector<long long> list;
    if (values.is_array()) {
      if (values.size() > LimitValue(InputLimit::kListValues)) r_.Fail(field, LimitMessage(InputLimit::kListValues));
      for (std::size_t i = 0; i < values.size(); ++i) {
        if (!values[i].is_number_integer())
          r_.Fail(T1Reader::At(field, i), "must be a whole number (it is " + Excerpt(values[i].dump()) + ")");
        list.push_back(values[i].get<long long>());
      }
    } else {
      const std::string text = r_.String(values, field);
      try {
        list = EvaluatePythonIntegerList(text, LimitValue(InputLimit::kListValues));
      } catch (const PythonExpressionError& e) {
        r_.Fail(field, Quoted(text) + ": " + e.what());
      }
    }
    if (list.empty()) r_.Fail(field, "has no values");
    std::set<long long> seen;
    for (const long long value : list)
      if (!seen.insert(value).second) r_.Fail(field, std::to_string(value) + " is listed twice");
    return list;
  }

  std::string Translate(const std::string& text, const std::string& field, PythonUse use,
                        const PythonScope& scope) const {
    try {
      return TranslatePythonExpression(text, scope, use);
    } catch (const PythonExpressionError& e) {
      r_.Fail(field, Quoted(text) + ": " + e.what());
    }
  }

  void ReadConditions(const json& space) {
    const std::string list_field = "ConfigurationSpace.Conditions";
    const json* list = r_.Find(space, "Conditions");
    if (!list) return;
    for (std::size_t i = 0; i < r_.Array(*list, list_field).size(); ++i) {
      const std::string field = T1Reader::At(list_field, i);
      const json& c = r_.Object((*list)[i], field);
      if (const json* names = r_.Find(c, "Parameters")) {
        for (std::size_t k = 0; k < r_.Array(*names, field + ".Parameters").size(); ++k) {
          const std::string name = r_.String((*names)[k], T1Reader::At(field + ".Parameters", k));
          if (!scope_.params.count(name))
            r_.Fail(T1Reader::At(field + ".Parameters", k), Quoted(name) + " is not a tuning parameter");
        }
      }
      const std::string text = r_.String(r_.Required(c, field, "Expression"), field + ".Expression");
      imported_.constraints.emplace_back(text, Translate(text, field + ".Expression", PythonUse::kCondition, scope_));
    }
  }

  // Up to the last axis given; a missing axis before it is 1.
  std::vector<std::string> Axes(const json& sizes, const std::string& field) const {
    std::vector<std::string> axes;
    for (std::size_t a = 0; a < 3; ++a) {
      const json* axis = r_.Find(sizes, kAxes[a]);
      if (axis) {
        axes.resize(a + 1, "1");
        axes[a] = Translate(r_.Text(*axis, field + "." + kAxes[a]), field + "." + kAxes[a], PythonUse::kValue, scope_);
      }
    }
    if (axes.empty()) r_.Fail(field + ".X", "missing (the T1 schema requires it)");
    return axes;
  }

  void ReadLaunch() {
    const std::string field = "KernelSpecification";
    block_ = Axes(r_.Object(r_.Required(*kernel_, field, "LocalSize"), field + ".LocalSize"), field + ".LocalSize");
    bool grid_divisions = false;
    for (const char* axis : kAxes) {
      const json* divisions = r_.Find(*kernel_, std::string("GridDiv") + axis);
      grid_divisions = grid_divisions || (divisions && !divisions->empty());
    }
    if (grid_divisions)
      GridFromDivisions();
    else
      GridFromGlobalSize();
  }

  // Kernel Tuner's way: the problem size divided by the product of GridDivX (default block_size_x), rounded up.
  void GridFromDivisions() {
    for (std::size_t a = 0; a < sizes_.size(); ++a) {
      const std::string field = std::string("KernelSpecification.GridDiv") + kAxes[a];
      std::vector<std::string> divisors;
      if (const json* list = r_.Find(*kernel_, std::string("GridDiv") + kAxes[a])) {
        for (std::size_t i = 0; i < r_.Array(*list, field).size(); ++i)
          divisors.push_back(Factor(Translate(r_.Text((*list)[i], T1Reader::At(field, i)), T1Reader::At(field, i),
                                              PythonUse::kValue, scope_)));
      } else if (scope_.params.count(kKernelTunerBlockNames[a])) {
        divisors.push_back(kKernelTunerBlockNames[a]);
      }
      std::string product;
      for (const std::string& d : divisors) product += (product.empty() ? "" : " * ") + d;
      grid_.push_back(product.empty() ? sizes_[a].first : "cdiv(" + sizes_[a].first + ", " + product + ")");
    }
    if (r_.Find(*kernel_, "GlobalSize"))
      imported_.notes.push_back(
          "the grid is ProblemSize divided by GridDivX/Y/Z, as Kernel Tuner computes it; GlobalSize is not used");
  }

  // KTT's way: GlobalSize is the grid in blocks (GlobalSizeType CUDA) or in threads (OpenCL, Vulkan: the default).
  void GridFromGlobalSize() {
    const std::string field = "KernelSpecification";
    const std::vector<std::string> global =
        Axes(r_.Object(r_.Required(*kernel_, field, "GlobalSize"), field + ".GlobalSize"), field + ".GlobalSize");
    std::string type = "OpenCL";
    if (const json* t = r_.Find(*kernel_, "GlobalSizeType")) type = r_.String(*t, field + ".GlobalSizeType");
    if (type != "CUDA" && type != "OpenCL" && type != "Vulkan")
      r_.Fail(field + ".GlobalSizeType", Quoted(type) + " is none of CUDA, OpenCL, Vulkan");
    for (std::size_t a = 0; a < global.size(); ++a)
      grid_.push_back(type == "CUDA" ? global[a]
                                     : "cdiv(" + global[a] + ", " + (a < block_.size() ? block_[a] : "1") + ")");
  }

  void ReadArguments() {
    const std::string list_field = "KernelSpecification.Arguments";
    const json* list = r_.Find(*kernel_, "Arguments");
    if (!list) r_.Fail(list_field, "missing: the kernel's arguments, in order");
    std::set<std::string> names;
    for (std::size_t i = 0; i < r_.Array(*list, list_field).size(); ++i) {
      const std::string field = T1Reader::At(list_field, i);
      Argument arg = ReadArgument(r_.Object((*list)[i], field), field, i);
      if (!names.insert(arg.name).second) r_.Fail(field + ".Name", Quoted(arg.name) + " is used twice");
      args_.push_back(std::move(arg));
    }
    if (std::none_of(args_.begin(), args_.end(), [](const Argument& a) { return a.output; }))
      r_.Fail(list_field, "no argument is an output (AccessType WriteOnly or ReadWrite): there is nothing to check");
  }

  std::string ArgumentType(const std::string& t1_type, const std::string& field) const {
    // T1's names of the element types tuner has (its bool, half2 and vector types it has not); bfloat16
    // and the fp8 types are tuner's names, for descriptions that go beyond T1's list.
    static const std::map<std::string, std::string> kTypes = {
        {"int8", "int8"},         {"uint8", "uint8"},      {"int16", "int16"},   {"uint16", "uint16"},
        {"int32", "int"},         {"uint32", "uint"},      {"int64", "int64"},   {"uint64", "uint64"},
        {"half", "half"},         {"float", "float"},      {"double", "double"}, {"bfloat16", "bfloat16"},
        {"fp8_e4m3", "fp8_e4m3"}, {"fp8_e5m2", "fp8_e5m2"}};
    const auto it = kTypes.find(t1_type);
    if (it == kTypes.end()) {
      std::string names;
      for (const auto& [name, type] : kTypes) names += (names.empty() ? "" : ", ") + name;
      r_.Fail(field, Quoted(t1_type) + " is not a type tuner's arguments have (" + names + ")");
    }
    return it->second;
  }

  Argument ReadArgument(const json& a, const std::string& field, std::size_t index) {
    Argument arg;
    arg.name = "arg" + std::to_string(index);
    if (const json* name = r_.Find(a, "Name")) arg.name = r_.String(*name, field + ".Name");
    if (!IsIdentifier(arg.name)) r_.Fail(field + ".Name", Quoted(arg.name) + " is not a name (letters, digits and _)");
    arg.type = ArgumentType(r_.String(r_.Required(a, field, "Type"), field + ".Type"), field + ".Type");
    const std::string memory = r_.String(r_.Required(a, field, "MemoryType"), field + ".MemoryType");
    if (memory == "Scalar") {
      const double value = r_.Number(r_.Required(a, field, "FillValue"), field + ".FillValue");
      if (!IsFloatingPoint(*ElementTypeNamed(arg.type)) && value != std::floor(value))
        r_.Fail(field + ".FillValue", FormatNumber(value) + " is not a whole number, and the argument is an integer");
      arg.value = FormatNumber(value);
      for (std::size_t i = 0; i < sizes_.size(); ++i)
        if (value == static_cast<double>(sizes_[i].second))
          imported_.notes.push_back("argument '" + arg.name + "' is the number " + arg.value + ", as ProblemSize[" +
                                    std::to_string(i) +
                                    "] (T1 gives scalars as numbers): tune at that size, or write value = \"" +
                                    sizes_[i].first + "\" in the description");
      return arg;
    }
    if (memory != "Vector")
      r_.Fail(field + ".MemoryType", Quoted(memory) + ": tuner passes Scalar and Vector arguments only");
    arg.is_buffer = true;
    PythonScope sizes_only = scope_;
    sizes_only.params_allowed = false;
    const std::string size_field = field + ".Size";
    arg.length =
        Translate(r_.Text(r_.Required(a, field, "Size"), size_field), size_field, PythonUse::kValue, sizes_only);
    std::string access = "ReadOnly";
    if (const json* t = r_.Find(a, "AccessType")) access = r_.String(*t, field + ".AccessType");
    const json* output_flag = r_.Find(a, "Output");  // Kernel Tuner's mark of an output
    arg.output = access == "WriteOnly" || access == "ReadWrite" ||
                 (output_flag && output_flag->is_number() && output_flag->get<double>() != 0) ||
                 (output_flag && output_flag->is_boolean() && output_flag->get<bool>());
    arg.init = InitOf(a, field, arg.output, access == "WriteOnly");
    arg.read_and_written = access == "ReadWrite";
    const json* mem_type = r_.Find(a, "MemType");
    arg.constant_memory = mem_type && mem_type->is_string() && mem_type->get<std::string>() == "Constant";
    return arg;
  }

  std::string InitOf(const json& a, const std::string& field, bool output, bool write_only) const {
    const json* fill = r_.Find(a, "FillType");
    if (!fill) {
      if (write_only) return "poison";
      r_.Fail(field + ".FillType", "missing: how the buffer is filled (Constant or Random)");
    }
    const std::string type = r_.String(*fill, field + ".FillType");
    if (type == "Random") {
      if (!output) return "random";
      if (write_only) return "poison";  // every element is written before it is read
      r_.Fail(
          field + ".FillType",
          "'Random' for a ReadWrite buffer: tuner restores an output before each launch to zeros or to a file only");
    }
    if (type != "Constant")
      r_.Fail(field + ".FillType",
              Quoted(type) +
                  " is not supported (Constant and Random are); for data of your own, convert it to "
                  ".npy and set init = \"file:...\" in the imported description");
    const double value = r_.Number(r_.Required(a, field, "FillValue"), field + ".FillValue");
    if (value == 0) return "zero";
    if (value == 1 && !output) return "one";
    if (write_only) return "poison";
    r_.Fail(field + ".FillValue",
            FormatNumber(value) + ": tuner fills a buffer with the constants 0 and 1 only (1 for inputs)");
  }

  void NoteIgnoredFields() {
    for (const char* key : {"Search", "Budget"})
      if (r_.Find(root_, key))
        imported_.notes.push_back(std::string(key) + " is not used: choose with tune's --strategy and --budget");
    for (const char* key : {"Device", "SimulationInput", "Profiling"})
      if (r_.Find(*kernel_, key)) imported_.notes.push_back(std::string("KernelSpecification.") + key + " is not used");
    if (r_.Find(*kernel_, "ReferenceArguments"))
      imported_.notes.push_back("KernelSpecification.ReferenceArguments is not used");
  }

  // The first configuration a condition or the block size could not be evaluated at, and how many.
  struct EvaluationFailures {
    std::size_t count = 0;
    std::string field;    // "ConfigurationSpace.Conditions[2].Expression"
    std::string problem;  // "'a % b == 0': division by zero"
    std::string at;       // "a=1 b=0"
  };

  // The configuration the candidates are checked against: T1's defaults when they form a valid
  // candidate, else the first valid candidate in declared order.
  void ChooseReference() {
    Variables variables;
    EvaluationFailures failures;
    std::size_t tried = 0;
    for (const auto& [name, value] : sizes_) variables[name] = static_cast<double>(value);
    if (std::all_of(params_.begin(), params_.end(), [](const Param& p) { return p.default_value.has_value(); })) {
      for (const Param& p : params_) variables[p.name] = static_cast<double>(*p.default_value);
      ++tried;
      if (IsValidReference(variables, failures)) return KeepReference(variables, "its Default values");
    }
    std::vector<std::size_t> digits(params_.size(), 0);
    for (std::size_t tries = 0; tries < kMaxReferenceTries; ++tries) {
      for (std::size_t i = 0; i < params_.size(); ++i)
        variables[params_[i].name] = static_cast<double>(params_[i].values[digits[i]]);
      ++tried;
      if (IsValidReference(variables, failures))
        return KeepReference(variables, "the first configuration that satisfies the conditions");
      std::size_t i = params_.size();
      while (i > 0 && ++digits[i - 1] == params_[i - 1].values.size()) digits[--i] = 0;
      if (i == 0) break;
    }
    if (failures.count == tried)
      r_.Fail(failures.field, failures.problem + " at every configuration (the first: " + failures.at + ")");
    r_.Fail("ConfigurationSpace.Conditions",
            "no configuration satisfies every condition with at most " + std::to_string(kMaxThreadsPerBlock) +
                " threads per block (" + std::to_string(kMaxReferenceTries) + " tried at most)" +
                (failures.count ? "; " + std::to_string(failures.count) + " could not be evaluated, the first at " +
                                      failures.at + ": " + failures.field + ": " + failures.problem
                                : ""));
  }

  bool IsValidReference(const Variables& variables, EvaluationFailures& failures) const {
    std::size_t i = 0;
    try {
      for (; i < imported_.constraints.size(); ++i)
        if (Evaluate(imported_.constraints[i].second, variables) == 0) return false;
      long long threads = 1;
      for (const std::string& b : block_) {
        const long long extent = EvaluateInteger(b, variables);
        if (extent < 1) return false;
        threads *= extent;
        if (threads > kMaxThreadsPerBlock) return false;
      }
      return true;
    } catch (const ExpressionError& e) {  // a division by zero at this configuration: not one to check against
      if (failures.count++ > 0) return false;
      const bool in_condition = i < imported_.constraints.size();
      failures.field = in_condition ? T1Reader::At("ConfigurationSpace.Conditions", i) + ".Expression"
                                    : std::string("KernelSpecification.LocalSize");
      failures.problem = (in_condition ? Quoted(imported_.constraints[i].first) + ": " : "") + e.problem;
      for (const Param& p : params_)
        failures.at += (failures.at.empty() ? "" : " ") + p.name + "=" + FormatNumber(variables.at(p.name));
      return false;
    }
  }

  void KeepReference(const Variables& variables, const std::string& which) {
    for (const Param& p : params_) reference_.emplace_back(p.name, static_cast<long long>(variables.at(p.name)));
    std::string text;
    for (const auto& [name, value] : reference_) text += (text.empty() ? "" : " ") + name + "=" + std::to_string(value);
    imported_.notes.push_back("T1 gives no reference output: candidates are checked against " + which + " (" + text +
                              "); give [check] a reference kernel of your own for an independent check");
  }

  std::string Description() const {
    // Comments carry the file's name and T1's text escaped: a newline in them must not become TOML.
    std::string d = "# Imported by 'tuner import t1' from " + Quoted(fs::path(path_).filename().string()) +
                    " (T1, the autotuning community's input format).\n";
    d += "name = " + TomlString(imported_.name) + "\n";
    d += "summary = " +
         TomlString("Kernel " + kernel_name_ + ", imported from the T1 description " +
                    fs::path(path_).filename().string()) +
         "\n";
    d += "source = " + TomlString(imported_.source_file_name) + "\n";
    d += "kernel = " + TomlString(kernel_name_) + "\n";
    if (!options_.empty()) d += "options = " + TomlStrings(options_) + "\n";
    d += "constraints = [\n";
    for (const auto& [python, translated] : imported_.constraints)
      d += "  # T1: " + Quoted(python) + "\n  " + TomlString(translated) + ",\n";
    d += "]\n";
    for (std::size_t i = 0; i < sizes_.size(); ++i)
      d += "\n[[size]]                  # ProblemSize[" + std::to_string(i) +
           "]\nname = " + TomlString(sizes_[i].first) + "\ndefault = " + std::to_string(sizes_[i].second) + "\n";
    for (const Param& p : params_) {
      d += "\n[[param]]\nname = " + TomlString(p.name) + "\nvalues = [";
      for (std::size_t i = 0; i < p.values.size(); ++i) d += (i ? ", " : "") + std::to_string(p.values[i]);
      d += "]\n";
    }
    d += "\n[launch]\ngrid = " + TomlStrings(grid_) + "\nblock = " + TomlStrings(block_) +
         "\nshared_bytes = " + TomlString(shared_bytes_) + "\n";
    for (const Argument& a : args_) d += ArgumentToml(a);
    for (const Argument& a : args_)
      if (a.constant_memory)
        d += "\n[[symbol]]\nname = " + TomlString(a.name) + "\nfrom = " + TomlString(a.name) + "\n";
    return d + CheckToml() + WorkToml();
  }

  // T1 says nothing of the work: every buffer moved once (twice when read and written), so that
  // results read as bandwidth.
  std::string WorkToml() const {
    std::string bytes;
    for (const Argument& a : args_) {
      if (!a.is_buffer) continue;
      const std::size_t element_bytes = SizeOf(*ElementTypeNamed(a.type));
      bytes += (bytes.empty() ? "" : " + ") + std::to_string(element_bytes * (a.read_and_written ? 2 : 1)) + " * " +
               Factor(a.length);
    }
    return "\n[work]                    # each buffer moved once: edit for the kernel's real traffic or give "
           "flops\nbytes = " +
           TomlString(bytes) + "\n";
  }

  static std::string ArgumentToml(const Argument& a) {
    std::string d = "\n[[arg]]\nname = " + TomlString(a.name) + "\ntype = " + TomlString(a.type) + "\n";
    if (!a.is_buffer) return d + "value = " + TomlString(a.value) + "\n";
    d += "length = " + TomlString(a.length) + "\n";
    if (a.init != "poison") d += "init = " + TomlString(a.init) + "\n";
    return d + (a.output ? "output = true\n" : "");
  }

  std::string CheckToml() const {
    const bool floating = std::any_of(args_.begin(), args_.end(), [](const Argument& a) {
      return a.output && IsFloatingPoint(*ElementTypeNamed(a.type));
    });
    std::string params;
    for (const auto& [name, value] : reference_)
      params += (params.empty() ? "" : ", ") + name + " = " + std::to_string(value);
    std::string check = "\n[check]\nreference = \"own_configuration\"\nparams = { " + params + " }\n";
    if (!given_.output_depends_on.empty())
      check += "output_depends_on = " + TomlStrings(given_.output_depends_on) + "\n";
    // Half-precision and fp8 outputs round far beyond allclose's 1e-5: tuner's default for their type.
    if (std::any_of(args_.begin(), args_.end(),
                    [](const Argument& a) { return a.output && Element(*ElementTypeNamed(a.type)).epsilon > 0x1p-23; }))
      return check + "# atol and rtol: tuner's default for the outputs' type (kernel_templates/README.md)\n";
    // Kernel Tuner's default check (numpy.allclose with atol 1e-6 and rtol 1e-5); exact for integers.
    return check + "atol = " + (floating ? "1e-6" : "0") + "\nrtol = " + (floating ? "1e-5" : "0") + "\n";
  }

  std::string path_;
  T1ImportOptions given_;
  T1Reader r_;
  json root_;
  const json* kernel_ = nullptr;
  ImportedTemplate imported_;
  PythonScope scope_;
  std::string kernel_name_;
  std::vector<std::string> options_;
  std::string shared_bytes_ = "0";
  std::vector<std::pair<std::string, long long>> sizes_;
  std::vector<Param> params_;
  std::vector<std::string> grid_;
  std::vector<std::string> block_;
  std::vector<Argument> args_;
  std::vector<std::pair<std::string, long long>> reference_;
};

}  // namespace

ImportedTemplate ImportT1(const std::string& t1_path, const T1ImportOptions& options) {
  std::error_code error;
  if (!fs::exists(t1_path, error)) throw UsageError("there is no file " + Quoted(t1_path));
  return Importer(t1_path, options).Result();
}

}  // namespace tuner
