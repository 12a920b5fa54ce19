// tuner's capture library: launch a kernel through it, and a run with TUNER_CAPTURE=NAME writes a
// capture folder that `tuner tune NAME --templates FOLDER` tunes on the application's own data.
//
//   #include <tuner/launch.h>
//   tuner::Launch launch("histogram", kernel, grid, block, shared_bytes, stream);
//   launch.In("data", d_data, n).InOut("bins", d_bins, bins).Scalar("n", n);   // the kernel's arguments, in order
//   launch.Source("histogram.cu", "histogram").Size("N", n)                   // what the capture describes
//         .Param("BLOCK", block_size, {128, 256, 512}).Geometry({"cdiv(N, BLOCK)"}, {"BLOCK"});
//   cudaError_t status = launch.Run();
//
// Without TUNER_CAPTURE (or with another name) Run() is one cudaLaunchKernel: the description
// calls return at once, nothing is allocated and no file is touched. With TUNER_CAPTURE=NAME (a
// comma-separated list is allowed), the first launch of NAME in the process synchronises its
// stream, writes the buffers of In and InOut as .npy files, launches, and writes Out and InOut as
// the expected outputs, with the description, into $TUNER_CAPTURE_DIR/capture-NAME (default: the
// current folder); an existing capture is never replaced: the new one takes capture-NAME-2, -3, ...
// The first launch of each further size (the values given with Size()) is added to that capture
// under sizes/SIZE, up to 16 sizes; `tuner tune NAME --templates FOLDER --sizes captured` tunes all.
// A capture that fails says why on stderr and the launch goes on as usual.
// `kernel` is what cudaLaunchKernel takes: a __global__ function or a cudaKernel_t.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace tuner {

namespace capture {
struct CapturedArg;
struct CapturedLaunch;
class CaptureFolder;
}  // namespace capture

class Launch {
 public:
  static constexpr int kMaxArgs = 64;

  template <typename Kernel>
  Launch(const char* name, Kernel kernel, dim3 grid, dim3 block, std::size_t shared_bytes = 0,
         cudaStream_t stream = nullptr)
      : Launch(name, reinterpret_cast<const void*>(kernel), grid, block, shared_bytes, stream, 0) {}
  ~Launch();
  Launch(const Launch&) = delete;
  Launch& operator=(const Launch&) = delete;

  // The kernel's arguments, in its order. Buffers: device pointers with their element counts.
  // Argument names are read when Run() captures: pass literals, or strings that live until then.
  template <typename T>
  Launch& In(const char* name, const T* data, std::size_t count) {
    return Buffer<T>(name, data, count, kIn);
  }
  template <typename T>
  Launch& Out(const char* name, T* data, std::size_t count) {
    return Buffer<T>(name, data, count, kOut);
  }
  // Read and written: its contents before the launch are an input, after it an expected output.
  template <typename T>
  Launch& InOut(const char* name, T* data, std::size_t count) {
    return Buffer<T>(name, data, count, kInOut);
  }
  template <typename T>
  Launch& Scalar(const char* name, T value) {
    static_assert(IsElement<T>(),
                  "scalars: float, double, int32_t, uint32_t, int64_t, uint64_t, __half, __nv_bfloat16, "
                  "__nv_fp8_e4m3, __nv_fp8_e5m2, int8_t, uint8_t, int16_t, uint16_t");
    Arg& arg = NextArg(name, TypeCode<T>(), kScalar, 1);
    std::memcpy(&arg.slot, &value, sizeof value);
    return *this;
  }

  // For the capture's description only (no cost without capture). The source must compile with
  // NVRTC on its own; `kernel_name` is its entry point or a name expression such as "hist<BLOCK>".
  Launch& Source(const char* path, const char* kernel_name = nullptr);
  Launch& Size(const char* name, long long value);  // the problem size, in order
  Launch& Param(const char* name, long long value, std::initializer_list<long long> values = {});
  Launch& Constraint(const char* expression);
  Launch& Option(const char* nvrtc_option);  // e.g. "-use_fast_math"
  // Grid and block as expressions over sizes and parameters; shared memory per block too.
  Launch& Geometry(std::initializer_list<const char*> grid, std::initializer_list<const char*> block,
                   const char* shared_bytes = "0");
  Launch& Tolerance(double atol, double rtol);  // for floating-point outputs

  // The .npy code a buffer of T is captured under (ml_dtypes' names for bfloat16 and fp8, npy.h);
  // nullptr for a type that is no element type.
  template <typename T>
  static constexpr const char* TypeCodeOf() {
    return TypeCode<T>();
  }

  // Launches the kernel (and captures it if asked); returns cudaLaunchKernel's status.
  cudaError_t Run() {
    if (!capturing_ && count_ <= kMaxArgs)
      return cudaLaunchKernel(kernel_, grid_, block_, pointers_, shared_bytes_, stream_);
    return CaptureAndRun();
  }

 private:
  enum Role : unsigned char { kScalar, kIn, kOut, kInOut };
  struct Arg {
    const char* name;
    const char* type_code;  // .npy: "<f4"
    Role role;
    std::size_t count;
    std::uint64_t slot;  // the value cudaLaunchKernel reads: a device pointer or a scalar
  };

  // The element types and their .npy codes; ml_dtypes' names for bfloat16 and fp8 (npy.h).
  template <typename T>
  static constexpr const char* TypeCode() {
    if constexpr (std::is_same_v<T, float>)
      return "<f4";
    else if constexpr (std::is_same_v<T, double>)
      return "<f8";
    else if constexpr (std::is_same_v<T, std::int32_t>)
      return "<i4";
    else if constexpr (std::is_same_v<T, std::uint32_t>)
      return "<u4";
    else if constexpr (std::is_same_v<T, std::int64_t>)
      return "<i8";
    else if constexpr (std::is_same_v<T, std::uint64_t>)
      return "<u8";
    else if constexpr (std::is_same_v<T, __half>)
      return "<f2";
    else if constexpr (std::is_same_v<T, __nv_bfloat16>)
      return "bfloat16";
    else if constexpr (std::is_same_v<T, __nv_fp8_e4m3>)
      return "float8_e4m3fn";
    else if constexpr (std::is_same_v<T, __nv_fp8_e5m2>)
      return "float8_e5m2";
    else if constexpr (std::is_same_v<T, std::int8_t>)
      return "|i1";
    else if constexpr (std::is_same_v<T, std::uint8_t>)
      return "|u1";
    else if constexpr (std::is_same_v<T, std::int16_t>)
      return "<i2";
    else if constexpr (std::is_same_v<T, std::uint16_t>)
      return "<u2";
    else
      return nullptr;
  }
  template <typename T>
  static constexpr bool IsElement() {
    return TypeCode<T>() != nullptr;
  }
  template <typename T>
  Launch& Buffer(const char* name, const T* data, std::size_t count, Role role) {
    static_assert(IsElement<T>(),
                  "element types: float, double, int32_t, uint32_t, int64_t, uint64_t, __half, __nv_bfloat16, "
                  "__nv_fp8_e4m3, __nv_fp8_e5m2, int8_t, uint8_t, int16_t, uint16_t");
    Arg& arg = NextArg(name, TypeCode<T>(), role, count);
    const void* pointer = data;
    std::memcpy(&arg.slot, &pointer, sizeof pointer);
    return *this;
  }
  Arg& NextArg(const char* name, const char* type_code, Role role, std::size_t count) {
    Arg& arg = args_[count_ < kMaxArgs ? count_ : kMaxArgs - 1];
    arg = Arg{name, type_code, role, count, 0};
    pointers_[count_ < kMaxArgs ? count_ : kMaxArgs - 1] = &arg.slot;
    ++count_;
    return arg;
  }

  Launch(const char* name, const void* kernel, dim3 grid, dim3 block, std::size_t shared_bytes, cudaStream_t stream,
         int);
  cudaError_t CaptureAndRun();
  std::string CaptureInto(bool* launched, cudaError_t* status);
  std::string AddSize(bool* launched, cudaError_t* status);
  void CaptureBuffers(capture::CaptureFolder& folder, bool drop_zero_inputs, std::vector<capture::CapturedArg>* args,
                      bool* launched, cudaError_t* status);

  const char* name_;
  const void* kernel_;
  dim3 grid_, block_;
  std::size_t shared_bytes_;
  cudaStream_t stream_;
  bool capturing_;
  int count_ = 0;
  Arg args_[kMaxArgs];
  void* pointers_[kMaxArgs];
  std::unique_ptr<capture::CapturedLaunch> record_;  // only while capturing
};

}  // namespace tuner
