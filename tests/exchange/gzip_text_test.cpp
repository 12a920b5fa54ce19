#include "exchange/gzip_text.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "base/errors.h"
#include "db_test_util.h"
#include "gzip_test_util.h"
#include "limit_override.h"

namespace tuner {
namespace {

using testing::Gzip;

TEST(GzipText, InflatesWhatZlibDeflated) {
  const std::string text = std::string(100000, 'x') + "{\"cache\": {}}";
  const std::string packed = Gzip(text);
  EXPECT_TRUE(IsGzip(packed));
  EXPECT_FALSE(IsGzip(text));
  EXPECT_LT(packed.size(), text.size() / 10);
  EXPECT_EQ(Gunzip(packed, 1 << 20, "x"), text);
}

TEST(GzipText, ReadsBothMembersOfAConcatenatedFile) {
  EXPECT_EQ(Gunzip(Gzip("first ") + Gzip("second"), 1 << 20, "x"), "first second");
}

TEST(GzipText, RefusesTruncatedCorruptAndOversizedData) {
  const std::string packed = Gzip(std::string(5000, 'a') + "end");
  try {
    Gunzip(packed.substr(0, packed.size() / 2), 1 << 20, "the file 'a.gz'");
    FAIL() << "a truncated file was read";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("the file 'a.gz': the gzip data is truncated"), std::string::npos) << e.what();
  }
  std::string corrupt = packed;
  corrupt[12] = static_cast<char>(corrupt[12] ^ 0x5a);
  corrupt[13] = static_cast<char>(corrupt[13] ^ 0xa5);
  EXPECT_THROW(Gunzip(corrupt, 1 << 20, "x"), UsageError);
  EXPECT_THROW(Gunzip(packed, 1000, "x"), UsageError);  // inflates to 5003 bytes
}

std::string Whole(const TextChunks& chunks, std::size_t* largest_piece = nullptr) {
  std::string text;
  for (std::string chunk; chunks(&chunk);) {
    text += chunk;
    if (largest_piece) *largest_piece = std::max(*largest_piece, chunk.size());
  }
  return text;
}

TEST(GzipText, ReadsAFileByItsMagicBytesNotItsName) {
  db::testing::TempDir dir;
  std::ofstream(dir.File("plain.json.gz")) << "{}";
  std::ofstream(dir.File("packed.json"), std::ios::binary) << Gzip("{\"a\": 1}");
  EXPECT_EQ(Whole(MaybeGzippedChunks(dir.File("plain.json.gz"))), "{}");
  EXPECT_EQ(Whole(MaybeGzippedChunks(dir.File("packed.json"))), "{\"a\": 1}");
}

TEST(GzipText, InflatesInPiecesNeverWhole) {
  const std::string text(3 << 20, ' ');
  std::size_t largest_piece = 0;
  EXPECT_EQ(Whole(InflatedChunks(Gzip(text), "x"), &largest_piece), text);
  EXPECT_LE(largest_piece, std::size_t{1} << 16);
}

TEST(GzipText, AFileLargerThanTheInputLimitIsRefusedNamingIt) {
  db::testing::TempDir dir;
  std::ofstream(dir.File("big.json")) << std::string(2000, ' ');
  const testing::LimitOverride bytes(InputLimit::kInputBytes, "1000");
  try {
    MaybeGzippedChunks(dir.File("big.json"));
    FAIL() << "a file past the limit was read";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("TUNER_LIMIT_INPUT_BYTES"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tuner
