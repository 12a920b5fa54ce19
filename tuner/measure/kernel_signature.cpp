#include "measure/kernel_signature.h"

#include <cuda_runtime_api.h>

#include "template/element_types.h"

namespace tuner {

std::vector<std::size_t> KernelParamBytes(const void* kernel) {
  std::vector<std::size_t> bytes;
  for (std::size_t index = 0;; ++index) {
    std::size_t offset = 0, size = 0;
    if (cudaFuncGetParamInfo(kernel, index, &offset, &size) != cudaSuccess) break;
    bytes.push_back(size);
  }
  cudaGetLastError();  // the index past the last parameter is an error by design
  return bytes;
}

namespace {

std::size_t ArgBytes(const LaunchArg& arg) { return arg.buffer.empty() ? SizeOf(arg.type) : sizeof(void*); }

std::string Described(const LaunchArg& arg, std::size_t position) {
  return "argument " + std::to_string(position + 1) + " '" + arg.name + "' (" +
         (arg.buffer.empty() ? ToString(arg.type) + ", " + std::to_string(ArgBytes(arg)) + " bytes"
                             : "a buffer of " + ToString(arg.type) + ", a pointer") +
         ")";
}

}  // namespace

std::string SignatureMismatch(const std::vector<std::size_t>& param_bytes, const std::vector<LaunchArg>& args) {
  const std::string kernel = "the kernel";
  for (std::size_t i = 0; i < args.size() && i < param_bytes.size(); ++i)
    if (ArgBytes(args[i]) != param_bytes[i])
      return Described(args[i], i) + " does not fit " + kernel + ", whose parameter " + std::to_string(i + 1) + " is " +
             std::to_string(param_bytes[i]) + " bytes: give [[arg]] '" + args[i].name + "' the parameter's type";
  if (args.size() > param_bytes.size())
    return Described(args[param_bytes.size()], param_bytes.size()) + " is one more than " + kernel + " takes (" +
           std::to_string(param_bytes.size()) +
           " parameters): the [[arg]] tables list the kernel's parameters in order";
  if (args.size() < param_bytes.size())
    return kernel + " takes " + std::to_string(param_bytes.size()) + " parameters and the description gives " +
           std::to_string(args.size()) + ": add an [[arg]] for parameter " + std::to_string(args.size() + 1) + " (" +
           std::to_string(param_bytes[args.size()]) + " bytes)";
  return "";
}

}  // namespace tuner
