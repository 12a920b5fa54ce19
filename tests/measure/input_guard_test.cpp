// The worker's guard of its inputs, on host memory: a changed input is named with its checksums
// and filled again; an unchanged one is left alone.
#include "measure/input_guard.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "measure/buffer_contents.h"

namespace tuner {
namespace {

struct HostInput {
  std::vector<float> data = std::vector<float>(4096);
  unsigned long long seed;
  explicit HostInput(unsigned long long s) : seed(s) { Refill(); }
  void Refill() { FillBuffer(data.data(), ScalarType::kFloat, data.size(), BufferInit::kRandom, seed); }
  std::size_t Bytes() const { return data.size() * sizeof(float); }
};

class InputGuardTest : public ::testing::Test {
 protected:
  InputGuardTest() : guard_(Checksum) {
    guard_.Add("input 'in'", in_.data.data(), in_.Bytes(), [this] { in_.Refill(); });
    guard_.Add("input 'filter'", filter_.data.data(), filter_.Bytes(), [this] { filter_.Refill(); });
  }
  HostInput in_{1}, filter_{2};
  InputGuard guard_;
};

TEST_F(InputGuardTest, UnchangedInputsAreLeftAlone) { EXPECT_EQ(guard_.RestoreChanged(), ""); }

TEST_F(InputGuardTest, AChangedInputIsNamedAndFilledAgain) {
  const std::vector<float> original = in_.data;
  in_.data[4095] = -in_.data[4095];
  const std::string reason = guard_.RestoreChanged();
  EXPECT_EQ(reason.rfind("overwrote input 'in' (checksum 0x", 0), 0u) << reason;
  EXPECT_NE(reason.find(" instead of 0x"), std::string::npos) << reason;
  EXPECT_EQ(reason.find("filter"), std::string::npos) << reason;
  EXPECT_EQ(in_.data, original);
  EXPECT_EQ(guard_.RestoreChanged(), "");
}

TEST_F(InputGuardTest, EveryChangedInputIsNamed) {
  in_.data[0] = 0;
  filter_.data[7] = 0;
  const std::string reason = guard_.RestoreChanged();
  EXPECT_NE(reason.find("overwrote input 'in' (checksum 0x"), std::string::npos) << reason;
  EXPECT_NE(reason.find("; input 'filter' (checksum 0x"), std::string::npos) << reason;
  EXPECT_EQ(guard_.RestoreChanged(), "");
}

TEST(InputGuard, ARefillThatDoesNotRestoreIsAnError) {
  std::vector<float> data(64, 1.0f);
  InputGuard guard(Checksum);
  guard.Add("input 'in'", data.data(), data.size() * sizeof(float), [] {});
  data[3] = 2.0f;
  EXPECT_THROW(guard.RestoreChanged(), std::runtime_error);
}

}  // namespace
}  // namespace tuner
