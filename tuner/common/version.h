#pragma once

namespace tuner {

inline constexpr const char* kVersion = "0.1.0";

}  // namespace tuner
