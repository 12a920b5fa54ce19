#include "exchange/gzip_text.h"

#include <zlib.h>

#include "base/errors.h"
#include "common/input_file.h"
#include "common/input_limits.h"

namespace tuner {

namespace {

constexpr int kGzipWindowBits = 16 + MAX_WBITS;  // 16: expect a gzip header, not a zlib one
constexpr std::size_t kChunkBytes = 1 << 16;

// Owns the compressed bytes and a z_stream inflating them; inflateEnd in every case.
class Inflater {
 public:
  Inflater(std::string compressed, std::string what) : compressed_(std::move(compressed)), what_(std::move(what)) {
    if (inflateInit2(&stream_, kGzipWindowBits) != Z_OK) throw UsageError(what_ + ": zlib could not start inflating");
    stream_.next_in = reinterpret_cast<Bytef*>(compressed_.data());
    stream_.avail_in = static_cast<uInt>(compressed_.size());
  }
  ~Inflater() { inflateEnd(&stream_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  // The next piece of text; false once every member has been read.
  bool Next(std::string* chunk) {
    while (!done_) {
      chunk->resize(kChunkBytes);
      stream_.next_out = reinterpret_cast<Bytef*>(chunk->data());
      stream_.avail_out = static_cast<uInt>(chunk->size());
      const int status = inflate(&stream_, Z_NO_FLUSH);
      if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR)
        throw UsageError(what_ + ": corrupt gzip data (" +
                         (stream_.msg ? std::string(stream_.msg) : "zlib error " + std::to_string(status)) + ")");
      chunk->resize(kChunkBytes - stream_.avail_out);
      if (status == Z_STREAM_END)
        NextMember();
      else if (status == Z_BUF_ERROR && stream_.avail_in == 0)
        throw UsageError(what_ + ": the gzip data is truncated");
      if (!chunk->empty()) return true;
    }
    return false;
  }

 private:
  void NextMember() {
    if (stream_.avail_in == 0) {
      done_ = true;
    } else if (inflateReset(&stream_) != Z_OK) {
      throw UsageError(what_ + ": zlib could not read the next gzip member");
    }
  }

  std::string compressed_;
  std::string what_;
  z_stream stream_{};
  bool done_ = false;
};

}  // namespace

bool IsGzip(const std::string& bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

TextChunks InflatedChunks(std::string compressed, const std::string& what) {
  auto inflater = std::make_shared<Inflater>(std::move(compressed), what);
  return [inflater](std::string* chunk) { return inflater->Next(chunk); };
}

std::string Gunzip(const std::string& compressed, std::size_t max_bytes, const std::string& what) {
  const TextChunks chunks = InflatedChunks(compressed, what);
  std::string text;
  for (std::string chunk; chunks(&chunk);) {
    text += chunk;
    if (text.size() > max_bytes)
      throw UsageError(what + ": inflates to more than " + std::to_string(max_bytes) + " bytes");
  }
  return text;
}

TextChunks MaybeGzippedChunks(const std::string& path) {
  std::string bytes = ReadInputFile(path, InputLimit::kInputBytes, "the results file");
  if (!IsGzip(bytes)) return WholeText(std::move(bytes));
  return InflatedChunks(std::move(bytes), "the results file '" + path + "'");
}

TextChunks WholeText(std::string text) {
  auto pending = std::make_shared<std::string>(std::move(text));
  auto given = std::make_shared<bool>(false);
  return [pending, given](std::string* chunk) {
    if (*given) return false;
    *given = true;
    chunk->swap(*pending);
    return true;
  };
}

}  // namespace tuner
