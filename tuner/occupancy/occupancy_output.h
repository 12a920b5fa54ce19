// What `tuner occupancy` prints: the text report and the JSON document (keys scripts rely on:
// blocks_per_sm, warps_per_sm, occupancy, limiter, and the others documented in occupancy_output.cpp).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <vector>

#include "occupancy/occupancy.h"
#include "occupancy/occupancy_curve.h"

namespace tuner {

struct OccupancyReport {
  DeviceLimits device;
  KernelResources kernel;
  OccupancyResult result;
  std::vector<Suggestion> suggestions;
  std::optional<VaryInput> vary;  // set with --vary
  std::vector<CurvePoint> curve;
  nlohmann::json source;  // with --kernel: the template, its parameters and what the cubin uses
};

nlohmann::json OccupancyJson(const OccupancyReport& report);
nlohmann::json DeviceJson(const DeviceLimits& device);
void PrintOccupancy(const OccupancyReport& report, std::ostream& out);

}  // namespace tuner
