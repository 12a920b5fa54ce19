#include "capture_description.h"

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "npy.h"
#include "size_expressions.h"

namespace tuner::capture {

namespace {

// A TOML basic string of the description this writes.
std::string TomlQuoted(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

std::string List(const std::vector<std::string>& items) {
  std::string text = "[";
  for (std::size_t i = 0; i < items.size(); ++i) text += (i ? ", " : "") + TomlQuoted(items[i]);
  return text + "]";
}

std::string Numbers(std::vector<long long> values, long long own) {
  if (std::find(values.begin(), values.end(), own) == values.end()) values.insert(values.begin(), own);
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + std::to_string(values[i]);
  return text + "]";
}

std::string Number(double value) {
  std::ostringstream text;
  text.precision(17);
  text << value;
  return text.str();
}

std::size_t ItemBytes(const std::string& descr) { return npy::ItemBytesOf(descr); }

// Every captured size's variables, the first size first.
std::vector<SizeValues> AllSizes(const CapturedLaunch& l) {
  std::vector<SizeValues> sizes = {l.sizes};
  for (const CapturedSize& more : l.more_sizes) sizes.push_back(more.sizes);
  return sizes;
}

// Argument `index` at every captured size, the first size first.
std::vector<const CapturedArg*> AtEverySize(const CapturedLaunch& l, std::size_t index) {
  std::vector<const CapturedArg*> args = {&l.args[index]};
  for (const CapturedSize& more : l.more_sizes) args.push_back(&more.args[index]);
  return args;
}

// A buffer's length: the count itself for one size, else the product of sizes that gives every
// size's count; nullopt when none does.
std::optional<std::string> LengthExpression(const CapturedLaunch& l, std::size_t index) {
  if (l.more_sizes.empty()) return std::to_string(l.args[index].count);
  std::vector<long long> counts;
  for (const CapturedArg* a : AtEverySize(l, index)) counts.push_back(static_cast<long long>(a->count));
  return ProductOfSizes(AllSizes(l), counts);
}

// A scalar's value: as captured for one size or where it never changes, else the product of sizes
// that gives every size's (whole) value; nullopt when none does.
std::optional<std::string> ScalarExpression(const CapturedLaunch& l, std::size_t index) {
  const std::vector<const CapturedArg*> args = AtEverySize(l, index);
  bool same = true;
  for (const CapturedArg* a : args) same &= a->value == args[0]->value;
  std::vector<long long> values;
  for (const CapturedArg* a : args) {
    std::size_t used = 0;
    try {
      values.push_back(std::stoll(a->value, &used));
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != a->value.size()) return same ? std::optional<std::string>(args[0]->value) : std::nullopt;
  }
  if (l.more_sizes.empty()) return args[0]->value;
  if (const auto product = ProductOfSizes(AllSizes(l), values)) return product;
  return same ? std::optional<std::string>(args[0]->value) : std::nullopt;
}

// What a value was at each captured size: "1024 at 1024x256, 4096 at 4096x256".
std::string ValuesBySize(const CapturedLaunch& l, std::size_t index, bool count) {
  const std::vector<SizeValues> sizes = AllSizes(l);
  const std::vector<const CapturedArg*> args = AtEverySize(l, index);
  std::string text;
  for (std::size_t i = 0; i < args.size(); ++i)
    text += (i ? ", " : "") + (count ? std::to_string(args[i]->count) : args[i]->value) + " at " + SizeKey(sizes[i]);
  return text;
}

bool ZeroAtEverySize(const CapturedLaunch& l, std::size_t index) {
  for (const CapturedArg* a : AtEverySize(l, index))
    if (!a->initially_zero) return false;
  return true;
}

void WriteHeader(std::ostream& out, const CapturedLaunch& l) {
  out << "# Captured by tuner's capture library " << l.provenance << ".\n"
      << "# Tune it: tuner tune " << l.name << " --templates <this folder>"
      << (l.more_sizes.empty() ? "" : " --sizes captured") << "\n"
      << "# The inputs are in data/, the application's own outputs (the check) in expected/.\n"
      << "name = " << TomlQuoted(l.name) << "\n"
      << "summary = " << TomlQuoted("captured " + l.provenance) << "\n"
      << "kernel = " << TomlQuoted(l.kernel) << "\n"
      << "source = " << TomlQuoted(l.source) << "\n";
  if (!l.constraints.empty()) out << "constraints = " << List(l.constraints) << "\n";
  if (!l.options.empty()) out << "options = " << List(l.options) << "\n";
  for (const auto& [name, value] : l.sizes)
    out << "\n[[size]]\nname = " << TomlQuoted(name) << "\ndefault = " << value << "\n";
}

void WriteParams(std::ostream& out, const CapturedLaunch& l) {
  if (l.params.empty()) {
    out << "\n# PARAMETERS: none were declared by the application's launch call, so the only candidate is\n"
        << "# the application's own launch. To tune, add [[param]] tables (name, values), use them as macros\n"
        << "# in the source, and write [launch] in terms of them.\n";
  }
  for (const CapturedParam& p : l.params) {
    out << "\n[[param]]\nname = " << TomlQuoted(p.name) << "\nvalues = " << Numbers(p.values, p.value)
        << "  # the application launched with " << p.value << "\n";
    if (p.values.empty())
      out << "# PARAMETER " << p.name << ": only the application's value was declared; add values to tune it.\n";
  }
}

void WriteLaunch(std::ostream& out, const CapturedLaunch& l) {
  out << "\n[launch]\n";
  if (!l.geometry_from_application && !l.more_sizes.empty())
    out << "# LAUNCH: the application gave no expressions, so this is its own geometry at the first size for\n"
        << "# every candidate and every size; write it in terms of the sizes (and parameters) before tuning\n"
        << "# the other sizes.\n";
  else if (!l.geometry_from_application && !l.params.empty())
    out << "# LAUNCH: the application gave no expressions, so this is its own geometry for every candidate;\n"
        << "# write it in terms of the parameters if they change it.\n";
  out << "grid = " << List(l.grid) << "\nblock = " << List(l.block) << "\nshared_bytes = " << TomlQuoted(l.shared_bytes)
      << "\n";
}

void WriteArgs(std::ostream& out, const CapturedLaunch& l) {
  for (std::size_t i = 0; i < l.args.size(); ++i) {
    const CapturedArg& a = l.args[i];
    out << "\n[[arg]]\nname = " << TomlQuoted(a.name) << "\ntype = " << TomlQuoted(TunerType(a.descr)) << "\n";
    if (a.role == ArgRole::kScalar) {
      const auto value = ScalarExpression(l, i);
      if (!value)
        out << "# SCALAR " << a.name << ": it changes with the size (" << ValuesBySize(l, i, false)
            << ") as no product of the sizes does; write it as an expression over the sizes.\n";
      out << "value = " << TomlQuoted(value.value_or(a.value)) << "\n";
      continue;
    }
    const auto length = LengthExpression(l, i);
    if (!length)
      out << "# LENGTH " << a.name << ": it changes with the size (" << ValuesBySize(l, i, true)
          << ") as no product of the sizes does; write it as an expression over the sizes.\n";
    out << "length = " << TomlQuoted(length.value_or(std::to_string(a.count))) << "\n";
    if (a.role != ArgRole::kIn) out << "output = true\n";
    if (a.role == ArgRole::kIn || (a.role == ArgRole::kInOut && !ZeroAtEverySize(l, i)))
      out << "init = " << TomlQuoted("file:" + InputFile(a.name)) << "\n";
    else if (a.role == ArgRole::kInOut)
      out << "init = \"zero\"  # it held zeros before the application's launch"
          << (l.more_sizes.empty() ? "" : " at every size") << "\n"
          << "accumulate = true  # an InOut buffer: the kernel may read and add to what it held\n";
  }
}

// half, bfloat16 and fp8: compared with a tolerance from their epsilon, not fp32's.
bool IsNarrowFloat(const std::string& descr) {
  return descr == "<f2" || descr == "bfloat16" || descr == "float8_e4m3fn" || descr == "float8_e5m2";
}

void WriteCheck(std::ostream& out, const CapturedLaunch& l) {
  bool floating = false, narrow = false;
  out << "\n[check]\n# every candidate must reproduce the application's own output\nexpected = {";
  bool first = true;
  for (const CapturedArg& a : l.args) {
    if (a.role != ArgRole::kOut && a.role != ArgRole::kInOut) continue;
    floating |= a.descr[1] == 'f' || IsNarrowFloat(a.descr);
    narrow |= IsNarrowFloat(a.descr);
    out << (first ? " " : ", ") << a.name << " = " << TomlQuoted(ExpectedFile(a.name));
    first = false;
  }
  out << " }\n";
  if (l.has_tolerance) {
    out << "atol = " << Number(l.atol) << "\nrtol = " << Number(l.rtol) << "\n";
  } else if (narrow) {
    out << "# TOLERANCE: half-precision or fp8 outputs, none given by the launch call (.Tolerance(atol, rtol)):\n"
        << "# rtol is tuner's default for the coarsest output type (2 epsilon, kernel_templates/README.md).\n"
        << "atol = 0.0\n";
  } else if (floating) {
    out << "# TOLERANCE: floating-point outputs, none given by the launch call (.Tolerance(atol, rtol));\n"
        << "# other configurations may round differently: widen these if correct candidates fail.\n"
        << "atol = 0.0\nrtol = 1e-5\n";
  } else {
    out << "atol = 0\nrtol = 0  # integer outputs: exact\n";
  }
}

void WriteWork(std::ostream& out, const CapturedLaunch& l) {
  std::string bytes;
  std::uint64_t first_bytes = 0;
  for (std::size_t i = 0; i < l.args.size(); ++i) {
    const CapturedArg& a = l.args[i];
    if (a.role == ArgRole::kScalar) continue;
    const std::size_t factor = ItemBytes(a.descr) * (a.role == ArgRole::kInOut ? 2 : 1);
    first_bytes += a.count * factor;
    bytes += (bytes.empty() ? "" : " + ") + std::to_string(factor) + " * " +
             LengthExpression(l, i).value_or(std::to_string(a.count));
  }
  out << "\n[work]\nbytes = " << TomlQuoted(l.more_sizes.empty() ? std::to_string(first_bytes) : bytes)
      << "  # an estimate: every buffer read or written once; edit if the kernel moves more\n";
}

void WriteDataSizes(std::ostream& out, const CapturedLaunch& l) {
  if (l.more_sizes.empty()) return;
  out << "\n# The other sizes the application launched at: their data and expected outputs are in their\n"
      << "# folders, at the same paths. tuner tune " << l.name << " --sizes captured tunes all "
      << l.more_sizes.size() + 1 << " sizes.\n";
  for (const CapturedSize& more : l.more_sizes)
    out << "\n[[data_size]]\nsize = " << TomlQuoted(SizeKey(more.sizes)) << "\nfolder = " << TomlQuoted(more.folder) << "\n";
}

}  // namespace

std::string TunerType(const std::string& descr) {
  static const std::map<std::string, std::string> kTypes = {{"<f4", "float"},
                                                            {"<f8", "double"},
                                                            {"<i4", "int"},
                                                            {"<u4", "uint"},
                                                            {"<i8", "int64"},
                                                            {"<u8", "uint64"},
                                                            {"<f2", "half"},
                                                            {"bfloat16", "bfloat16"},
                                                            {"float8_e4m3fn", "fp8_e4m3"},
                                                            {"float8_e5m2", "fp8_e5m2"},
                                                            {"|i1", "int8"},
                                                            {"|u1", "uint8"},
                                                            {"<i2", "int16"},
                                                            {"<u2", "uint16"}};
  const auto it = kTypes.find(descr);
  if (it == kTypes.end()) throw std::invalid_argument("no tuner type for .npy type '" + descr + "'");
  return it->second;
}

std::string SizeKey(const std::vector<std::pair<std::string, long long>>& sizes) {
  std::string key;
  for (const auto& [name, value] : sizes) key += (key.empty() ? "" : "x") + std::to_string(value);
  return key;
}

std::string SizeFolder(const std::string& size_key) { return "sizes/" + size_key; }

std::string InputFile(const std::string& arg) { return "data/" + arg + ".npy"; }
std::string ExpectedFile(const std::string& arg) { return "expected/" + arg + ".npy"; }

std::string DescriptionToml(const CapturedLaunch& launch) {
  std::ostringstream out;
  WriteHeader(out, launch);
  WriteParams(out, launch);
  WriteLaunch(out, launch);
  WriteArgs(out, launch);
  WriteCheck(out, launch);
  WriteWork(out, launch);
  WriteDataSizes(out, launch);
  return out.str();
}

}  // namespace tuner::capture
