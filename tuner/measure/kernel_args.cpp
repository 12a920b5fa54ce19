#include "measure/kernel_args.h"

namespace tuner {

void StoreScalar(std::uint64_t& slot, ScalarType type, double value) {
  slot = 0;
  StoreElement(&slot, type, 0, value);
}

}  // namespace tuner
