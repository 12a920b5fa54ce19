#include "capture_description.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace tuner::capture {

namespace {

std::string Quoted(const std::string& text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

std::string List(const std::vector<std::string>& items) {
  std::string text = "[";
  for (std::size_t i = 0; i < items.size(); ++i) text += (i ? ", " : "") + Quoted(items[i]);
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

std::size_t ItemBytes(const std::string& descr) { return std::stoul(descr.substr(2)); }

void WriteHeader(std::ostream& out, const CapturedLaunch& l) {
  out << "# Captured by tuner's capture library " << l.provenance << ".\n"
      << "# Tune it: tuner tune " << l.name << " --templates <this folder>\n"
      << "# The inputs are in data/, the application's own outputs (the check) in expected/.\n"
      << "name = " << Quoted(l.name) << "\n"
      << "summary = " << Quoted("captured " + l.provenance) << "\n"
      << "kernel = " << Quoted(l.kernel) << "\n"
      << "source = " << Quoted(l.source) << "\n";
  if (!l.constraints.empty()) out << "constraints = " << List(l.constraints) << "\n";
  if (!l.options.empty()) out << "options = " << List(l.options) << "\n";
  for (const auto& [name, value] : l.sizes) out << "\n[[size]]\nname = " << Quoted(name) << "\ndefault = " << value << "\n";
}

void WriteParams(std::ostream& out, const CapturedLaunch& l) {
  if (l.params.empty()) {
    out << "\n# PARAMETERS: none were declared by the application's launch call, so the only candidate is\n"
        << "# the application's own launch. To tune, add [[param]] tables (name, values), use them as macros\n"
        << "# in the source, and write [launch] in terms of them.\n";
  }
  for (const CapturedParam& p : l.params) {
    out << "\n[[param]]\nname = " << Quoted(p.name) << "\nvalues = " << Numbers(p.values, p.value)
        << "  # the application launched with " << p.value << "\n";
    if (p.values.empty()) out << "# PARAMETER " << p.name << ": only the application's value was declared; add values to tune it.\n";
  }
}

void WriteLaunch(std::ostream& out, const CapturedLaunch& l) {
  out << "\n[launch]\n";
  if (!l.geometry_from_application && !l.params.empty())
    out << "# LAUNCH: the application gave no expressions, so this is its own geometry for every candidate;\n"
        << "# write it in terms of the parameters if they change it.\n";
  out << "grid = " << List(l.grid) << "\nblock = " << List(l.block) << "\nshared_bytes = " << Quoted(l.shared_bytes) << "\n";
}

void WriteArgs(std::ostream& out, const CapturedLaunch& l) {
  for (const CapturedArg& a : l.args) {
    out << "\n[[arg]]\nname = " << Quoted(a.name) << "\ntype = " << Quoted(TunerType(a.descr)) << "\n";
    if (a.role == ArgRole::kScalar) {
      out << "value = " << Quoted(a.value) << "\n";
      continue;
    }
    out << "length = " << Quoted(std::to_string(a.count)) << "\n";
    if (a.role != ArgRole::kIn) out << "output = true\n";
    if (a.role == ArgRole::kIn || (a.role == ArgRole::kInOut && !a.initially_zero))
      out << "init = " << Quoted("file:" + InputFile(a.name)) << "\n";
    else if (a.role == ArgRole::kInOut)
      out << "init = \"zero\"  # it held zeros before the application's launch\n";
  }
}

void WriteCheck(std::ostream& out, const CapturedLaunch& l) {
  bool floating = false;
  out << "\n[check]\n# every candidate must reproduce the application's own output\nexpected = {";
  bool first = true;
  for (const CapturedArg& a : l.args) {
    if (a.role != ArgRole::kOut && a.role != ArgRole::kInOut) continue;
    floating |= a.descr[1] == 'f';
    out << (first ? " " : ", ") << a.name << " = " << Quoted(ExpectedFile(a.name));
    first = false;
  }
  out << " }\n";
  if (l.has_tolerance) {
    out << "atol = " << Number(l.atol) << "\nrtol = " << Number(l.rtol) << "\n";
  } else if (floating) {
    out << "# TOLERANCE: floating-point outputs, none given by the launch call (.Tolerance(atol, rtol));\n"
        << "# other configurations may round differently: widen these if correct candidates fail.\n"
        << "atol = 0.0\nrtol = 1e-5\n";
  } else {
    out << "atol = 0\nrtol = 0  # integer outputs: exact\n";
  }
}

void WriteWork(std::ostream& out, const CapturedLaunch& l) {
  std::uint64_t bytes = 0;
  for (const CapturedArg& a : l.args)
    if (a.role != ArgRole::kScalar) bytes += a.count * ItemBytes(a.descr) * (a.role == ArgRole::kInOut ? 2 : 1);
  out << "\n[work]\nbytes = " << Quoted(std::to_string(bytes))
      << "  # an estimate: every buffer read or written once; edit if the kernel moves more\n";
}

}  // namespace

std::string TunerType(const std::string& descr) {
  static const std::map<std::string, std::string> kTypes = {{"<f4", "float"}, {"<f8", "double"}, {"<i4", "int"},
                                                             {"<u4", "uint"},  {"<i8", "int64"},  {"<u8", "uint64"}};
  const auto it = kTypes.find(descr);
  if (it == kTypes.end()) throw std::invalid_argument("no tuner type for .npy type '" + descr + "'");
  return it->second;
}

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
  return out.str();
}

}  // namespace tuner::capture
