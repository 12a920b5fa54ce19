#include "launch.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "capture_description.h"
#include "capture_folder.h"
#include "captured_sizes.h"

namespace tuner {

namespace {

using capture::ArgRole;
using capture::CaptureError;

constexpr std::size_t kChunkBytes = std::size_t{64} << 20;  // host memory a capture uses per buffer copy

// TUNER_CAPTURE, read once: the names to capture.
const std::vector<std::string>& RequestedNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    const char* value = std::getenv("TUNER_CAPTURE");
    std::istringstream in(value ? value : "");
    for (std::string name; std::getline(in, name, ',');)
      if (!name.empty()) list.push_back(name);
    return list;
  }();
  return names;
}

// The captures of this process, by kernel name, and the lock that makes them one at a time.
std::mutex& CaptureMutex() {
  static std::mutex mutex;
  return mutex;
}
capture::KernelCapture& CaptureOf(const std::string& name) {
  static std::map<std::string, capture::KernelCapture> captures;
  return captures[name];
}

void Check(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    throw CaptureError(std::string(call) + ": " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
}

std::string DeviceName() {
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&prop, device) != cudaSuccess)
    return "an unknown GPU";
  return prop.name;
}

std::string Provenance() {
  char exe[4096] = {};
  const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  const std::time_t now = std::time(nullptr);
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
  return std::string("from ") + (n > 0 ? exe : "an application") + " (pid " + std::to_string(getpid()) + ") on " +
         DeviceName() + ", " + date;
}

std::string ScalarText(const char* type_code, std::uint64_t slot) {
  const std::string code = type_code;
  char text[64];
  auto as = [&](auto value) {
    std::memcpy(static_cast<void*>(&value), &slot, sizeof value);  // the bits of a __half too
    return value;
  };
  // The narrow floats through CUDA's own host conversions, exact in float.
  double narrow = 0;
  const bool is_narrow = code == "<f2" || code == "bfloat16" || code == "float8_e4m3fn" || code == "float8_e5m2";
  if (code == "<f2") narrow = __half2float(as(__half{}));
  if (code == "bfloat16") narrow = __bfloat162float(as(__nv_bfloat16{}));
  if (code == "float8_e4m3fn") narrow = static_cast<float>(as(__nv_fp8_e4m3{}));
  if (code == "float8_e5m2") narrow = static_cast<float>(as(__nv_fp8_e5m2{}));
  if (is_narrow)
    std::snprintf(text, sizeof text, "%.9g", narrow);
  else if (code == "<f4")
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(as(0.0f)));
  else if (code == "<f8")
    std::snprintf(text, sizeof text, "%.17g", as(0.0));
  else if (code == "<i4" || code == "<i2" || code == "|i1")
    std::snprintf(text, sizeof text, "%d",
                  code == "<i4"   ? as(std::int32_t{0})
                  : code == "<i2" ? as(std::int16_t{0})
                                  : as(std::int8_t{0}));
  else if (code == "<u4" || code == "<u2" || code == "|u1")
    std::snprintf(text, sizeof text, "%u",
                  code == "<u4"   ? as(std::uint32_t{0})
                  : code == "<u2" ? as(std::uint16_t{0})
                                  : as(std::uint8_t{0}));
  else if (code == "<i8")
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(as(std::int64_t{0})));
  else
    std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(as(std::uint64_t{0})));
  return text;
}

std::vector<std::string> Dims(const dim3& d) {
  std::vector<std::string> dims = {std::to_string(d.x)};
  if (d.y > 1 || d.z > 1) dims.push_back(std::to_string(d.y));
  if (d.z > 1) dims.push_back(std::to_string(d.z));
  return dims;
}

bool AllZero(const char* bytes, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i)
    if (bytes[i] != 0) return false;
  return true;
}

// Copies a device (or host, or managed) buffer into a new .npy file in chunks. Returns whether
// every byte was zero.
bool WriteBuffer(capture::CaptureFolder& folder, const std::string& file, const capture::CapturedArg& arg,
                 std::uint64_t slot, cudaStream_t stream) {
  const char* device = nullptr;
  std::memcpy(&device, &slot, sizeof device);
  const std::size_t total = arg.count * npy::ItemBytesOf(arg.descr);
  const std::unique_ptr<npy::Writer> writer = folder.NewArray(file, arg.descr, arg.count);
  std::string chunk(std::min(total, kChunkBytes), '\0');
  bool zero = true;
  for (std::size_t done = 0; done < total;) {
    const std::size_t size = std::min(chunk.size(), total - done);
    Check(cudaMemcpyAsync(chunk.data(), device + done, size, cudaMemcpyDefault, stream), "cudaMemcpyAsync");
    Check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    zero = zero && AllZero(chunk.data(), size);
    writer->Write(chunk.data(), size);
    done += size;
  }
  writer->Close();
  return zero;
}

// Whether TUNER_CAPTURE asks for this name (its first launch at each size is captured).
bool CaptureRequested(const char* name) {
  const std::vector<std::string>& names = RequestedNames();
  if (names.empty()) return false;
  for (const std::string& requested : names)
    if (requested == name) return true;
  return false;
}

}  // namespace

Launch::Launch(const char* name, const void* kernel, dim3 grid, dim3 block, std::size_t shared_bytes,
               cudaStream_t stream, int)
    : name_(name),
      kernel_(kernel),
      grid_(grid),
      block_(block),
      shared_bytes_(shared_bytes),
      stream_(stream),
      capturing_(CaptureRequested(name)) {
  if (!capturing_) return;
  record_ = std::make_unique<capture::CapturedLaunch>();
  record_->name = name_;
  record_->kernel = name_;
}

Launch::~Launch() = default;

Launch& Launch::Source(const char* path, const char* kernel_name) {
  if (!record_) return *this;
  record_->source_path = path;
  if (kernel_name) record_->kernel = kernel_name;
  return *this;
}

Launch& Launch::Size(const char* name, long long value) {
  if (record_) record_->sizes.emplace_back(name, value);
  return *this;
}

Launch& Launch::Param(const char* name, long long value, std::initializer_list<long long> values) {
  if (record_) record_->params.push_back({name, value, values});
  return *this;
}

Launch& Launch::Constraint(const char* expression) {
  if (record_) record_->constraints.push_back(expression);
  return *this;
}

Launch& Launch::Option(const char* nvrtc_option) {
  if (record_) record_->options.push_back(nvrtc_option);
  return *this;
}

Launch& Launch::Geometry(std::initializer_list<const char*> grid, std::initializer_list<const char*> block,
                         const char* shared_bytes) {
  if (!record_) return *this;
  record_->grid.assign(grid.begin(), grid.end());
  record_->block.assign(block.begin(), block.end());
  record_->shared_bytes = shared_bytes;
  record_->geometry_from_application = true;
  return *this;
}

Launch& Launch::Tolerance(double atol, double rtol) {
  if (!record_) return *this;
  record_->has_tolerance = true;
  record_->atol = atol;
  record_->rtol = rtol;
  return *this;
}

cudaError_t Launch::CaptureAndRun() {
  if (count_ > kMaxArgs) {
    std::fprintf(stderr, "tuner::Launch %s: %d arguments, at most %d are supported\n", name_, count_, kMaxArgs);
    return cudaErrorInvalidValue;
  }
  bool launched = false;
  cudaError_t status = cudaSuccess;
  std::lock_guard<std::mutex> lock(CaptureMutex());
  capture::KernelCapture& kernel = CaptureOf(name_);
  const std::string size = capture::SizeKey(record_->sizes);
  try {
    switch (capture::ClaimSize(kernel, size)) {
      case capture::SizeClaim::kFirst: {
        const std::string folder = CaptureInto(&launched, &status);
        kernel.folder = folder;
        kernel.launch = *record_;
        std::fprintf(stderr, "tuner capture: %s: wrote %s (tune it: tuner tune %s --templates %s)\n", name_,
                     folder.c_str(), name_, folder.c_str());
        break;
      }
      case capture::SizeClaim::kFurther: {
        const std::string folder = AddSize(&launched, &status);
        std::fprintf(stderr,
                     "tuner capture: %s: size %s added as %s (%zu sizes; tune them: tuner tune %s --templates %s "
                     "--sizes captured)\n",
                     name_, size.c_str(), folder.c_str(), kernel.launch.more_sizes.size() + 1, name_,
                     kernel.folder.c_str());
        break;
      }
      case capture::SizeClaim::kOverBound:
        if (!kernel.told_bound)
          std::fprintf(
              stderr,
              "tuner capture: %s: size %s and later new sizes are not captured: %zu sizes are, the most per kernel\n",
              name_, size.c_str(), capture::kMaxCapturedSizes);
        kernel.told_bound = true;
        break;
      case capture::SizeClaim::kSeen:
        break;
    }
  } catch (const std::exception& e) {
    const std::string what = size.empty() ? "" : "size " + size + " ";
    std::fprintf(stderr, "tuner capture: %s: %snot captured: %s\n", name_, what.c_str(), e.what());
  }
  if (!launched) status = cudaLaunchKernel(kernel_, grid_, block_, pointers_, shared_bytes_, stream_);
  return status;
}

// In and InOut buffers before the launch, the application's launch, Out and InOut after it.
// `drop_zero_inputs`: an InOut buffer of zeros gets no input file (init = "zero").
void Launch::CaptureBuffers(capture::CaptureFolder& folder, bool drop_zero_inputs,
                            std::vector<capture::CapturedArg>* args, bool* launched, cudaError_t* status) {
  static const std::regex kIdentifier("[A-Za-z_][A-Za-z0-9_]*");
  Check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize before the capture");
  args->clear();
  for (int i = 0; i < count_; ++i) {
    const Arg& a = args_[i];
    if (!std::regex_match(std::string(a.name), kIdentifier))
      throw CaptureError(std::string("argument '") + a.name + "': not an identifier");
    capture::CapturedArg arg{a.name, a.type_code, static_cast<ArgRole>(a.role), a.count, "", false};
    if (a.role == kScalar) arg.value = ScalarText(a.type_code, a.slot);
    if (a.role == kIn || a.role == kInOut)
      arg.initially_zero = WriteBuffer(folder, capture::InputFile(a.name), arg, a.slot, stream_);
    if (a.role == kInOut && arg.initially_zero && drop_zero_inputs) folder.Remove(capture::InputFile(a.name));
    args->push_back(arg);
  }
  *status = cudaLaunchKernel(kernel_, grid_, block_, pointers_, shared_bytes_, stream_);
  *launched = true;
  Check(*status, "the application's launch");
  Check(cudaStreamSynchronize(stream_), "cudaStreamSynchronize after the application's launch");
  for (int i = 0; i < count_; ++i)
    if (args_[i].role == kOut || args_[i].role == kInOut)
      WriteBuffer(folder, capture::ExpectedFile(args_[i].name), (*args)[i], args_[i].slot, stream_);
}

// The first size: inputs, the application's launch, outputs, description, then the folder is
// moved into place. `launched` tells the caller whether the launch already happened.
std::string Launch::CaptureInto(bool* launched, cudaError_t* status) {
  static const std::regex kIdentifier("[A-Za-z_][A-Za-z0-9_]*");
  if (!std::regex_match(std::string(name_), kIdentifier))
    throw CaptureError("the name must be an identifier (letters, digits, _)");
  if (record_->source_path.empty())
    throw CaptureError("the launch call gives no kernel source (.Source(path, kernel)), which the tuner compiles");
  const char* dir = std::getenv("TUNER_CAPTURE_DIR");
  capture::CaptureFolder folder(dir && *dir ? dir : ".", name_);
  capture::CapturedLaunch& record = *record_;
  record.source = folder.CopySource(record.source_path);
  CaptureBuffers(folder, true, &record.args, launched, status);
  if (!record.geometry_from_application) {
    record.grid = Dims(grid_);
    record.block = Dims(block_);
    record.shared_bytes = std::to_string(shared_bytes_);
  }
  record.provenance = Provenance();
  folder.WriteText(record.name + ".toml", capture::DescriptionToml(record));
  return folder.Commit();
}

// A further size, added to the capture of the first.
std::string Launch::AddSize(bool* launched, cudaError_t* status) {
  const capture::CapturedSize size{record_->sizes, {}, ""};
  return capture::AddFurtherSize(CaptureOf(name_), size, [&](capture::CaptureFolder& folder) {
    std::vector<capture::CapturedArg> args;
    CaptureBuffers(folder, false, &args, launched, status);
    return args;
  });
}

}  // namespace tuner
