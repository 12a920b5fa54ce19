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

bool StartsFromContents(BufferInit init) { return init != BufferInit::kZero && init != BufferInit::kPoison; }

}  // namespace tuner
