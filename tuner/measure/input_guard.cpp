#include "measure/input_guard.h"

#include <cstdio>
#include <stdexcept>

namespace tuner {

namespace {

std::string Hex(std::uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

}  // namespace

void InputGuard::Add(const std::string& what, const void* data, std::size_t bytes, RefillFn refill) {
  inputs_.push_back({what, data, bytes, std::move(refill), checksum_(data, bytes)});
}

std::string InputGuard::RestoreChanged() {
  std::string changed;
  for (const Input& input : inputs_) {
    const std::uint64_t now = checksum_(input.data, input.bytes);
    if (now == input.checksum) continue;
    changed += (changed.empty() ? "overwrote " : "; ") + input.what + " (checksum " + Hex(now) + " instead of " +
               Hex(input.checksum) + ")";
    input.refill();
    if (checksum_(input.data, input.bytes) != input.checksum)
      throw std::runtime_error(input.what + " was overwritten and writing it again did not restore it");
  }
  return changed;
}

void InputGuard::Rebase(const void* data) {
  for (Input& input : inputs_)
    if (input.data == data) input.checksum = checksum_(input.data, input.bytes);
}

}  // namespace tuner
