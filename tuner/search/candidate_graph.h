// The neighbourhood of the enumerated candidates that annealing and the genetic algorithm walk:
// two candidates are neighbours when they differ in one parameter only, by one step along its value
// list, ordered by value (templates may list the reference value first). Where the constraints
// leave out the adjacent value, the nearest enumerated value in that direction is taken instead, so
// constrained spaces stay connected.
#pragma once

#include <cstddef>
#include <optional>
#include <unordered_map>
#include <vector>

#include "template/search_space.h"
#include "template/template_spec.h"

namespace tuner {

class CandidateGraph {
 public:
  // Throws std::invalid_argument when a candidate does not carry the parameters of `params` in
  // order, or has a value that is not in its parameter's list.
  CandidateGraph(const std::vector<ParamValues>& candidates, const std::vector<ParamSpec>& params);

  std::size_t size() const { return coordinates_.size(); }
  std::size_t dimensions() const { return extents_.size(); }
  std::size_t Extent(std::size_t dimension) const { return extents_[dimension]; }

  // Per parameter, the rank of the candidate's value among the parameter's distinct values.
  const std::vector<std::size_t>& Coordinates(std::size_t candidate) const { return coordinates_[candidate]; }
  const std::vector<std::size_t>& Neighbours(std::size_t candidate) const { return neighbours_[candidate]; }
  // The enumerated candidate at these coordinates, if any.
  std::optional<std::size_t> Find(const std::vector<std::size_t>& coordinates) const;

 private:
  std::size_t Key(const std::vector<std::size_t>& coordinates) const;
  void LinkNeighbours();

  std::vector<std::size_t> extents_;
  std::vector<std::vector<std::size_t>> coordinates_;
  std::vector<std::vector<std::size_t>> neighbours_;
  std::unordered_map<std::size_t, std::size_t> index_;  // mixed-radix key -> candidate
};

}  // namespace tuner
