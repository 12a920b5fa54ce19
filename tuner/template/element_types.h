// The element types of kernel buffers and scalars, in one table: the name a description writes, the
// C++ type a kernel declares, the size, the .npy dtypes that hold it, the epsilon that default
// tolerances derive from, and the range a random fill stays in. Every switch over types reads it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace tuner {

enum class ScalarType {
  kFloat,
  kDouble,
  kInt,
  kUint,
  kInt64,
  kUint64,
  kHalf,
  kBfloat16,
  kFp8E4m3,
  kFp8E5m2,
  kInt8,
  kUint8,
  kInt16,
  kUint16,
};

struct ElementType {
  ScalarType type;
  const char* name;       // in a description: type = "bfloat16"
  const char* cuda_name;  // in a kernel: __nv_bfloat16
  std::size_t bytes;
  bool floating;
  double epsilon;      // 2^-mantissa bits; 0 for integers (compared exactly)
  double lowest;       // the smallest finite value (integers: exactly)
  double highest;      // the largest finite value
  const char* descr;   // the .npy dtype tuner writes and names: "<f2", "bfloat16"
  const char* others;  // further dtypes accepted on reading, space-separated: "<V2" (np.save of ml_dtypes)
};

const std::vector<ElementType>& ElementTypes();  // in the order of ScalarType
const ElementType& Element(ScalarType type);
std::optional<ScalarType> ElementTypeNamed(const std::string& name);
std::string ElementTypeNames();  // "float, double, ..." for messages

std::size_t SizeOf(ScalarType type);
std::string ToString(ScalarType type);
bool IsFloatingPoint(ScalarType type);
std::string NpyDescr(ScalarType type);                        // the .npy type code tuner names: "<f4", "<u4", ...
std::vector<std::string> AcceptedNpyDescrs(ScalarType type);  // NpyDescr and the others a file may have

// Element `i` of a buffer of `type`, as a double (exact for every type but 64-bit integers beyond 2^53).
double LoadElement(const void* data, ScalarType type, std::size_t i);
// Stores `value` into element `i`: floats rounded to nearest even (through float for the narrow
// ones, as the GPU fills do; fp8 saturates to its largest finite value), integers through long long
// (a negative value wraps in an unsigned type).
void StoreElement(void* data, ScalarType type, std::size_t i, double value);

}  // namespace tuner
