#include "template/launch_types.h"

#include <nlohmann/json.hpp>

namespace tuner {

void to_json(nlohmann::json& j, const LaunchGeometry& geometry) {
  j = {{"grid", geometry.grid}, {"block", geometry.block}, {"shared_bytes", geometry.shared_bytes}};
}

void from_json(const nlohmann::json& j, LaunchGeometry& geometry) {
  geometry.grid = j.at("grid");
  geometry.block = j.at("block");
  geometry.shared_bytes = j.at("shared_bytes");
}

std::string LaunchGeometry::Json() const { return nlohmann::json(*this).dump(); }

std::size_t SizeOf(ScalarType type) {
  switch (type) {
    case ScalarType::kFloat:
    case ScalarType::kInt:
    case ScalarType::kUint:
      return 4;
    default:
      return 8;
  }
}

std::string ToString(ScalarType type) {
  switch (type) {
    case ScalarType::kFloat:
      return "float";
    case ScalarType::kDouble:
      return "double";
    case ScalarType::kInt:
      return "int";
    case ScalarType::kUint:
      return "uint";
    case ScalarType::kInt64:
      return "int64";
    case ScalarType::kUint64:
      return "uint64";
  }
  return "?";
}

bool IsFloatingPoint(ScalarType type) { return type == ScalarType::kFloat || type == ScalarType::kDouble; }

std::string NpyDescr(ScalarType type) {
  switch (type) {
    case ScalarType::kFloat:
      return "<f4";
    case ScalarType::kDouble:
      return "<f8";
    case ScalarType::kInt:
      return "<i4";
    case ScalarType::kUint:
      return "<u4";
    case ScalarType::kInt64:
      return "<i8";
    case ScalarType::kUint64:
      return "<u8";
  }
  return "?";
}

std::string ToString(BufferInit init) {
  switch (init) {
    case BufferInit::kRandom:
      return "random";
    case BufferInit::kZero:
      return "zero";
    case BufferInit::kOne:
      return "one";
    case BufferInit::kIndex:
      return "index";
    case BufferInit::kPoison:
      return "poison";
    case BufferInit::kRandomInt:
      return "random_int";
    case BufferInit::kFile:
      return "file";
  }
  return "?";
}

}  // namespace tuner
