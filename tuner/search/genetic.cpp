#include "search/genetic.h"

#include <algorithm>

#include "search/strategy_base.h"

namespace tuner {

namespace {

constexpr std::size_t kMinPopulation = 4;
constexpr std::size_t kMaxPopulation = 24;
constexpr std::size_t kPopulationDivisor = 24;  // of the number of candidates
constexpr int kChildAttempts = 32;

class Genetic : public GraphStrategy {
 public:
  Genetic(CandidateGraph graph, const StrategyOptions& options)
      : GraphStrategy(std::move(graph), options),
        population_(std::clamp(CandidateCount() / kPopulationDivisor, kMinPopulation, kMaxPopulation)) {}

 private:
  std::optional<std::size_t> Propose() override {
    if (Converged()) return std::nullopt;
    const std::vector<std::size_t> population = Fastest(population_);
    if (VisitedCount() < population_ || population.size() < 2) return RandomUnvisited();
    for (int attempt = 0; attempt < kChildAttempts; ++attempt) {
      const auto child = graph().Find(Child(population));
      if (child && !Visited(*child)) return child;
    }
    for (const std::size_t member : population)
      if (const auto n = RandomUnvisitedNeighbour(member)) return n;
    std::optional<std::size_t> from;
    return FrontierProposal(&from);
  }

  std::vector<std::size_t> Child(const std::vector<std::size_t>& population) {
    const std::vector<std::size_t>& a = graph().Coordinates(Tournament(population));
    const std::vector<std::size_t>& b = graph().Coordinates(Tournament(population));
    std::vector<std::size_t> child(a.size());
    for (std::size_t d = 0; d < child.size(); ++d) child[d] = rng().Below(2) ? a[d] : b[d];
    const double mutation = 1.0 / static_cast<double>(std::max<std::size_t>(1, child.size()));
    for (std::size_t d = 0; d < child.size(); ++d) {
      if (rng().Uniform() >= mutation) continue;
      if (rng().Below(2) && child[d] + 1 < graph().Extent(d))
        ++child[d];
      else if (child[d] > 0)
        --child[d];
    }
    return child;
  }

  // The faster of two members drawn at random (population is sorted fastest first).
  std::size_t Tournament(const std::vector<std::size_t>& population) {
    const std::size_t first = rng().Below(population.size());  // drawn in a fixed order
    const std::size_t second = rng().Below(population.size());
    return population[std::min(first, second)];
  }

  std::size_t population_;
};

}  // namespace

std::unique_ptr<SearchStrategy> MakeGenetic(CandidateGraph graph, const StrategyOptions& options) {
  return std::make_unique<Genetic>(std::move(graph), options);
}

}  // namespace tuner
