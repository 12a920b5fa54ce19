// A stable 64-bit content hash (FNV-1a) as 16 hex digits: template versions and cache keys.
#pragma once

#include <string>
#include <string_view>

namespace tuner {

class ContentHash {
 public:
  ContentHash& Add(std::string_view bytes);
  std::string Hex() const;
  unsigned long long Value() const { return state_; }

 private:
  unsigned long long state_ = 14695981039346656037ULL;
};

}  // namespace tuner
