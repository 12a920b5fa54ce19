#include "npy.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>

namespace tuner::npy {

namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicBytes = 6;
constexpr std::uint32_t kMaxHeaderBytes = 1u << 20;  // numpy writes a few hundred; more is not a header

[[noreturn]] void Fail(const std::string& path, const std::string& problem) { throw NpyError(path + ": " + problem); }

std::uint64_t FileBytes(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) Fail(path, std::string("cannot read the file: ") + std::strerror(errno));
  if (!S_ISREG(info.st_mode)) Fail(path, "is not a regular file");
  return static_cast<std::uint64_t>(info.st_size);
}

// The header dictionary: a Python literal such as {'descr': '<f4', 'fortran_order': False, 'shape': (3,), }.
class DictParser {
 public:
  DictParser(std::string text, std::string path) : text_(std::move(text)), path_(std::move(path)) {}

  Header Parse() {
    Header header;
    std::map<std::string, bool> seen;
    Expect('{');
    while (!Peek('}')) {
      const std::string key = QuotedString();
      Expect(':');
      if (key == "descr") {
        if (Peek('[')) Fail(path_, "header: descr is a structured type; only plain numeric arrays are read");
        header.descr = QuotedString();
      } else if (key == "fortran_order") {
        header.fortran_order = Boolean();
      } else if (key == "shape") {
        header.shape = Tuple();
      } else {
        Fail(path_, "header: unknown key '" + key + "' (a .npy header has descr, fortran_order and shape)");
      }
      if (seen[key]) Fail(path_, "header: key '" + key + "' appears twice");
      seen[key] = true;
      if (!Peek('}')) Expect(',');
    }
    Expect('}');
    SkipSpace();
    if (pos_ != text_.size()) Fail(path_, "header: unexpected text after the dictionary");
    for (const char* key : {"descr", "fortran_order", "shape"})
      if (!seen[key]) Fail(path_, std::string("header: key '") + key + "' is missing");
    return header;
  }

 private:
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  bool Peek(char c) {
    SkipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }
  void Expect(char c) {
    if (!Peek(c))
      Fail(path_, std::string("header: expected '") + c + "' at byte " + std::to_string(pos_) + " of the dictionary");
    ++pos_;
  }
  std::string QuotedString() {
    SkipSpace();
    const char quote = pos_ < text_.size() ? text_[pos_] : '\0';
    if (quote != '\'' && quote != '"') Fail(path_, "header: expected a quoted string at byte " + std::to_string(pos_));
    const std::size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string::npos) Fail(path_, "header: unterminated string");
    std::string value = text_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    return value;
  }
  bool Boolean() {
    SkipSpace();
    for (const auto& [word, value] : {std::pair<const char*, bool>{"True", true}, {"False", false}}) {
      if (text_.compare(pos_, std::strlen(word), word) == 0) {
        pos_ += std::strlen(word);
        return value;
      }
    }
    Fail(path_, "header: fortran_order must be True or False");
  }
  std::vector<std::uint64_t> Tuple() {
    std::vector<std::uint64_t> dims;
    Expect('(');
    while (!Peek(')')) {
      const std::size_t start = pos_;
      std::uint64_t value = 0;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        const std::uint64_t digit = static_cast<std::uint64_t>(text_[pos_++] - '0');
        if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / 10)
          Fail(path_, "header: shape: a dimension is too large");
        value = value * 10 + digit;
      }
      if (pos_ == start) Fail(path_, "header: shape must be a tuple of non-negative integers");
      dims.push_back(value);
      if (!Peek(')')) Expect(',');
    }
    Expect(')');
    return dims;
  }

  std::string text_;
  std::string path_;
  std::size_t pos_ = 0;
};

std::uint32_t LittleEndian(const unsigned char* bytes, int size) {
  std::uint32_t value = 0;
  for (int i = size - 1; i >= 0; --i) value = (value << 8) | bytes[i];
  return value;
}

std::string PreambleAndHeader(const std::string& path, std::ifstream& in, std::uint64_t* data_offset) {
  unsigned char preamble[12] = {};
  in.read(reinterpret_cast<char*>(preamble), 10);
  if (in.gcount() < 10 || std::memcmp(preamble, kMagic, kMagicBytes) != 0)
    Fail(path, "not a .npy file (it does not start with the bytes \\x93NUMPY)");
  const int major = preamble[6];
  if (major < 1 || major > 3 || preamble[7] != 0)
    Fail(path, "format version " + std::to_string(major) + "." + std::to_string(preamble[7]) +
                   " is not one of 1.0, 2.0, 3.0");
  std::uint32_t header_bytes = LittleEndian(preamble + 8, 2);
  std::uint64_t offset = 10;
  if (major >= 2) {
    in.read(reinterpret_cast<char*>(preamble) + 10, 2);
    if (in.gcount() < 2) Fail(path, "truncated in its header");
    header_bytes = LittleEndian(preamble + 8, 4);
    offset = 12;
  }
  if (header_bytes > kMaxHeaderBytes)
    Fail(path, "header length " + std::to_string(header_bytes) + " bytes is not plausible");
  std::string text(header_bytes, '\0');
  in.read(text.data(), header_bytes);
  if (static_cast<std::uint32_t>(in.gcount()) < header_bytes) Fail(path, "truncated in its header");
  *data_offset = offset + header_bytes;
  return text;
}

// ml_dtypes' types, which have names rather than codes: the header of an array written with
// descr = str(array.dtype). np.save itself writes them unnamed ('<V2', '<V1', '<f1'), which the
// tool accepts for its bfloat16 and fp8 types (template/element_types.cpp).
struct NamedType {
  const char* name;
  std::size_t bytes;
};
constexpr NamedType kNamedTypes[] = {{"bfloat16", 2}, {"float8_e4m3fn", 1}, {"float8_e5m2", 1}};

bool IsCode(const std::string& d, const std::string& kinds) {
  return (d.size() == 3 || d.size() == 4) && std::string("<>|=").find(d[0]) != std::string::npos &&
         kinds.find(d[1]) != std::string::npos && d.find_first_not_of("0123456789", 2) == std::string::npos;
}

bool IsNamed(const std::string& d) {
  for (const NamedType& type : kNamedTypes)
    if (d == type.name) return true;
  return false;
}

void CheckDescr(const std::string& path, const Header& header) {
  const std::string& d = header.descr;
  if (!(IsCode(d, "fiuV") || IsNamed(d)) || header.ItemBytes() == 0)
    Fail(path, "header: descr '" + d +
                   "' is not a type tuner reads (a plain integer or floating-point code such as '<f4', raw bytes "
                   "'<V2', or ml_dtypes' bfloat16, float8_e4m3fn, float8_e5m2)");
}

}  // namespace

std::uint64_t Header::Count() const {
  std::uint64_t count = 1;
  for (std::uint64_t dim : shape) {
    if (dim != 0 && count > std::numeric_limits<std::uint64_t>::max() / dim)
      throw NpyError("shape " + ShapeText() + " overflows");
    count *= dim;
  }
  return count;
}

std::size_t Header::ItemBytes() const { return ItemBytesOf(descr); }

std::size_t ItemBytesOf(const std::string& descr) {
  for (const NamedType& type : kNamedTypes)
    if (descr == type.name) return type.bytes;
  if (!IsCode(descr, "fiuVbc")) return 0;
  return static_cast<std::size_t>(std::stoul(descr.substr(2)));
}

std::string Header::ShapeText() const {
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::string DescribeDescr(const std::string& descr) {
  static const std::map<char, std::string> kKind = {
      {'f', "float"}, {'i', "int"}, {'u', "uint"}, {'b', "bool"}, {'c', "complex"}};
  std::string name = descr;
  if (IsNamed(descr)) return descr + " (ml_dtypes)";
  if (IsCode(descr, "V")) return "raw bytes ('" + descr + "')";
  if (descr.size() >= 3 && kKind.count(descr[1]) && descr.find_first_not_of("0123456789", 2) == std::string::npos)
    name = kKind.at(descr[1]) + std::to_string(8 * std::stoul(descr.substr(2)));
  return name + " ('" + descr + "')";
}

Header ReadHeader(const std::string& path) {
  const std::uint64_t file_bytes = FileBytes(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail(path, std::string("cannot open the file: ") + std::strerror(errno));
  std::uint64_t data_offset = 0;
  const std::string text = PreambleAndHeader(path, in, &data_offset);
  Header header = DictParser(text, path).Parse();
  header.data_offset = data_offset;
  CheckDescr(path, header);
  std::uint64_t count = 0;
  try {
    count = header.Count();
  } catch (const NpyError& e) {
    Fail(path, e.what());
  }
  const std::uint64_t item = header.ItemBytes();
  if (count > std::numeric_limits<std::uint64_t>::max() / item)
    Fail(path, "shape " + header.ShapeText() + " overflows");
  const std::uint64_t needed = data_offset + count * item;
  if (file_bytes < needed)
    Fail(path, "truncated: shape " + header.ShapeText() + " of " + DescribeDescr(header.descr) + " needs " +
                   std::to_string(count * item) + " bytes of data, the file holds " +
                   std::to_string(file_bytes - std::min(file_bytes, data_offset)));
  if (file_bytes > needed)
    Fail(path, std::to_string(file_bytes - needed) + " byte(s) after the data that shape " + header.ShapeText() +
                   " of " + DescribeDescr(header.descr) + " describes");
  return header;
}

void CheckMatches(const Header& header, const std::string& path, const std::string& field, const std::string& descr,
                  std::uint64_t count) {
  CheckMatches(header, path, field, std::vector<std::string>{descr}, count);
}

void CheckMatches(const Header& header, const std::string& path, const std::string& field,
                  const std::vector<std::string>& descrs, std::uint64_t count) {
  const std::string where = path + ": " + field + ": ";
  const std::string& descr = descrs.front();
  const auto same = [&](const std::string& d) {
    return header.descr == d || ((header.descr[0] == '=' || header.descr[0] == '|') && IsCode(d, "fiuV") &&
                                 header.descr.substr(1) == d.substr(1));
  };
  if (header.descr[0] == '>' && IsCode(descr, "fiu") && header.descr.substr(1) == descr.substr(1) && descr[0] != '|')
    throw NpyError(where + "byte order is big-endian (" + DescribeDescr(header.descr) + "); expected little-endian " +
                   DescribeDescr(descr) + " (numpy: a.astype('" + descr + "'))");
  if (std::none_of(descrs.begin(), descrs.end(), same)) {
    std::string expected = DescribeDescr(descr);
    for (std::size_t i = 1; i < descrs.size(); ++i) expected += " or " + DescribeDescr(descrs[i]);
    throw NpyError(where + "dtype is " + DescribeDescr(header.descr) + ", expected " + expected);
  }
  std::size_t long_dims = 0;
  for (std::uint64_t dim : header.shape) long_dims += dim > 1;
  if (header.fortran_order && long_dims > 1)
    throw NpyError(where + "is in Fortran order (shape " + header.ShapeText() +
                   "); expected C order (numpy: np.ascontiguousarray(a))");
  if (header.Count() != count)
    throw NpyError(where + "shape " + header.ShapeText() + " holds " + std::to_string(header.Count()) +
                   " element(s), expected " + std::to_string(count));
}

void ReadData(const std::string& path, const Header& header,
              const std::function<void(const char* bytes, std::size_t size)>& consume, std::size_t chunk_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail(path, std::string("cannot open the file: ") + std::strerror(errno));
  in.seekg(static_cast<std::streamoff>(header.data_offset));
  std::uint64_t left = header.Count() * header.ItemBytes();
  std::string chunk(static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk_bytes)), '\0');
  while (left > 0) {
    const std::size_t size = static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk.size()));
    in.read(chunk.data(), static_cast<std::streamsize>(size));
    if (static_cast<std::size_t>(in.gcount()) != size) Fail(path, "truncated while reading (did the file change?)");
    consume(chunk.data(), size);
    left -= size;
  }
}

std::string ReadAll(const std::string& path, const Header& header) {
  std::string data;
  data.reserve(static_cast<std::size_t>(header.Count() * header.ItemBytes()));
  ReadData(path, header, [&](const char* bytes, std::size_t size) { data.append(bytes, size); });
  return data;
}

Writer::Writer(std::string path, const std::string& descr, std::uint64_t count) : path_(std::move(path)) {
  file_ = std::fopen(path_.c_str(), "wbx");  // x: fails if the file exists
  if (!file_) Fail(path_, std::string("cannot create the file: ") + std::strerror(errno));
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + std::to_string(count) + ",), }";
  const std::size_t unpadded = 10 + dict.size() + 1;  // preamble, dictionary, newline
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  std::string preamble(kMagic, kMagicBytes);
  preamble += {'\x01', '\x00', static_cast<char>(dict.size() & 0xFF), static_cast<char>(dict.size() >> 8)};
  if (std::fwrite(preamble.data(), 1, preamble.size(), file_) != preamble.size() ||
      std::fwrite(dict.data(), 1, dict.size(), file_) != dict.size()) {
    const int error = errno;
    std::fclose(file_);
    std::remove(path_.c_str());
    Fail(path_, std::string("cannot write: ") + std::strerror(error));
  }
  expected_bytes_ = count * ItemBytesOf(descr);
}

Writer::~Writer() {
  if (closed_) return;
  if (file_) std::fclose(file_);
  std::remove(path_.c_str());
}

void Writer::Write(const void* bytes, std::size_t size) {
  if (size > 0 && std::fwrite(bytes, 1, size, file_) != size)
    Fail(path_, std::string("cannot write: ") + std::strerror(errno));
  written_bytes_ += size;
}

void Writer::Close() {
  if (written_bytes_ != expected_bytes_)
    Fail(path_, "wrote " + std::to_string(written_bytes_) + " bytes of data, the header promises " +
                    std::to_string(expected_bytes_));
  const bool ok = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok) Fail(path_, std::string("cannot write: ") + std::strerror(errno));
  closed_ = true;
}

void WriteFile(const std::string& path, const std::string& descr, const void* data, std::uint64_t count) {
  Writer writer(path, descr, count);
  writer.Write(data, static_cast<std::size_t>(count * ItemBytesOf(descr)));
  writer.Close();
}

}  // namespace tuner::npy
