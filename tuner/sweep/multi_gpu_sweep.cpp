#include "sweep/multi_gpu_sweep.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "base/errors.h"
#include "common/option_values.h"
#include "base/number_text.h"
#include "db/query/gpu_model.h"

namespace tuner {

namespace {

// Where the sweeps of one model's cards meet once their shares are measured.
class LeaderPool {
 public:
  LeaderPool(std::size_t sweeps, std::shared_ptr<const SweepStop> stop) : expected_(sweeps), stop_(std::move(stop)) {}

  std::vector<Leader> Exchange(const std::vector<Leader>& own) {
    std::unique_lock<std::mutex> lock(mutex_);
    leaders_.insert(leaders_.end(), own.begin(), own.end());
    ++arrived_;
    all_arrived_.notify_all();
    // A sweep that failed or was interrupted never arrives; the stop says so then.
    while (arrived_ < expected_ && !stop_->Requested()) all_arrived_.wait_for(lock, std::chrono::milliseconds(100));
    std::vector<Leader> sorted;
    for (const Leader& leader : leaders_) {  // one entry per candidate, its fastest
      auto same = std::find_if(sorted.begin(), sorted.end(),
                               [&](const Leader& l) { return l.params_json == leader.params_json; });
      if (same == sorted.end())
        sorted.push_back(leader);
      else
        same->time_ms = std::min(same->time_ms, leader.time_ms);
    }
    const std::size_t all = sorted.size();
    return FastestFirst(std::move(sorted), all);
  }

 private:
  std::size_t expected_;
  std::shared_ptr<const SweepStop> stop_;
  std::size_t arrived_ = 0;
  std::vector<Leader> leaders_;
  std::mutex mutex_;
  std::condition_variable all_arrived_;
};

}  // namespace

std::vector<GpuSweep> ShareByModel(const SweepOptions& base, const std::vector<GpuInfo>& gpus) {
  std::map<db::GpuModel, std::size_t> per_model;
  for (const GpuInfo& g : gpus) ++per_model[db::ModelOf(g)];
  std::map<db::GpuModel, std::size_t> next_shard;
  std::map<db::GpuModel, std::shared_ptr<LeaderPool>> pools;
  std::vector<GpuSweep> sweeps;
  for (const GpuInfo& g : gpus) {
    const db::GpuModel model = db::ModelOf(g);
    SweepOptions options = base;
    options.shards = per_model[model];
    options.shard = next_shard[model]++;
    if (options.shards > 1) {
      auto& pool = pools[model];
      if (!pool) pool = std::make_shared<LeaderPool>(options.shards, options.stop);
      options.leader_exchange = [pool](const std::vector<Leader>& own) { return pool->Exchange(own); };
    }
    sweeps.push_back({g, options});
  }
  return sweeps;
}

std::vector<SweepOutcome> RunSweeps(const SweepTarget& target, const std::vector<GpuSweep>& sweeps, db::Store& store) {
  std::vector<SweepOutcome> outcomes(sweeps.size());
  std::vector<std::exception_ptr> errors(sweeps.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < sweeps.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        outcomes[i] = RunSweep(target, sweeps[i].gpu, sweeps[i].options, store);
      } catch (...) {
        errors[i] = std::current_exception();
        for (const GpuSweep& other : sweeps) other.options.stop->GpuFailed();  // the command fails as a whole
      }
    });
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
  return outcomes;
}

}  // namespace tuner
