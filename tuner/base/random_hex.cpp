#include "base/random_hex.h"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace tuner {

namespace {

std::vector<unsigned char> RandomBytes(std::size_t bytes) {
  std::vector<unsigned char> random(bytes);
  for (std::size_t filled = 0; filled < bytes;) {
    const ssize_t got = getrandom(random.data() + filled, bytes - filled, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0)
      throw std::runtime_error(std::string("cannot read random bytes from the kernel: ") + std::strerror(errno));
    filled += static_cast<std::size_t>(got);
  }
  return random;
}

}  // namespace

std::uint64_t RandomSeed() {
  std::uint64_t seed = 0;
  for (const unsigned char byte : RandomBytes(sizeof seed)) seed = seed << 8 | byte;
  return seed;
}

std::string RandomHex(std::size_t bytes) {
  const std::vector<unsigned char> random = RandomBytes(bytes);
  static const char kDigits[] = "0123456789abcdef";
  std::string text;
  for (const unsigned char byte : random) {
    text += kDigits[byte >> 4];
    text += kDigits[byte & 15];
  }
  return text;
}

}  // namespace tuner
