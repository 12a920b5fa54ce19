// The expressions a capture of several sizes writes for values that change with the size.
#include "size_expressions.h"

#include <gtest/gtest.h>

namespace tuner::capture {
namespace {

const std::vector<SizeValues> kSizes = {
    {{"N", 1024}, {"BINS", 256}}, {{"N", 65536}, {"BINS", 256}}, {{"N", 4096}, {"BINS", 64}}};

TEST(ProductOfSizes, TheFewestVariablesWithoutAFactorFirst) {
  EXPECT_EQ(ProductOfSizes(kSizes, {1024, 65536, 4096}), "N");
  EXPECT_EQ(ProductOfSizes(kSizes, {256, 256, 64}), "BINS");
  EXPECT_EQ(ProductOfSizes(kSizes, {1024 * 256, 65536 * 256, 4096 * 64}), "N * BINS");
  EXPECT_EQ(ProductOfSizes(kSizes, {4096, 65536 * 4, 16384}), "4 * N");
  EXPECT_EQ(ProductOfSizes(kSizes, {7, 7, 7}), "7");
  EXPECT_EQ(ProductOfSizes(kSizes, {0, 0, 0}), "0");
}

TEST(ProductOfSizes, AVariableThatNeverChangesIsPreferredToTheConstantItEquals) {
  const std::vector<SizeValues> sizes = {{{"N", 1024}, {"BINS", 256}}, {{"N", 4096}, {"BINS", 256}}};
  EXPECT_EQ(ProductOfSizes(sizes, {256, 256}), "BINS");
}

TEST(ProductOfSizes, NothingFitsOrNothingToFit) {
  EXPECT_EQ(ProductOfSizes(kSizes, {1025, 65537, 4097}), std::nullopt);  // N + 1
  EXPECT_EQ(ProductOfSizes(kSizes, {1, 2}), std::nullopt);               // a value per size
  EXPECT_EQ(ProductOfSizes({}, {}), std::nullopt);
  EXPECT_EQ(ProductOfSizes({{}, {}}, {3, 3}), "3");  // no size variables: constants only
  EXPECT_EQ(ProductOfSizes({{}, {}}, {3, 4}), std::nullopt);
}

}  // namespace
}  // namespace tuner::capture
