// The description a capture writes (capture/capture_description.*).
#include "capture_description.h"

#include <gtest/gtest.h>

namespace tuner::capture {
namespace {

CapturedLaunch HistogramLaunch() {
  CapturedLaunch l;
  l.name = "hist";
  l.kernel = "hist";
  l.source = "hist.cu";
  l.sizes = {{"N", 1000}};
  l.params = {{"BLOCK", 256, {128, 512}}};
  l.grid = {"cdiv(N, BLOCK)"};
  l.block = {"BLOCK"};
  l.geometry_from_application = true;
  l.args = {{"bins", "<u4", ArgRole::kInOut, 16, "", true},
            {"data", "<u4", ArgRole::kIn, 1000, "", false},
            {"n", "<i4", ArgRole::kScalar, 1, "1000", false}};
  l.provenance = "from ./app (pid 1) on a GPU, 2026-01-01";
  return l;
}

bool Has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(CaptureDescription, DescribesSizesParametersArgumentsAndTheCheck) {
  const std::string toml = DescriptionToml(HistogramLaunch());
  EXPECT_TRUE(Has(toml, "name = \"hist\"\n")) << toml;
  EXPECT_TRUE(Has(toml, "[[size]]\nname = \"N\"\ndefault = 1000\n")) << toml;
  EXPECT_TRUE(Has(toml, "values = [256, 128, 512]  # the application launched with 256"))
      << toml;  // its own value first
  EXPECT_TRUE(Has(toml, "grid = [\"cdiv(N, BLOCK)\"]\nblock = [\"BLOCK\"]")) << toml;
  EXPECT_TRUE(Has(toml, "name = \"data\"\ntype = \"uint\"\nlength = \"1000\"\ninit = \"file:data/data.npy\"")) << toml;
  EXPECT_TRUE(Has(toml, "name = \"bins\"\ntype = \"uint\"\nlength = \"16\"\noutput = true\ninit = \"zero\"")) << toml;
  EXPECT_TRUE(Has(toml, "name = \"n\"\ntype = \"int\"\nvalue = \"1000\"")) << toml;
  EXPECT_TRUE(Has(toml, "expected = { bins = \"expected/bins.npy\" }")) << toml;
  EXPECT_TRUE(Has(toml, "atol = 0\nrtol = 0")) << toml;  // integer outputs are exact
  EXPECT_TRUE(Has(toml, "bytes = \"4128\"")) << toml;    // 4000 read + 16 * 4 read and written
  EXPECT_FALSE(Has(toml, "PARAMETERS:")) << toml;
}

TEST(CaptureDescription, AnInOutBufferWithContentsIsAnInputFileToo) {
  CapturedLaunch l = HistogramLaunch();
  l.args[0].initially_zero = false;
  EXPECT_TRUE(Has(DescriptionToml(l), "output = true\ninit = \"file:data/bins.npy\""));
}

TEST(CaptureDescription, WhatTheApplicationLeftOpenIsMarked) {
  CapturedLaunch l = HistogramLaunch();
  l.params.clear();
  l.geometry_from_application = false;
  l.args.push_back({"out", "<f4", ArgRole::kOut, 8, "", false});
  const std::string toml = DescriptionToml(l);
  EXPECT_TRUE(Has(toml, "# PARAMETERS: none were declared")) << toml;
  EXPECT_TRUE(Has(toml, "# TOLERANCE: floating-point outputs")) << toml;
  EXPECT_TRUE(Has(toml, "expected = { bins = \"expected/bins.npy\", out = \"expected/out.npy\" }")) << toml;
  l.params = {{"ITEMS", 4, {}}};
  const std::string one_value = DescriptionToml(l);
  EXPECT_TRUE(Has(one_value, "# PARAMETER ITEMS: only the application's value was declared")) << one_value;
  EXPECT_TRUE(Has(one_value, "# LAUNCH: the application gave no expressions")) << one_value;
}

// A bfloat16 output gets tuner's default tolerance for its type, not fp32's 1e-5; 2-byte elements
// count 2 bytes of work each.
TEST(CaptureDescription, ANarrowFloatOutputLeavesRtolToTheTypesDefault) {
  CapturedLaunch l = HistogramLaunch();
  l.args = {{"out", "bfloat16", ArgRole::kOut, 8, "", false}, {"in", "<f2", ArgRole::kIn, 8, "", false}};
  const std::string toml = DescriptionToml(l);
  EXPECT_TRUE(Has(toml, "name = \"out\"\ntype = \"bfloat16\"")) << toml;
  EXPECT_TRUE(Has(toml, "name = \"in\"\ntype = \"half\"")) << toml;
  EXPECT_TRUE(Has(toml, "# TOLERANCE: half-precision or fp8 outputs")) << toml;
  EXPECT_TRUE(Has(toml, "atol = 0.0\n")) << toml;
  EXPECT_FALSE(Has(toml, "rtol =")) << toml;
  EXPECT_TRUE(Has(toml, "bytes = \"32\"")) << toml;
}

TEST(CaptureDescription, TypesMapToTheTunersNames) {
  EXPECT_EQ(TunerType("<f8"), "double");
  EXPECT_EQ(TunerType("<u8"), "uint64");
  EXPECT_EQ(TunerType("<f2"), "half");
  EXPECT_EQ(TunerType("bfloat16"), "bfloat16");
  EXPECT_EQ(TunerType("float8_e4m3fn"), "fp8_e4m3");
  EXPECT_EQ(TunerType("float8_e5m2"), "fp8_e5m2");
  EXPECT_EQ(TunerType("|i1"), "int8");
  EXPECT_EQ(TunerType("|u1"), "uint8");
  EXPECT_EQ(TunerType("<i2"), "int16");
  EXPECT_EQ(TunerType("<u2"), "uint16");
  EXPECT_THROW(TunerType("<c8"), std::invalid_argument);
}

}  // namespace
}  // namespace tuner::capture
