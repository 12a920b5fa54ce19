#include "common/content_hash.h"

#include <cstdio>

namespace tuner {

ContentHash& ContentHash::Add(std::string_view bytes) {
  for (unsigned char c : bytes) {
    state_ ^= c;
    state_ *= 1099511628211ULL;
  }
  // A separator, so ("ab", "c") and ("a", "bc") differ.
  state_ ^= 0xff;
  state_ *= 1099511628211ULL;
  return *this;
}

std::string ContentHash::Hex() const {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", state_);
  return text;
}

}  // namespace tuner
