// Random text for names that must not collide (a sweep's uid, a database being created): fresh
// bytes from the kernel on every call, since a generator kept in memory would repeat itself in
// forked children.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tuner {

// 2 * `bytes` lowercase hexadecimal digits. Not std::random_device: the static C++ runtime's
// random_device calls arc4random, which would make the tool need glibc 2.36.
std::string RandomHex(std::size_t bytes);

// A seed for a generator of jitter (back-off pauses), from the same fresh bytes.
std::uint64_t RandomSeed();

}  // namespace tuner
