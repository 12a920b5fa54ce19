#include "template/element_types.h"

#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "template/narrow_float.h"

namespace tuner {

namespace {

constexpr double kInt64Limit = 9223372036854775808.0;  // 2^63

}  // namespace

const std::vector<ElementType>& ElementTypes() {
  // ml_dtypes' names (bfloat16, float8_e4m3fn, float8_e5m2) are what str(dtype) gives and what a
  // header written with it holds; np.save (ml_dtypes 0.6) writes bfloat16 as '<V2', float8_e4m3fn as
  // '<V1' and float8_e5m2 as '<f1' (tests/fixtures/ml_dtypes_*.npy).
  static const std::vector<ElementType> kTypes = {
      {ScalarType::kFloat, "float", "float", 4, true, 0x1p-23, -3.4028234663852886e38, 3.4028234663852886e38, "<f4",
       ""},
      {ScalarType::kDouble, "double", "double", 8, true, 0x1p-52, -1.7976931348623157e308, 1.7976931348623157e308,
       "<f8", ""},
      {ScalarType::kInt, "int", "int", 4, false, 0, -2147483648.0, 2147483647.0, "<i4", ""},
      {ScalarType::kUint, "uint", "unsigned int", 4, false, 0, 0, 4294967295.0, "<u4", ""},
      {ScalarType::kInt64, "int64", "long long", 8, false, 0, -kInt64Limit, kInt64Limit, "<i8", ""},
      {ScalarType::kUint64, "uint64", "unsigned long long", 8, false, 0, 0, 2 * kInt64Limit, "<u8", ""},
      {ScalarType::kHalf, "half", "__half", 2, true, 0x1p-10, -65504, 65504, "<f2", ""},
      {ScalarType::kBfloat16, "bfloat16", "__nv_bfloat16", 2, true, 0x1p-7, -3.3895313892515355e38,
       3.3895313892515355e38, "bfloat16", "<V2"},
      {ScalarType::kFp8E4m3, "fp8_e4m3", "__nv_fp8_e4m3", 1, true, 0x1p-3, -448, 448, "float8_e4m3fn", "<V1"},
      {ScalarType::kFp8E5m2, "fp8_e5m2", "__nv_fp8_e5m2", 1, true, 0x1p-2, -57344, 57344, "float8_e5m2", "<f1 <V1"},
      {ScalarType::kInt8, "int8", "signed char", 1, false, 0, -128, 127, "|i1", ""},
      {ScalarType::kUint8, "uint8", "unsigned char", 1, false, 0, 0, 255, "|u1", ""},
      {ScalarType::kInt16, "int16", "short", 2, false, 0, -32768, 32767, "<i2", ""},
      {ScalarType::kUint16, "uint16", "unsigned short", 2, false, 0, 0, 65535, "<u2", ""},
  };
  return kTypes;
}

const ElementType& Element(ScalarType type) {
  const auto index = static_cast<std::size_t>(type);
  if (index >= ElementTypes().size()) throw std::logic_error("unknown element type");
  return ElementTypes()[index];
}

std::optional<ScalarType> ElementTypeNamed(const std::string& name) {
  for (const ElementType& e : ElementTypes())
    if (name == e.name) return e.type;
  return std::nullopt;
}

std::string ElementTypeNames() {
  std::string names;
  for (const ElementType& e : ElementTypes()) names += (names.empty() ? "" : ", ") + std::string(e.name);
  return names;
}

std::size_t SizeOf(ScalarType type) { return Element(type).bytes; }
std::string ToString(ScalarType type) { return Element(type).name; }
bool IsFloatingPoint(ScalarType type) { return Element(type).floating; }
std::string NpyDescr(ScalarType type) { return Element(type).descr; }

std::vector<std::string> AcceptedNpyDescrs(ScalarType type) {
  std::vector<std::string> descrs = {Element(type).descr};
  const std::string others = Element(type).others;
  for (std::size_t start = 0; start < others.size();) {
    const std::size_t end = std::min(others.find(' ', start), others.size());
    descrs.push_back(others.substr(start, end - start));
    start = end + 1;
  }
  return descrs;
}

namespace {

template <typename T>
T Read(const void* data, std::size_t i) {
  T value;
  std::memcpy(&value, static_cast<const char*>(data) + i * sizeof(T), sizeof(T));
  return value;
}

template <typename T>
void Write(void* data, std::size_t i, T value) {
  std::memcpy(static_cast<char*>(data) + i * sizeof(T), &value, sizeof(T));
}

template <typename T>
void WriteWhole(void* data, std::size_t i, double value) {
  Write<T>(data, i, static_cast<T>(static_cast<long long>(value)));
}

template <typename Bits>
void WriteNarrow(void* data, std::size_t i, double value, NarrowFormat format, bool saturate) {
  Write<Bits>(data, i, static_cast<Bits>(EncodeNarrow(static_cast<float>(value), format, saturate)));
}

}  // namespace

double LoadElement(const void* data, ScalarType type, std::size_t i) {
  switch (type) {
    case ScalarType::kFloat:
      return Read<float>(data, i);
    case ScalarType::kDouble:
      return Read<double>(data, i);
    case ScalarType::kInt:
      return Read<std::int32_t>(data, i);
    case ScalarType::kUint:
      return Read<std::uint32_t>(data, i);
    case ScalarType::kInt64:
      return static_cast<double>(Read<std::int64_t>(data, i));
    case ScalarType::kUint64:
      return static_cast<double>(Read<std::uint64_t>(data, i));
    case ScalarType::kHalf:
      return DecodeNarrow(Read<std::uint16_t>(data, i), kHalfFormat);
    case ScalarType::kBfloat16:
      return DecodeNarrow(Read<std::uint16_t>(data, i), kBfloat16Format);
    case ScalarType::kFp8E4m3:
      return DecodeNarrow(Read<std::uint8_t>(data, i), kE4m3Format);
    case ScalarType::kFp8E5m2:
      return DecodeNarrow(Read<std::uint8_t>(data, i), kE5m2Format);
    case ScalarType::kInt8:
      return Read<std::int8_t>(data, i);
    case ScalarType::kUint8:
      return Read<std::uint8_t>(data, i);
    case ScalarType::kInt16:
      return Read<std::int16_t>(data, i);
    case ScalarType::kUint16:
      return Read<std::uint16_t>(data, i);
  }
  throw std::logic_error("unknown element type");
}

void StoreElement(void* data, ScalarType type, std::size_t i, double value) {
  switch (type) {
    case ScalarType::kFloat:
      return Write<float>(data, i, static_cast<float>(value));
    case ScalarType::kDouble:
      return Write<double>(data, i, value);
    case ScalarType::kInt:
      return WriteWhole<std::int32_t>(data, i, value);
    case ScalarType::kUint:
      return WriteWhole<std::uint32_t>(data, i, value);
    case ScalarType::kInt64:
      return WriteWhole<std::int64_t>(data, i, value);
    case ScalarType::kUint64:
      return WriteWhole<std::uint64_t>(data, i, value);
    case ScalarType::kHalf:
      return WriteNarrow<std::uint16_t>(data, i, value, kHalfFormat, false);
    case ScalarType::kBfloat16:
      return WriteNarrow<std::uint16_t>(data, i, value, kBfloat16Format, false);
    case ScalarType::kFp8E4m3:
      return WriteNarrow<std::uint8_t>(data, i, value, kE4m3Format, true);
    case ScalarType::kFp8E5m2:
      return WriteNarrow<std::uint8_t>(data, i, value, kE5m2Format, true);
    case ScalarType::kInt8:
      return WriteWhole<std::int8_t>(data, i, value);
    case ScalarType::kUint8:
      return WriteWhole<std::uint8_t>(data, i, value);
    case ScalarType::kInt16:
      return WriteWhole<std::int16_t>(data, i, value);
    case ScalarType::kUint16:
      return WriteWhole<std::uint16_t>(data, i, value);
  }
  throw std::logic_error("unknown element type");
}

}  // namespace tuner
