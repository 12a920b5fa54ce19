// Source of every figure unless noted: CUDA C++ Programming Guide, "Technical Specifications per
// Compute Capability" table (rows: maximum number of threads per block; maximum number of resident
// threads / warps / blocks per SM; number of 32-bit registers per SM; maximum number of 32-bit
// registers per thread block; maximum amount of shared memory per SM; maximum amount of shared
// memory per thread block (the opt-in figure from 7.0 on); shared memory reserved by the CUDA driver
// per thread block). Figures common to every row listed here: 1024 threads per block, 65536 registers
// per SM, 48 KiB shared memory per block without opt-in, warp size 32.
// The sm_90 row was also checked against an H100 80GB HBM3 and an H200
// (cudaGetDeviceProperties, CUDA 13.0): 228 KiB per SM, 227 KiB opt-in, 1 KiB reserved per block,
// 65536 registers, 2048 threads and 32 blocks per SM.
#include "occupancy/arch_table.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "base/errors.h"
#include "common/option_values.h"
#include "base/gpu_identity.h"

namespace tuner {

namespace {

constexpr std::size_t kKiB = 1024;

struct ArchRow {
  int cc_major;
  int cc_minor;
  int max_threads_per_sm;
  int max_blocks_per_sm;
  int regs_per_block;
  std::size_t smem_per_sm_kib;
  std::size_t smem_per_block_optin_kib;  // 48 before Volta: no opt-in above the default
  std::size_t reserved_smem_kib;         // 1 KiB from Ampere on, 0 before
};

// Guide table columns, one row each; comments name the products only to help a reader.
const ArchRow kArchRows[] = {
    {5, 0, 2048, 32, 65536, 64, 48, 0},     // Maxwell GM10x
    {5, 2, 2048, 32, 65536, 96, 48, 0},     // Maxwell GM20x
    {5, 3, 2048, 32, 32768, 64, 48, 0},     // Tegra X1: 32 K registers per block
    {6, 0, 2048, 32, 65536, 64, 48, 0},     // Pascal GP100
    {6, 1, 2048, 32, 65536, 96, 48, 0},     // Pascal GP10x
    {6, 2, 2048, 32, 32768, 64, 48, 0},     // Tegra X2: 32 K registers per block
    {7, 0, 2048, 32, 65536, 96, 96, 0},     // Volta GV100
    {7, 2, 2048, 32, 65536, 96, 96, 0},     // Xavier
    {7, 5, 1024, 16, 65536, 64, 64, 0},     // Turing: 32 warps, 16 blocks per SM
    {8, 0, 2048, 32, 65536, 164, 163, 1},   // A100
    {8, 6, 1536, 16, 65536, 100, 99, 1},    // GA10x: 48 warps, 16 blocks per SM
    {8, 7, 1536, 16, 65536, 164, 163, 1},   // Orin
    {8, 9, 1536, 24, 65536, 100, 99, 1},    // Ada: 48 warps, 24 blocks per SM
    {9, 0, 2048, 32, 65536, 228, 227, 1},   // H100, H200 (also measured, see above)
    {10, 0, 2048, 32, 65536, 228, 227, 1},  // B200
    {10, 3, 2048, 32, 65536, 228, 227, 1},  // B300: the guide's 10.x column
    {12, 0, 1536, 24, 65536, 100, 99, 1},   // RTX 50xx: 48 warps, 24 blocks per SM
    {12, 1, 1536, 24, 65536, 100, 99, 1},   // GB10: the guide's 12.x column
};

DeviceLimits FromRow(const ArchRow& row) {
  DeviceLimits d;
  d.name = ArchName(row.cc_major, row.cc_minor);
  d.cc_major = row.cc_major;
  d.cc_minor = row.cc_minor;
  d.sm_count = 0;
  d.warp_size = 32;
  d.max_threads_per_block = 1024;
  d.max_threads_per_sm = row.max_threads_per_sm;
  d.max_blocks_per_sm = row.max_blocks_per_sm;
  d.regs_per_sm = 65536;
  d.regs_per_block = row.regs_per_block;
  d.smem_per_sm_bytes = row.smem_per_sm_kib * kKiB;
  d.smem_per_block_bytes = 48 * kKiB;
  d.smem_per_block_optin_bytes = row.smem_per_block_optin_kib * kKiB;
  d.reserved_smem_per_block_bytes = row.reserved_smem_kib * kKiB;
  return d;
}

int NumberOf(const ArchRow& row) { return row.cc_major * 10 + row.cc_minor; }

const ArchRow* FindRow(int number) {
  for (const ArchRow& row : kArchRows)
    if (NumberOf(row) == number) return &row;
  return nullptr;
}

// The variants NVRTC 13 takes: arch-specific from sm_90 on, family-specific from sm_100 on.
bool HasVariant(int number, char variant) {
  return (variant == 'a' && number >= 90) || (variant == 'f' && number >= 100);
}

std::string JoinKnownArchs() {
  std::string all;
  for (const std::string& name : KnownArchs()) all += (all.empty() ? "" : ", ") + name;
  return all;
}

// A spelling that means a table architecture: the number, the variant letter (or 0) and whether
// it named the virtual architecture. -1 as the number when it means none.
struct Reading {
  int number = -1;
  char variant = 0;
  bool virtual_arch = false;
};

Reading ReadLoosely(std::string text) {
  Reading reading;
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const char* prefix : {"sm_", "sm", "compute_", "compute"}) {
    if (text.rfind(prefix, 0) != 0) continue;
    reading.virtual_arch = prefix[0] == 'c';
    text = text.substr(std::string(prefix).size());
    break;
  }
  const std::size_t dot = text.find('.');
  if (dot != std::string::npos && dot + 2 == text.size()) text.erase(dot, 1);  // "9.0"
  if (!text.empty() && (text.back() == 'a' || text.back() == 'f')) {
    reading.variant = text.back();
    text.pop_back();
  }
  if (text.empty() || text.size() > 3 || text.find_first_not_of("0123456789") != std::string::npos) return reading;
  const int number = static_cast<int>(ParseWholeNumber("arch", text, 0));  // at most three digits
  if (FindRow(number)) reading.number = number;
  return reading;
}

// Why `text` is not taken, with the name to use where it means a table architecture.
std::string Refusal(const std::string& text) {
  const Reading r = ReadLoosely(text);
  const std::string prefix = "--arch " + Quoted(text) + ": ";
  if (r.number < 0)
    return prefix + "not a known architecture; known: " + JoinKnownArchs() +
           " (and sm_XYa from sm_90, sm_XYf from sm_100; see 'tuner occupancy --list-archs')";
  const std::string base = ArchName(r.number / 10, r.number % 10);
  if (r.variant && !HasVariant(r.number, r.variant))
    return prefix + base + " has no " +
           (r.variant == 'a' ? "arch-specific (a) variant; those begin at sm_90a"
                             : "family (f) variant; those begin at sm_100f") +
           ". Use " + base;
  const std::string meant = base + (r.variant ? std::string(1, r.variant) : "");
  if (r.virtual_arch) return prefix + "a virtual architecture (PTX); occupancy and cubins need a real one: " + meant;
  return prefix + "architectures are written like " + meant + " (lower case, with sm_)";
}

}  // namespace

std::vector<std::string> KnownArchs() {
  std::vector<std::string> names;
  for (const ArchRow& row : kArchRows) names.push_back(ArchName(row.cc_major, row.cc_minor));
  return names;
}

std::vector<std::string> AcceptedArchs() {
  std::vector<std::string> names;
  for (const ArchRow& row : kArchRows)
    for (const char variant : {'\0', 'a', 'f'})
      if (!variant || HasVariant(NumberOf(row), variant))
        names.push_back(ArchName(row.cc_major, row.cc_minor) + (variant ? std::string(1, variant) : ""));
  return names;
}

ArchTarget ParseArch(const std::string& text) {
  for (const ArchRow& row : kArchRows) {
    const std::string base = ArchName(row.cc_major, row.cc_minor);
    if (text.rfind(base, 0) != 0) continue;
    const std::string variant = text.substr(base.size());
    if (variant.empty() || (variant.size() == 1 && HasVariant(NumberOf(row), variant[0]))) {
      ArchTarget target{text, FromRow(row)};
      target.limits.name = text;
      return target;
    }
  }
  throw UsageError(Refusal(text));
}

DeviceLimits ArchLimits(const std::string& arch) { return ParseArch(arch).limits; }

DeviceLimits LargestLimits() {
  DeviceLimits largest = FromRow(kArchRows[0]);
  for (const ArchRow& row : kArchRows) {
    const DeviceLimits d = FromRow(row);
    largest.max_threads_per_block = std::max(largest.max_threads_per_block, d.max_threads_per_block);
    largest.max_threads_per_sm = std::max(largest.max_threads_per_sm, d.max_threads_per_sm);
    largest.max_blocks_per_sm = std::max(largest.max_blocks_per_sm, d.max_blocks_per_sm);
    largest.regs_per_sm = std::max(largest.regs_per_sm, d.regs_per_sm);
    largest.regs_per_block = std::max(largest.regs_per_block, d.regs_per_block);
    largest.smem_per_sm_bytes = std::max(largest.smem_per_sm_bytes, d.smem_per_sm_bytes);
    largest.smem_per_block_bytes = std::max(largest.smem_per_block_bytes, d.smem_per_block_bytes);
    largest.smem_per_block_optin_bytes = std::max(largest.smem_per_block_optin_bytes, d.smem_per_block_optin_bytes);
    largest.reserved_smem_per_block_bytes =
        std::max(largest.reserved_smem_per_block_bytes, d.reserved_smem_per_block_bytes);
  }
  largest.name = "the largest of the built-in table";
  return largest;
}

}  // namespace tuner
