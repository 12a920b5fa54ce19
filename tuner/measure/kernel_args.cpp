#include "measure/kernel_args.h"

#include <cstring>

namespace tuner {

namespace {

template <typename T>
void Store(std::uint64_t& slot, double value) {
  const T typed = static_cast<T>(value);
  std::memcpy(&slot, &typed, sizeof typed);
}

}  // namespace

void StoreScalar(std::uint64_t& slot, ScalarType type, double value) {
  switch (type) {
    case ScalarType::kFloat:
      Store<float>(slot, value);
      break;
    case ScalarType::kDouble:
      Store<double>(slot, value);
      break;
    case ScalarType::kInt:
      Store<std::int32_t>(slot, value);
      break;
    case ScalarType::kUint:
      Store<std::uint32_t>(slot, value);
      break;
    case ScalarType::kInt64:
      Store<std::int64_t>(slot, value);
      break;
    case ScalarType::kUint64:
      Store<std::uint64_t>(slot, value);
      break;
  }
}

}  // namespace tuner
