// Reading a results file that may be gzipped: Kernel Tuner caches and T4 files are published both as
// plain JSON and as .json.gz. The gzip magic bytes decide, not the file's name.
#pragma once

#include <cstddef>
#include <string>

namespace tuner {

// True when `bytes` start with gzip's magic bytes (1f 8b).
bool IsGzip(const std::string& bytes);

// The gzip data `compressed` inflated (every member of a multi-member file), at most `max_bytes`.
// Throws UsageError naming `what` when the data is corrupt, truncated or inflates past the bound.
std::string Gunzip(const std::string& compressed, std::size_t max_bytes, const std::string& what);

// The file's text: inflated when it is gzipped. Throws UsageError naming the file.
std::string ReadMaybeGzipped(const std::string& path, std::size_t max_bytes);

}  // namespace tuner
