// A launch's plain types: the one JSON form of a launch geometry, whose text the store keeps
// (launch_json) and the worker protocol sends, byte for byte as it always was.
#include "template/launch_types.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tuner {
namespace {

LaunchGeometry SomeGeometry() { return {{4096, 5, 6}, {32, 2, 1}, 1LL << 33}; }

// The text stored databases hold: a change here would make every stored launch differ.
TEST(LaunchTypes, AGeometrysStoredTextIsUnchangedToTheByte) {
  EXPECT_EQ(SomeGeometry().Json(), R"({"block":[32,2,1],"grid":[4096,5,6],"shared_bytes":8589934592})");
  EXPECT_EQ(LaunchGeometry{}.Json(), R"({"block":[1,1,1],"grid":[1,1,1],"shared_bytes":0})");
}

TEST(LaunchTypes, AGeometryIsReadBackFromItsStoredText) {
  const auto read = nlohmann::json::parse(SomeGeometry().Json()).get<LaunchGeometry>();
  EXPECT_EQ(read.grid, SomeGeometry().grid);
  EXPECT_EQ(read.block, SomeGeometry().block);
  EXPECT_EQ(read.shared_bytes, SomeGeometry().shared_bytes);
}

TEST(LaunchTypes, AGeometryWithoutAFieldIsRefused) {
  const auto no_shared = nlohmann::json::parse(R"({"block":[32,2,1],"grid":[4,5,6]})");
  EXPECT_THROW(no_shared.get<LaunchGeometry>(), nlohmann::json::exception);
}

}  // namespace
}  // namespace tuner
