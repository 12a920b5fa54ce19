// The inputs of a sweep kept as they were filled. A candidate that writes one of its inputs would
// make every later candidate compute from different data (a correct one fail, a wrong one pass),
// so after each checked launch the worker compares every input's checksum with the one taken when
// it was filled, fills a changed input again and names it. The checksum and the refill are passed
// in: the worker's run on the GPU, the tests' on the host.
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

  // Takes the input's checksum now, as filled; `refill` writes the same contents again.
  void Add(const std::string& name, const void* data, std::size_t bytes, RefillFn refill);

  // "" when every input is unchanged. Otherwise refills each changed input and returns one line
  // naming them with their checksums, e.g. "overwrote input 'in' (checksum 0x… instead of 0x…)".
  // Throws std::runtime_error when a refill does not give the original checksum back.
  std::string RestoreChanged();

 private:
  struct Input {
    std::string name;
    const void* data;
    std::size_t bytes;
    RefillFn refill;
    std::uint64_t checksum;
  };
  ChecksumFn checksum_;
  std::vector<Input> inputs_;
};

}  // namespace tuner
