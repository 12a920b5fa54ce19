#include "search/candidate_graph.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <stdexcept>
#include <string>

namespace tuner {

namespace {

// The value's rank among the parameter's distinct values: neighbours are the next smaller and
// larger values, whatever order the template lists them in.
std::size_t Position(const ParamSpec& param, long long value, std::size_t candidate) {
  if (std::find(param.values.begin(), param.values.end(), value) == param.values.end())
    throw std::invalid_argument("candidate " + std::to_string(candidate) + ": " + param.name + "=" +
                                std::to_string(value) + " is not one of the parameter's values");
  const std::set<long long> distinct(param.values.begin(), param.values.end());
  return static_cast<std::size_t>(std::distance(distinct.begin(), distinct.find(value)));
}

}  // namespace

CandidateGraph::CandidateGraph(const std::vector<ParamValues>& candidates, const std::vector<ParamSpec>& params) {
  for (const ParamSpec& p : params)
    extents_.push_back(std::max<std::size_t>(1, std::set<long long>(p.values.begin(), p.values.end()).size()));
  coordinates_.reserve(candidates.size());
  for (std::size_t c = 0; c < candidates.size(); ++c) {
    const ParamValues& values = candidates[c];
    if (values.size() != params.size())
      throw std::invalid_argument("candidate " + std::to_string(c) + " has " + std::to_string(values.size()) +
                                  " parameters, the template " + std::to_string(params.size()));
    std::vector<std::size_t> coordinates;
    for (std::size_t d = 0; d < params.size(); ++d) {
      if (values[d].first != params[d].name)
        throw std::invalid_argument("candidate " + std::to_string(c) + ": parameter " + std::to_string(d) + " is '" +
                                    values[d].first + "', expected '" + params[d].name + "'");
      coordinates.push_back(Position(params[d], values[d].second, c));
    }
    if (!index_.emplace(Key(coordinates), c).second)
      throw std::invalid_argument("candidate " + std::to_string(c) + " repeats an earlier one");
    coordinates_.push_back(std::move(coordinates));
  }
  LinkNeighbours();
}

std::size_t CandidateGraph::Key(const std::vector<std::size_t>& coordinates) const {
  std::size_t key = 0;
  for (std::size_t d = 0; d < extents_.size(); ++d) key = key * extents_[d] + coordinates[d];
  return key;
}

std::optional<std::size_t> CandidateGraph::Find(const std::vector<std::size_t>& coordinates) const {
  if (coordinates.size() != extents_.size()) return std::nullopt;
  for (std::size_t d = 0; d < extents_.size(); ++d)
    if (coordinates[d] >= extents_[d]) return std::nullopt;
  const auto it = index_.find(Key(coordinates));
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

// Along each parameter, both ways: the nearest enumerated candidate.
void CandidateGraph::LinkNeighbours() {
  neighbours_.assign(coordinates_.size(), {});
  for (std::size_t c = 0; c < coordinates_.size(); ++c) {
    for (std::size_t d = 0; d < extents_.size(); ++d) {
      for (const bool up : {false, true}) {
        std::vector<std::size_t> probe = coordinates_[c];
        while (up ? probe[d] + 1 < extents_[d] : probe[d] > 0) {
          probe[d] = up ? probe[d] + 1 : probe[d] - 1;
          if (const auto n = Find(probe)) {
            neighbours_[c].push_back(*n);
            break;
          }
        }
      }
    }
  }
}

}  // namespace tuner
