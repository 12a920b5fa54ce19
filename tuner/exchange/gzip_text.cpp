#include "exchange/gzip_text.h"

#include <zlib.h>

#include "base/errors.h"
#include "common/input_file.h"

namespace tuner {

namespace {

constexpr int kGzipWindowBits = 16 + MAX_WBITS;  // 16: expect a gzip header, not a zlib one

// Owns a z_stream set up for inflating gzip; inflateEnd in every case.
class Inflater {
 public:
  explicit Inflater(const std::string& what) {
    if (inflateInit2(&stream_, kGzipWindowBits) != Z_OK) throw UsageError(what + ": zlib could not start inflating");
  }
  ~Inflater() { inflateEnd(&stream_); }
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;
  z_stream& stream() { return stream_; }

 private:
  z_stream stream_{};
};

}  // namespace

bool IsGzip(const std::string& bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

std::string Gunzip(const std::string& compressed, std::size_t max_bytes, const std::string& what) {
  Inflater inflater(what);
  z_stream& z = inflater.stream();
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(compressed.data()));
  z.avail_in = static_cast<uInt>(compressed.size());
  std::string text;
  char chunk[1 << 16];
  for (;;) {
    z.next_out = reinterpret_cast<Bytef*>(chunk);
    z.avail_out = sizeof chunk;
    const int status = inflate(&z, Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR)
      throw UsageError(what + ": corrupt gzip data (" +
                       (z.msg ? std::string(z.msg) : "zlib error " + std::to_string(status)) + ")");
    text.append(chunk, sizeof chunk - z.avail_out);
    if (text.size() > max_bytes)
      throw UsageError(what + ": inflates to more than " + std::to_string(max_bytes) + " bytes");
    if (status == Z_STREAM_END) {
      if (z.avail_in == 0) return text;
      if (inflateReset(&z) != Z_OK) throw UsageError(what + ": zlib could not read the next gzip member");
    } else if (status == Z_BUF_ERROR && z.avail_in == 0) {
      throw UsageError(what + ": the gzip data is truncated");
    }
  }
}

std::string ReadMaybeGzipped(const std::string& path, std::size_t max_bytes) {
  std::string bytes = ReadInputFile(path, max_bytes, "the results file");
  if (!IsGzip(bytes)) return bytes;
  return Gunzip(bytes, max_bytes, "the results file '" + path + "'");
}

}  // namespace tuner
