// NumPy's .npy format (version 1.0 to 3.0): the header read and checked on its own, the data read
// or written in chunks, so a 1 GiB array never needs a second copy in host memory. Used by the
// capture library (writes) and by the tuner (reads). Depends on nothing but the C++ library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace tuner::npy {

// A file that is not a valid .npy, or not the one expected. The message names the file, the field
// and, for a mismatch, both values.
struct NpyError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Header {
  std::string descr;  // "<f4": byte order, kind, bytes per element
  bool fortran_order = false;
  std::vector<std::uint64_t> shape;  // () for a scalar
  std::uint64_t data_offset = 0;     // bytes before the data

  std::uint64_t Count() const;    // elements: the product of the shape
  std::size_t ItemBytes() const;  // from descr (ItemBytesOf)
  std::string ShapeText() const;  // "(1000, 3)"
};

// Bytes per element of a type code ("<f2": 2) or of ml_dtypes' named types (bfloat16: 2,
// float8_e4m3fn and float8_e5m2: 1); 0 for anything else.
std::size_t ItemBytesOf(const std::string& descr);

// The .npy type code of a buffer element type, little-endian: "<f4", "<f8", "<i4", "<u4", "<i8", "<u8".
template <typename T>
const char* DescrOf();
template <>
inline const char* DescrOf<float>() {
  return "<f4";
}
template <>
inline const char* DescrOf<double>() {
  return "<f8";
}
template <>
inline const char* DescrOf<std::int32_t>() {
  return "<i4";
}
template <>
inline const char* DescrOf<std::uint32_t>() {
  return "<u4";
}
template <>
inline const char* DescrOf<std::int64_t>() {
  return "<i8";
}
template <>
inline const char* DescrOf<std::uint64_t>() {
  return "<u8";
}

// "float32 ('<f4')": a type code as people read it, for messages.
std::string DescribeDescr(const std::string& descr);

// Reads and validates the header: magic, version, the header dictionary (exactly 'descr',
// 'fortran_order' and 'shape'), a plain numeric type, and a file size that matches the shape
// (a truncated file, or bytes after the data, are errors). Throws NpyError naming `path`.
Header ReadHeader(const std::string& path);

// Throws NpyError unless the file holds `count` elements of type `descr` in C order, little-endian.
// `field` names where the file was asked for ("arg 'in' init"), for the message.
void CheckMatches(const Header& header, const std::string& path, const std::string& field, const std::string& descr,
                  std::uint64_t count);
// The same for a type that files hold under several dtypes: any of `descrs`, the first named in messages.
void CheckMatches(const Header& header, const std::string& path, const std::string& field,
                  const std::vector<std::string>& descrs, std::uint64_t count);

// Reads the data of a validated file in chunks of at most `chunk_bytes`, in order.
void ReadData(const std::string& path, const Header& header,
              const std::function<void(const char* bytes, std::size_t size)>& consume,
              std::size_t chunk_bytes = std::size_t{64} << 20);

// The whole data of a validated file, for small arrays (expected outputs, tests).
std::string ReadAll(const std::string& path, const Header& header);

// Writes a version 1.0 .npy file of a 1-D array of `count` elements, in chunks. The file is
// created new (an existing file is an error, never overwritten); Close() checks that exactly
// `count` elements were written. A writer destroyed before Close() removes its file.
class Writer {
 public:
  Writer(std::string path, const std::string& descr, std::uint64_t count);
  ~Writer();
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void Write(const void* bytes, std::size_t size);
  void Close();

 private:
  std::string path_;
  std::FILE* file_ = nullptr;
  std::uint64_t expected_bytes_ = 0;
  std::uint64_t written_bytes_ = 0;
  bool closed_ = false;
};

// One call for a small array already in memory.
void WriteFile(const std::string& path, const std::string& descr, const void* data, std::uint64_t count);

}  // namespace tuner::npy
