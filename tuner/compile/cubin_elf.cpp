#include "compile/cubin_elf.h"

#include <elf.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace tuner {

namespace {

constexpr unsigned char kFormatSval = 0x04;       // attribute with a 16-bit size and a value
constexpr unsigned char kFormatHval = 0x03;       // attribute with a 16-bit value
constexpr unsigned char kFormatBval = 0x02;       // attribute with an 8-bit value, padded to 16 bits
constexpr unsigned char kAttrRegCount = 0x2f;     // EIATTR_REGCOUNT: (symbol index, registers)
constexpr unsigned char kAttrNumBarriers = 0x4c;  // EIATTR_NUM_BARRIERS: barriers the kernel uses

// From sm_90 on, NVRTC 13 sizes a kernel's .nv.shared section with the 1 KiB the system reserves
// per block (checked against ptxas's report and cudaFuncGetAttributes: tests/compile/cubin_elf_test.cpp,
// tests/occupancy/occupancy_gpu_test.cpp).
long long ReservedInSection(const std::string& arch) {
  const int sm = std::atoi(arch.c_str() + (arch.rfind("sm_", 0) == 0 ? 3 : 0));
  return sm >= 90 ? 1024 : 0;
}

class Elf {
 public:
  explicit Elf(const std::string& bytes) : bytes_(bytes) {}

  bool Valid() const {
    if (bytes_.size() < sizeof(Elf64_Ehdr) || std::memcmp(bytes_.data(), ELFMAG, SELFMAG) != 0) return false;
    const Elf64_Ehdr& h = Header();
    return h.e_shentsize == sizeof(Elf64_Shdr) &&
           h.e_shoff + std::size_t{h.e_shnum} * sizeof(Elf64_Shdr) <= bytes_.size() && h.e_shstrndx < h.e_shnum;
  }

  const Elf64_Shdr* Find(const std::string& name) const {
    for (int i = 0; i < Header().e_shnum; ++i)
      if (Name(Section(i)) == name) return &Section(i);
    return nullptr;
  }

  std::string Contents(const Elf64_Shdr& s) const {
    if (s.sh_type == SHT_NOBITS || s.sh_offset + s.sh_size > bytes_.size()) return "";
    return bytes_.substr(s.sh_offset, s.sh_size);
  }

 private:
  const Elf64_Ehdr& Header() const { return *reinterpret_cast<const Elf64_Ehdr*>(bytes_.data()); }
  const Elf64_Shdr& Section(int i) const {
    return reinterpret_cast<const Elf64_Shdr*>(bytes_.data() + Header().e_shoff)[i];
  }
  std::string Name(const Elf64_Shdr& s) const {
    const Elf64_Shdr& names = Section(Header().e_shstrndx);
    const std::size_t at = names.sh_offset + s.sh_name;
    return at < bytes_.size() ? std::string(bytes_.c_str() + at) : "";
  }

  const std::string& bytes_;
};

// Walks an attribute list (.nv.info or .nv.info.<kernel>) for one attribute. For SVAL attributes
// of the global list, `symbol` selects the (symbol, value) pair; HVAL attributes give their value.
int FindAttribute(const std::string& info, unsigned char wanted, unsigned symbol) {
  for (std::size_t i = 0; i + 2 <= info.size();) {
    const unsigned char format = info[i], attribute = info[i + 1];
    i += 2;
    if (format == kFormatSval) {
      if (i + 2 > info.size()) break;
      std::uint16_t size;
      std::memcpy(&size, info.data() + i, 2);
      i += 2;
      if (attribute == wanted && size == 8 && i + 8 <= info.size()) {
        std::uint32_t pair[2];
        std::memcpy(pair, info.data() + i, 8);
        if (pair[0] == symbol) return static_cast<int>(pair[1]);
      }
      i += size;
    } else if (format == kFormatHval || format == kFormatBval) {
      if (attribute == wanted && i + 2 <= info.size()) {
        std::uint16_t value;
        std::memcpy(&value, info.data() + i, 2);
        return value;
      }
      i += 2;
    }
  }
  return 0;
}

}  // namespace

std::optional<CubinResources> ReadCubinResources(const std::string& cubin, const std::string& lowered_name,
                                                 const std::string& arch) {
  const Elf elf(cubin);
  if (!elf.Valid()) return std::nullopt;
  const Elf64_Shdr* text = elf.Find(".text." + lowered_name);
  const Elf64_Shdr* info = elf.Find(".nv.info");
  if (!text || !info) return std::nullopt;
  CubinResources resources;
  resources.regs_per_thread = FindAttribute(elf.Contents(*info), kAttrRegCount, text->sh_info & 0xffffff);
  if (resources.regs_per_thread <= 0) return std::nullopt;
  if (const Elf64_Shdr* shared = elf.Find(".nv.shared." + lowered_name))
    resources.static_smem_bytes = std::max(0LL, static_cast<long long>(shared->sh_size) - ReservedInSection(arch));
  if (const Elf64_Shdr* own = elf.Find(".nv.info." + lowered_name))
    resources.barriers = FindAttribute(elf.Contents(*own), kAttrNumBarriers, 0);
  return resources;
}

}  // namespace tuner
