#include "compile/compile_failure.h"

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <vector>

#include "common/option_values.h"

namespace tuner {

namespace {

namespace fs = std::filesystem;

constexpr long long kStaticSharedLimitBytes = 48 * 1024;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool IsBlank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

std::string Trimmed(const std::string& line) {
  const std::size_t first = line.find_first_not_of(" \t\r");
  return first == std::string::npos ? "" : line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
}

// "error:", "catastrophic error:" or "error #20-D:", not a warning about a name "error".
bool IsNvrtcError(const std::string& line) {
  static const std::regex kError(R"(\berror( #[0-9]+(-D)?)?:)");
  return std::regex_search(line, kError);
}

// "ptxas error   : ...", "ptxas fatal   : ...", "nvlink error   : ...".
bool IsToolError(const std::string& line) {
  static const std::regex kError(R"(^(ptxas|nvlink|nvJitLink|nvcc)\s+(error|fatal)\s*:)");
  return std::regex_search(line, kError);
}

// A lookup of the kernel's name expression that failed: NVRTC reports it from its "__nv_name_map".
std::string MissingEntryPoint(const std::string& line) {
  if (line.rfind("cannot lower the kernel name", 0) == 0 || line.rfind("cannot read the resources of", 0) == 0)
    return "no entry point: " + line;
  if (line.rfind("__nv_name_map", 0) != 0) return "";
  const std::size_t error = line.find("error: ");
  return "no entry point matches the kernel name: " + (error == std::string::npos ? line : line.substr(error + 7));
}

// The largest static shared memory ptxas reported: over 48 KiB of __shared__ arrays, said in bytes
// before ptxas's own error (in hexadecimal, and NVRTC 12-13 may give nothing but the report).
long long StaticSharedBytes(const std::string& log) {
  static const std::regex kSmem(R"((\d+) bytes smem)");
  long long most = 0;
  for (std::sregex_iterator it(log.begin(), log.end(), kSmem), end; it != end; ++it)
    most = std::max(most, std::stoll((*it)[1]));
  return most;
}

std::string WithoutFolder(std::string line, const std::string& source_path) {
  if (!source_path.empty() && line.rfind(source_path, 0) == 0)
    line = fs::path(source_path).filename().string() + line.substr(source_path.size());
  return line;
}

std::string ToolErrorReason(const std::string& line) {
  if (line.find("shared data") != std::string::npos) return "static shared memory over the limit: " + line;
  if (line.find("register") != std::string::npos) return "register limit: " + line;
  return line;
}

// `text` with its control characters but line breaks and tabs escaped (common/option_values.h:
// Printable), as the rest of the output is: a log of many lines fit for a terminal.
std::string PrintableLines(const std::string& text) {
  std::string printable;
  std::size_t start = 0;
  for (std::size_t end; (end = text.find_first_of("\n\t", start)) != std::string::npos; start = end + 1)
    printable += Printable(text.substr(start, end - start)) + text[end];
  return printable + Printable(text.substr(start));
}

std::string UnfilteredReason(const std::string& log, const std::string& source_path) {
  std::vector<std::string> lines = Lines(log);
  lines.erase(std::remove_if(lines.begin(), lines.end(), IsBlank), lines.end());
  for (const std::string& line : lines) {
    const std::string missing = MissingEntryPoint(line);
    if (!missing.empty()) return "compile: " + missing;
    if (IsNvrtcError(line)) return "compile: " + Trimmed(WithoutFolder(line, source_path));
  }
  const long long smem = StaticSharedBytes(log);
  if (smem > kStaticSharedLimitBytes)
    return "compile: static shared memory over the 48 KiB limit: " + std::to_string(smem) +
           " bytes of __shared__ arrays";
  const auto tool = std::find_if(lines.begin(), lines.end(), IsToolError);
  if (tool != lines.end()) return "compile: " + ToolErrorReason(Trimmed(*tool));
  if (lines.empty()) return "compile: NVRTC failed without a log";
  return "compile: " + Trimmed(lines.back());
}

}  // namespace

std::string CompileFailureReason(const std::string& log, const std::string& source_path) {
  // Its control characters escaped: a source line the compiler quotes may hold a terminal's escapes.
  return Printable(UnfilteredReason(log, source_path));
}

std::string LikelyFix(const std::string& reason) {
  struct Cure {
    const char* sign;
    const char* fix;
  };
  static const Cure kCures[] = {
      {"no entry point",
       "the description's kernel must name a __global__ function of the source as C++ names it: "
       "ns::kernel, kernel<TILE, float>, or static_cast<void (*)(float*, int)>(kernel) for one overload"},
      {"static shared memory over",
       "keep __shared__ arrays within 48 KiB, or declare them extern __shared__ and give the size as "
       "launch.shared_bytes"},
      {"register limit", "lower the threads per block or the registers __launch_bounds__ asks for"},
      {"expected a \",\" or \">\"",
       "a tuning parameter is also a name in a template parameter list and its -D macro rewrote it: "
       "rename one of the two"},
      {"is undefined", "a name the kernel uses is neither defined in the source nor a parameter of the description"},
      {"cannot open source file",
       "the source includes a header that is neither beside it nor in the toolkit: give its folder with -I in the "
       "description's options; a C or C++ standard header needs nvcc, which the tool runs for such files when it "
       "finds one (CUDA_HOME, TUNER_NVCC)"},
      {"are not allowed in JIT mode",
       "the file has host code, which NVRTC cannot take: the tool compiles such files with nvcc when it finds one "
       "(CUDA_HOME, TUNER_NVCC)"},
      {"constexpr __host__ function",
       "device code calls a constexpr host function (std::numeric_limits, std::min): add "
       "\"--expt-relaxed-constexpr\" to the description's options, as the project's own build does"},
      {"nvcc fatal", "nvcc refused an option of the description: options reach nvcc as written"},
  };
  for (const Cure& cure : kCures)
    if (reason.find(cure.sign) != std::string::npos) return cure.fix;
  return "";
}

namespace {

// The file a compiler message is about: "/t/k.cu(12): error: ..." -> "/t/k.cu"; "" for ptxas's
// lines, NVRTC's name map and summaries, which quote no file.
std::string MessageFile(const std::string& line) {
  static const std::regex kMessage(R"(^(.+?)\(\d+\): (error|warning|catastrophic error|remark)\b)");
  std::smatch match;
  return std::regex_search(line, match, kMessage) ? match[1].str() : "";
}

bool InsideFolder(const std::string& file, const fs::path& folder) {
  if (file == "__nv_name_map") return true;
  const fs::path path = fs::path(file).is_absolute() ? fs::path(file) : folder / file;
  const fs::path relative = path.lexically_normal().lexically_relative(folder.lexically_normal());
  return !relative.empty() && *relative.begin() != "..";
}

}  // namespace

std::string LogInsideFolder(const std::string& log, const std::string& folder) {
  std::string kept;
  int left_out = 0;
  bool keeping = true;  // a message's quoted source lines follow it until a blank line
  for (const std::string& line : Lines(log)) {
    const std::string file = MessageFile(line);
    if (!file.empty()) {
      keeping = InsideFolder(file, fs::path(folder));
      if (!keeping) ++left_out;
    } else if (IsBlank(line)) {
      const bool was_keeping = keeping;
      keeping = true;
      if (!was_keeping) continue;  // the blank line that ended a message left out
    }
    if (keeping) kept += line + "\n";
  }
  // Its control characters but line breaks and tabs escaped, as the rest of the output is.
  if (!left_out) return PrintableLines(log);  // else as NVRTC wrote it
  return PrintableLines(kept) + "(" + std::to_string(left_out) + " message" + (left_out == 1 ? "" : "s") +
         " about files outside the template's folder left out)";
}

}  // namespace tuner
