#include "sweep/current_toolchain.h"

#include "compile/compiler.h"
#include "cuda/device.h"

namespace tuner {

db::Toolchain CurrentToolchain() {
  const std::string driver = DriverVersion();
  return {driver == "none" ? "" : driver, RuntimeVersion(), NvrtcVersion()};
}

}  // namespace tuner
