// The .npy reader and writer (capture/npy.*): round trips, and every bad file named clearly.
#include "npy.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace tuner::npy {
namespace {

namespace fs = std::filesystem;

class NpyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("npy-test-" + std::to_string(getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  // A file with exactly these header text and data bytes (the header padded like numpy's).
  std::string Raw(const std::string& name, const std::string& dict, const std::string& data, int major = 1,
                  bool pad = true) const {
    std::string header = dict;
    const std::size_t preamble = major == 1 ? 10 : 12;
    if (pad) {
      header.append((64 - (preamble + header.size() + 1) % 64) % 64, ' ');
      header += '\n';
    }
    std::string bytes = std::string("\x93NUMPY", 6) + static_cast<char>(major) + '\0';
    const std::uint32_t n = static_cast<std::uint32_t>(header.size());
    for (std::size_t i = 0; i < preamble - 8; ++i) bytes += static_cast<char>((n >> (8 * i)) & 0xFF);
    std::ofstream(Path(name), std::ios::binary) << bytes << header << data;
    return Path(name);
  }

  static std::string Floats(std::size_t count) { return std::string(count * 4, '\0'); }

  // The message of the NpyError that `fn` throws, or "" when it throws none.
  template <typename Fn>
  static std::string ErrorOf(Fn fn) {
    try {
      fn();
    } catch (const NpyError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(NpyTest, WrittenFileReadsBackWithItsHeaderAndData) {
  const std::vector<float> values = {1.5f, -2.0f, 3.25f};
  WriteFile(Path("a.npy"), "<f4", values.data(), values.size());
  const Header header = ReadHeader(Path("a.npy"));
  EXPECT_EQ(header.descr, "<f4");
  EXPECT_FALSE(header.fortran_order);
  EXPECT_EQ(header.shape, std::vector<std::uint64_t>{3});
  EXPECT_EQ(header.data_offset % 64, 0u);  // numpy aligns the data
  const std::string data = ReadAll(Path("a.npy"), header);
  ASSERT_EQ(data.size(), 12u);
  EXPECT_EQ(std::memcmp(data.data(), values.data(), 12), 0);
  EXPECT_NO_THROW(CheckMatches(header, Path("a.npy"), "arg 'x'", "<f4", 3));
}

TEST_F(NpyTest, ReadsVersionTwoAndMultiDimensionalShapes) {
  const std::string path =
      Raw("v2.npy", "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }", std::string(24, '\1'), 2);
  const Header header = ReadHeader(path);
  EXPECT_EQ(header.Count(), 6u);
  EXPECT_EQ(header.ShapeText(), "(2, 3)");
  EXPECT_NO_THROW(CheckMatches(header, path, "arg 'x'", "<i4", 6));  // a C-order array of the right element count
}

// Files written by NumPy 1.24 itself:
//   np.save('numpy_float32_2x3.npy', np.arange(6, dtype='<f4').reshape(2, 3) * 0.5)
//   np.lib.format.write_array(f, np.array([1, 2**40, 3], dtype='<u8'), version=(2, 0))
TEST_F(NpyTest, ReadsFilesWrittenByNumpy) {
  const std::string matrix = std::string(TUNER_FIXTURES_DIR) + "/numpy_float32_2x3.npy";
  const Header header = ReadHeader(matrix);
  EXPECT_EQ(header.ShapeText(), "(2, 3)");
  const std::string floats = ReadAll(matrix, header);
  const float expected[] = {0, 0.5f, 1, 1.5f, 2, 2.5f};
  EXPECT_EQ(std::memcmp(floats.data(), expected, sizeof expected), 0);
  const std::string v2 = std::string(TUNER_FIXTURES_DIR) + "/numpy_uint64_v2.npy";
  const std::string words = ReadAll(v2, ReadHeader(v2));
  const std::uint64_t expected_words[] = {1, 1ULL << 40, 3};
  EXPECT_EQ(std::memcmp(words.data(), expected_words, sizeof expected_words), 0);
}

TEST_F(NpyTest, DataIsReadInChunksInOrder) {
  std::vector<std::uint32_t> values(1000);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<std::uint32_t>(i * 7);
  WriteFile(Path("c.npy"), "<u4", values.data(), values.size());
  std::string joined;
  int chunks = 0;
  ReadData(
      Path("c.npy"), ReadHeader(Path("c.npy")),
      [&](const char* bytes, std::size_t size) {
        joined.append(bytes, size);
        ++chunks;
      },
      1000);
  EXPECT_EQ(chunks, 4);
  EXPECT_EQ(std::memcmp(joined.data(), values.data(), joined.size()), 0);
}

TEST_F(NpyTest, WrongDtypeNamesFileFieldAndBothTypes) {
  WriteFile(Path("i.npy"), "<i4", std::vector<std::int32_t>(4).data(), 4);
  const std::string message =
      ErrorOf([&] { CheckMatches(ReadHeader(Path("i.npy")), Path("i.npy"), "arg 'in' init", "<f4", 4); });
  EXPECT_NE(message.find(Path("i.npy")), std::string::npos) << message;
  EXPECT_NE(message.find("arg 'in' init"), std::string::npos) << message;
  EXPECT_NE(message.find("int32 ('<i4')"), std::string::npos) << message;
  EXPECT_NE(message.find("float32 ('<f4')"), std::string::npos) << message;
}

// half and the small integers have NumPy codes; bfloat16 and fp8 are ml_dtypes' types, read under
// the name str(dtype) gives or as the raw bytes np.save writes ('<V2', '|V1'); other ml_dtypes
// formats are refused by name.
TEST_F(NpyTest, NarrowTypesAreReadUnderNumpysAndMlDtypesNames) {
  const std::vector<std::uint16_t> halves = {0x3C00, 0xC000};
  WriteFile(Path("h.npy"), "<f2", halves.data(), 2);
  EXPECT_EQ(ReadHeader(Path("h.npy")).ItemBytes(), 2u);
  EXPECT_NO_THROW(CheckMatches(ReadHeader(Path("h.npy")), Path("h.npy"), "arg 'h'", "<f2", 2));
  WriteFile(Path("i8.npy"), "|i1", "\x01\x02\x03", 3);
  EXPECT_EQ(ReadAll(Path("i8.npy"), ReadHeader(Path("i8.npy"))), "\x01\x02\x03");
  const std::vector<std::string> bf16 = {"bfloat16", "<V2"};
  WriteFile(Path("b.npy"), "bfloat16", halves.data(), 2);
  EXPECT_EQ(ReadHeader(Path("b.npy")).ItemBytes(), 2u);
  EXPECT_NO_THROW(CheckMatches(ReadHeader(Path("b.npy")), Path("b.npy"), "arg 'b'", bf16, 2));
  const std::string saved = Raw("v.npy", "{'descr': '|V2', 'fortran_order': False, 'shape': (2,), }", "abcd");
  EXPECT_NO_THROW(CheckMatches(ReadHeader(saved), saved, "arg 'b'", bf16, 2));
  EXPECT_EQ(ErrorOf([&] { CheckMatches(ReadHeader(saved), saved, "arg 'h'", "<f2", 2); }),
            saved + ": arg 'h': dtype is raw bytes ('|V2'), expected float16 ('<f2')");
  EXPECT_EQ(ErrorOf([&] { CheckMatches(ReadHeader(Path("h.npy")), Path("h.npy"), "arg 'b'", bf16, 2); }),
            Path("h.npy") + ": arg 'b': dtype is float16 ('<f2'), expected bfloat16 (ml_dtypes) or raw bytes ('<V2')");
  const std::string fnuz =
      Raw("fnuz.npy", "{'descr': 'float8_e4m3fnuz', 'fortran_order': False, 'shape': (2,), }", "ab");
  const std::string refused = ErrorOf([&] { ReadHeader(fnuz); });
  EXPECT_NE(refused.find("descr 'float8_e4m3fnuz' is not a type tuner reads"), std::string::npos) << refused;
  EXPECT_EQ(ItemBytesOf("float8_e5m2"), 1u);
  EXPECT_EQ(ItemBytesOf("<u2"), 2u);
  EXPECT_EQ(ItemBytesOf("float8_e4m3fnuz"), 0u);
}

TEST_F(NpyTest, WrongLengthNamesShapeAndBothCounts) {
  WriteFile(Path("l.npy"), "<f4", std::vector<float>(5).data(), 5);
  const std::string message =
      ErrorOf([&] { CheckMatches(ReadHeader(Path("l.npy")), Path("l.npy"), "arg 'in'", "<f4", 6); });
  EXPECT_NE(message.find("shape (5,) holds 5 element(s), expected 6"), std::string::npos) << message;
}

TEST_F(NpyTest, BigEndianIsRefusedWithTheByteOrderNamed) {
  const std::string path = Raw("be.npy", "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", Floats(2));
  const std::string message = ErrorOf([&] { CheckMatches(ReadHeader(path), path, "arg 'in'", "<f4", 2); });
  EXPECT_NE(message.find("big-endian (float32 ('>f4'))"), std::string::npos) << message;
  EXPECT_NE(message.find("little-endian float32 ('<f4')"), std::string::npos) << message;
}

TEST_F(NpyTest, FortranOrderIsRefusedForMatricesOnly) {
  const std::string matrix = Raw("f.npy", "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", Floats(6));
  EXPECT_NE(ErrorOf([&] { CheckMatches(ReadHeader(matrix), matrix, "arg 'in'", "<f4", 6); }).find("Fortran order"),
            std::string::npos);
  const std::string vector = Raw("f1.npy", "{'descr': '<f4', 'fortran_order': True, 'shape': (6,), }", Floats(6));
  EXPECT_EQ(ErrorOf([&] { CheckMatches(ReadHeader(vector), vector, "arg 'in'", "<f4", 6); }),
            "");  // same bytes either way
}

TEST_F(NpyTest, TruncatedDataSaysHowMuchIsMissing) {
  const std::string path = Raw("t.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (10,), }", Floats(7));
  const std::string message = ErrorOf([&] { ReadHeader(path); });
  EXPECT_NE(message.find(path + ": truncated"), std::string::npos) << message;
  EXPECT_NE(message.find("needs 40 bytes of data, the file holds 28"), std::string::npos) << message;
}

TEST_F(NpyTest, BytesAfterTheDataAreRefused) {
  const std::string path = Raw("x.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", Floats(3));
  EXPECT_NE(ErrorOf([&] { ReadHeader(path); }).find("4 byte(s) after the data"), std::string::npos);
}

TEST_F(NpyTest, TruncatedHeaderIsRefused) {
  const std::string path = Raw("h.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", "");
  fs::resize_file(path, 30);
  EXPECT_NE(ErrorOf([&] { ReadHeader(path); }).find("truncated in its header"), std::string::npos);
}

TEST_F(NpyTest, MissingFileIsNamed) {
  const std::string message = ErrorOf([&] { ReadHeader(Path("none.npy")); });
  EXPECT_NE(message.find(Path("none.npy") + ": cannot read the file"), std::string::npos) << message;
}

TEST_F(NpyTest, BadMagicAndVersionAreRefused) {
  std::ofstream(Path("text.npy")) << "hello, this is not numpy at all";
  EXPECT_NE(ErrorOf([&] { ReadHeader(Path("text.npy")); }).find("not a .npy file"), std::string::npos);
  const std::string v9 = Raw("v9.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", Floats(1), 9);
  EXPECT_NE(ErrorOf([&] { ReadHeader(v9); }).find("format version 9.0"), std::string::npos);
}

TEST_F(NpyTest, MalformedHeaderDictionariesAreRefused) {
  const std::pair<const char*, const char*> cases[] = {
      {"{'descr': '<f4', 'shape': (1,), }", "key 'fortran_order' is missing"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1, }", "unknown key 'extra'"},
      {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", "structured type"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }", "tuple of non-negative integers"},
      {"{'descr': '<f4', 'fortran_order': maybe, 'shape': (1,), }", "True or False"},
      {"{'descr': 'hello', 'fortran_order': False, 'shape': (1,), }", "descr 'hello' is not a type tuner reads"},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } trailing", "unexpected text"},
  };
  for (const auto& [dict, expected] : cases) {
    const std::string path = Raw("m.npy", dict, Floats(1));
    const std::string message = ErrorOf([&] { ReadHeader(path); });
    EXPECT_NE(message.find(expected), std::string::npos) << dict << " -> " << message;
    EXPECT_EQ(message.rfind(path, 0), 0u) << message;  // every message starts with the file
  }
}

TEST_F(NpyTest, WriterNeverOverwritesAndLeavesNothingHalfWritten) {
  std::ofstream(Path("old.npy")) << "precious";
  EXPECT_NE(ErrorOf([&] { Writer(Path("old.npy"), "<f4", 1); }).find("cannot create"), std::string::npos);
  std::ifstream old(Path("old.npy"));
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(old), {}), "precious");
  {
    Writer abandoned(Path("half.npy"), "<f4", 4);
    abandoned.Write(Floats(2).data(), 8);
  }
  EXPECT_FALSE(fs::exists(Path("half.npy")));
  Writer short_writer(Path("short.npy"), "<f4", 4);
  short_writer.Write(Floats(1).data(), 4);
  EXPECT_NE(ErrorOf([&] { short_writer.Close(); }).find("wrote 4 bytes of data, the header promises 16"),
            std::string::npos);
}

}  // namespace
}  // namespace tuner::npy
