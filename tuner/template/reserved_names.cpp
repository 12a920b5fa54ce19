#include "template/reserved_names.h"

#include <cctype>
#include <map>

#include "expression/expression.h"

namespace tuner {

namespace {

const char* const kCppKeywords[] = {"alignas",
                                    "alignof",
                                    "and",
                                    "and_eq",
                                    "asm",
                                    "auto",
                                    "bitand",
                                    "bitor",
                                    "bool",
                                    "break",
                                    "case",
                                    "catch",
                                    "char",
                                    "char8_t",
                                    "char16_t",
                                    "char32_t",
                                    "class",
                                    "compl",
                                    "concept",
                                    "const",
                                    "consteval",
                                    "constexpr",
                                    "constinit",
                                    "const_cast",
                                    "continue",
                                    "co_await",
                                    "co_return",
                                    "co_yield",
                                    "decltype",
                                    "default",
                                    "delete",
                                    "do",
                                    "double",
                                    "dynamic_cast",
                                    "else",
                                    "enum",
                                    "explicit",
                                    "export",
                                    "extern",
                                    "false",
                                    "float",
                                    "for",
                                    "friend",
                                    "goto",
                                    "if",
                                    "inline",
                                    "int",
                                    "long",
                                    "mutable",
                                    "namespace",
                                    "new",
                                    "noexcept",
                                    "not",
                                    "not_eq",
                                    "nullptr",
                                    "operator",
                                    "or",
                                    "or_eq",
                                    "private",
                                    "protected",
                                    "public",
                                    "register",
                                    "reinterpret_cast",
                                    "requires",
                                    "restrict",
                                    "return",
                                    "short",
                                    "signed",
                                    "sizeof",
                                    "static",
                                    "static_assert",
                                    "static_cast",
                                    "struct",
                                    "switch",
                                    "template",
                                    "this",
                                    "thread_local",
                                    "throw",
                                    "true",
                                    "try",
                                    "typedef",
                                    "typeid",
                                    "typename",
                                    "union",
                                    "unsigned",
                                    "using",
                                    "virtual",
                                    "void",
                                    "volatile",
                                    "wchar_t",
                                    "while",
                                    "xor",
                                    "xor_eq",
                                    "defined",
                                    "NULL",
                                    "assert"};  // a macro of these names breaks the preprocessor or the headers

const char* const kBuiltinTypes[] = {"size_t",   "ptrdiff_t", "intptr_t", "uintptr_t",   "int8_t",
                                     "int16_t",  "int32_t",   "int64_t",  "uint8_t",     "uint16_t",
                                     "uint32_t", "uint64_t",  "half",     "nv_bfloat16", "dim3",
                                     "uint",     "ushort",    "uchar",    "ulong"};

const char* const kVectorTypes[] = {"char",  "uchar",    "short",     "ushort", "int",    "uint", "long",
                                    "ulong", "longlong", "ulonglong", "float",  "double", "half", "bfloat16"};

const char* const kCudaBuiltins[] = {"threadIdx",  "blockIdx", "blockDim", "gridDim", "warpSize", "clusterIdx",
                                     "clusterDim", "printf",   "malloc",   "free",    "memcpy",   "memset"};

std::map<std::string, std::string> BuildReservedNames() {
  std::map<std::string, std::string> reasons;
  for (const char* name : kCppKeywords) reasons[name] = "a C++ keyword";
  for (const char* name : kBuiltinTypes) reasons[name] = "a built-in type";
  for (const char* base : kVectorTypes)
    for (const char* width : {"1", "2", "3", "4"}) reasons[std::string(base) + width] = "a CUDA vector type";
  for (const char* name : kCudaBuiltins) reasons[name] = "a CUDA built-in";
  for (const std::string& name : ExpressionFunctionNames()) reasons[name] = "an expression function";
  return reasons;
}

}  // namespace

bool IsIdentifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  for (const char c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

std::string WhyReserved(const std::string& name) {
  static const std::map<std::string, std::string> kReasons = BuildReservedNames();
  const auto it = kReasons.find(name);
  if (it != kReasons.end()) return it->second;
  if (name.size() > 1 && name[0] == '_' && (name[1] == '_' || std::isupper(static_cast<unsigned char>(name[1]))))
    return "reserved for the compiler (a leading '__' or '_' and a capital)";
  return "";
}

}  // namespace tuner
