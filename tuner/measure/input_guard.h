// The device data of a sweep that no candidate may change: its inputs as they were filled, and the
// reference's outputs. A candidate that writes an input (or, out of bounds, the reference) would
// make every later candidate compare different data (a correct one fail, a wrong one pass), so
// after each checked launch the worker compares every guarded buffer's checksum with the one taken
// when it was written, writes a changed one again and names it. The checksum and the refill are
// passed in: the worker's run on the GPU, the tests' on the host.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tuner {

class InputGuard {
 public:
  using ChecksumFn = std::function<std::uint64_t(const void* data, std::size_t bytes)>;
  using RefillFn = std::function<void()>;

  explicit InputGuard(ChecksumFn checksum) : checksum_(std::move(checksum)) {}

  // Takes the buffer's checksum now; `refill` writes the same contents again. `what` names it in
  // messages: "input 'in'".
  void Add(const std::string& what, const void* data, std::size_t bytes, RefillFn refill);

  // "" when every buffer is unchanged. Otherwise refills each changed one and returns one line
  // naming them with their checksums, e.g. "overwrote input 'in' (checksum 0x… instead of 0x…)".
  // Throws std::runtime_error when a refill does not give the original checksum back.
  std::string RestoreChanged();

  // Takes the checksum of the guarded buffer at `data` again, after its contents were replaced on
  // purpose (the reference outputs of another group of candidates).
  void Rebase(const void* data);

 private:
  struct Input {
    std::string what;
    const void* data;
    std::size_t bytes;
    RefillFn refill;
    std::uint64_t checksum;
  };
  ChecksumFn checksum_;
  std::vector<Input> inputs_;
};

}  // namespace tuner
