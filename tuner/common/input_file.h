// Reading an input file that a user or someone else's bundle names: only a regular file, and only up
// to a bound, so that /dev/zero, a FIFO or a huge file ends in a message rather than a hang or an
// exhausted memory.
#pragma once

#include <cstddef>
#include <string>

namespace tuner {

// The whole file. Throws UsageError naming `path` (as `what`, e.g. "the T1 file") when it is not a
// regular file (a device, a FIFO, a folder), is larger than `max_bytes`, or cannot be read; opening
// never blocks.
std::string ReadInputFile(const std::string& path, std::size_t max_bytes, const std::string& what);

}  // namespace tuner
