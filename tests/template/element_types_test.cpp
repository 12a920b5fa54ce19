// The table of element types: names, sizes, .npy dtypes, and elements stored and loaded in each.
#include "template/element_types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "npy.h"

namespace tuner {
namespace {

TEST(ElementTypes, TheTableIsInTheOrderOfTheEnumAndEveryNameIsFound) {
  for (std::size_t i = 0; i < ElementTypes().size(); ++i) {
    const ElementType& e = ElementTypes()[i];
    EXPECT_EQ(static_cast<std::size_t>(e.type), i) << e.name;
    EXPECT_EQ(ElementTypeNamed(e.name), e.type);
    EXPECT_EQ(ToString(e.type), e.name);
  }
  EXPECT_FALSE(ElementTypeNamed("float16"));
  EXPECT_EQ(ElementTypeNames(),
            "float, double, int, uint, int64, uint64, half, bfloat16, fp8_e4m3, fp8_e5m2, int8, uint8, int16, uint16");
}

TEST(ElementTypes, SizesEpsilonsAndDtypes) {
  EXPECT_EQ(SizeOf(ScalarType::kHalf), 2u);
  EXPECT_EQ(SizeOf(ScalarType::kFp8E5m2), 1u);
  EXPECT_EQ(SizeOf(ScalarType::kUint16), 2u);
  EXPECT_EQ(Element(ScalarType::kHalf).epsilon, 0x1p-10);
  EXPECT_EQ(Element(ScalarType::kBfloat16).epsilon, 0x1p-7);
  EXPECT_EQ(Element(ScalarType::kFp8E4m3).epsilon, 0x1p-3);
  EXPECT_EQ(Element(ScalarType::kFp8E5m2).epsilon, 0x1p-2);
  EXPECT_EQ(Element(ScalarType::kInt8).epsilon, 0);
  EXPECT_EQ(NpyDescr(ScalarType::kHalf), "<f2");
  EXPECT_EQ(NpyDescr(ScalarType::kInt8), "|i1");
  EXPECT_EQ(NpyDescr(ScalarType::kUint16), "<u2");
  EXPECT_EQ(AcceptedNpyDescrs(ScalarType::kBfloat16), (std::vector<std::string>{"bfloat16", "<V2"}));
  EXPECT_EQ(AcceptedNpyDescrs(ScalarType::kFp8E4m3), (std::vector<std::string>{"float8_e4m3fn", "<V1"}));
  EXPECT_EQ(AcceptedNpyDescrs(ScalarType::kFp8E5m2), (std::vector<std::string>{"float8_e5m2", "<f1", "<V1"}));
  EXPECT_EQ(AcceptedNpyDescrs(ScalarType::kFloat), (std::vector<std::string>{"<f4"}));
  EXPECT_TRUE(IsFloatingPoint(ScalarType::kFp8E4m3));
  EXPECT_FALSE(IsFloatingPoint(ScalarType::kUint8));
}

TEST(ElementTypes, ValuesAreStoredInTheTypesBitsAndLoadedBack) {
  std::uint16_t half = 0, bf16 = 0;
  StoreElement(&half, ScalarType::kHalf, 0, 1.0);
  StoreElement(&bf16, ScalarType::kBfloat16, 0, 1.0);
  EXPECT_EQ(half, 0x3C00);
  EXPECT_EQ(bf16, 0x3F80);
  std::uint8_t fp8[2] = {};
  StoreElement(fp8, ScalarType::kFp8E4m3, 0, 1000.0);  // saturates, as CUDA's fills do
  StoreElement(fp8, ScalarType::kFp8E5m2, 1, -1.0);
  EXPECT_EQ(fp8[0], 0x7E);
  EXPECT_EQ(fp8[1], 0xBC);
  EXPECT_EQ(LoadElement(fp8, ScalarType::kFp8E4m3, 0), 448.0);
  EXPECT_EQ(LoadElement(fp8, ScalarType::kFp8E5m2, 1), -1.0);
  std::int8_t i8[2] = {};
  StoreElement(i8, ScalarType::kInt8, 1, -98);
  EXPECT_EQ(i8[1], -98);
  EXPECT_EQ(LoadElement(i8, ScalarType::kInt8, 1), -98.0);
  std::uint8_t u8 = 0;
  StoreElement(&u8, ScalarType::kUint8, 0, -1);  // wraps, as for the other unsigned types
  EXPECT_EQ(u8, 255);
  for (const ElementType& e : ElementTypes()) {
    std::vector<unsigned char> bytes(4 * e.bytes);
    StoreElement(bytes.data(), e.type, 3, 97);
    EXPECT_EQ(LoadElement(bytes.data(), e.type, 3), e.type == ScalarType::kFp8E4m3   ? 96
                                                    : e.type == ScalarType::kFp8E5m2 ? 96
                                                                                     : 97)
        << e.name;
    EXPECT_EQ(LoadElement(bytes.data(), e.type, 0), 0) << e.name;
  }
}

// Files NumPy 2.4 wrote with ml_dtypes 0.6, of [1, -2, 0.5, 448] (tests/fixtures): np.save's own
//   np.save(f'ml_dtypes_{name}_saved.npy', np.array(values, dtype=getattr(ml_dtypes, name)))
// (raw bytes '<V2', '<V1', or '<f1' for float8_e5m2), and a header that names the type:
//   np.lib.format.write_array_header_1_0(f, {'descr': str(a.dtype), ...}); a.tofile(f)
// and NumPy's float16. Each is accepted for its type and decodes to the values.
TEST(ElementTypes, FilesThatNumpyAndMlDtypesWroteAreReadInTheirType) {
  const std::pair<const char*, ScalarType> files[] = {{"ml_dtypes_bfloat16", ScalarType::kBfloat16},
                                                      {"ml_dtypes_float8_e4m3fn", ScalarType::kFp8E4m3},
                                                      {"ml_dtypes_float8_e5m2", ScalarType::kFp8E5m2}};
  std::vector<std::string> paths = {std::string(TUNER_FIXTURES_DIR) + "/numpy_float16.npy"};
  std::vector<ScalarType> types = {ScalarType::kHalf};
  for (const auto& [stem, type] : files)
    for (const char* how : {"_saved.npy", "_named.npy"}) {
      paths.push_back(std::string(TUNER_FIXTURES_DIR) + "/" + stem + how);
      types.push_back(type);
    }
  for (std::size_t f = 0; f < paths.size(); ++f) {
    const npy::Header header = npy::ReadHeader(paths[f]);
    EXPECT_NO_THROW(npy::CheckMatches(header, paths[f], "arg 'x'", AcceptedNpyDescrs(types[f]), 4)) << paths[f];
    const std::string data = npy::ReadAll(paths[f], header);
    for (std::size_t i = 0; i < 4; ++i)
      EXPECT_EQ(LoadElement(data.data(), types[f], i), (std::vector<double>{1, -2, 0.5, 448})[i]) << paths[f];
  }
}

}  // namespace
}  // namespace tuner
