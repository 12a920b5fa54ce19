// Reading a results file that may be gzipped: Kernel Tuner caches and T4 files are published both as
// plain JSON and as .json.gz. The gzip magic bytes decide, not the file's name. The text comes in
// pieces, inflated as it is read, so a small file that inflates to gigabytes is never held whole:
// its reader stops it at common/input_limits' kInputBytes.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace tuner {

// A text in pieces: sets *chunk to the next piece and returns true, or returns false at the end.
using TextChunks = std::function<bool(std::string* chunk)>;

// True when `bytes` start with gzip's magic bytes (1f 8b).
bool IsGzip(const std::string& bytes);

// The gzip data `compressed` inflated piece by piece (every member of a multi-member file). Throws
// UsageError naming `what` when the data is corrupt or truncated.
TextChunks InflatedChunks(std::string compressed, const std::string& what);

// The gzip data inflated whole, at most `max_bytes`: UsageError naming `what` past them.
std::string Gunzip(const std::string& compressed, std::size_t max_bytes, const std::string& what);

// The file's text in pieces: inflated when it is gzipped. Throws UsageError naming the file when it
// cannot be read or is larger than kInputBytes.
TextChunks MaybeGzippedChunks(const std::string& path);

// `text` as one piece.
TextChunks WholeText(std::string text);

}  // namespace tuner
