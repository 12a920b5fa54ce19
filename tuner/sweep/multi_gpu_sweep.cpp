#include "sweep/multi_gpu_sweep.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "base/errors.h"
#include "common/option_values.h"
#include "base/number_text.h"

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

std::vector<int> ParseGpuList(const std::string& text) {
  std::vector<int> indices;
  if (text == "all") return indices;
  if (!std::regex_match(text, std::regex("[0-9]+(,[0-9]+)*")))
    throw UsageError("--gpus " + Quoted(text) + ": expected 'all' or GPU indices joined by commas, e.g. 0,1");
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const std::optional<WholeNumberText> number = ReadWholeNumber(item);
    if (!number || number->negative || !number->magnitude ||
        *number->magnitude > static_cast<unsigned long long>(INT_MAX))
      throw UsageError("--gpus " + Quoted(text) + ": expected 'all' or GPU indices joined by commas, e.g. 0,1");
    const int index = static_cast<int>(*number->magnitude);
    for (int seen : indices)
      if (seen == index) throw UsageError("--gpus " + Quoted(text) + ": GPU " + item + " is listed twice");
    indices.push_back(index);
  }
  if (indices.empty()) throw UsageError("--gpus " + Quoted(text) + ": no GPU given");
  return indices;
}

std::vector<GpuInfo> SelectGpus(const std::string& text) {
  const std::vector<int> indices = ParseGpuList(text);
  const GpuDiscovery found = DiscoverGpus();
  if (found.gpus.empty()) throw NoGpuError("this command needs a CUDA GPU, but " + found.problem + ".");
  if (indices.empty()) return found.gpus;
  std::vector<GpuInfo> selected;
  for (int index : indices) {
    if (index >= static_cast<int>(found.gpus.size()))
      throw UsageError("--gpus " + std::to_string(index) + ": this machine has GPUs 0.." +
                       std::to_string(found.gpus.size() - 1));
    selected.push_back(found.gpus[index]);
  }
  return selected;
}

db::GpuModel ModelOf(const GpuInfo& gpu) {
  return {gpu.name, gpu.cc_major, gpu.cc_minor, gpu.sm_count, gpu.memory_bytes};
}

std::vector<SweepOptions> ShareByModel(const SweepOptions& base, const std::vector<GpuInfo>& gpus) {
  std::map<db::GpuModel, std::size_t> per_model;
  for (const GpuInfo& g : gpus) ++per_model[ModelOf(g)];
  std::map<db::GpuModel, std::size_t> next_shard;
  std::map<db::GpuModel, std::shared_ptr<LeaderPool>> pools;
  std::vector<SweepOptions> sweeps;
  for (const GpuInfo& g : gpus) {
    const db::GpuModel model = ModelOf(g);
    SweepOptions options = base;
    options.gpu = g.index;
    options.shards = per_model[model];
    options.shard = next_shard[model]++;
    if (options.shards > 1) {
      auto& pool = pools[model];
      if (!pool) pool = std::make_shared<LeaderPool>(options.shards, options.stop);
      options.leader_exchange = [pool](const std::vector<Leader>& own) { return pool->Exchange(own); };
    }
    sweeps.push_back(options);
  }
  return sweeps;
}

std::vector<SweepOutcome> RunSweeps(const TemplateSpec& spec, const std::vector<SweepOptions>& sweeps,
                                    db::Store& store) {
  std::vector<SweepOutcome> outcomes(sweeps.size());
  std::vector<std::exception_ptr> errors(sweeps.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < sweeps.size(); ++i)
    threads.emplace_back([&, i] {
      try {
        outcomes[i] = RunSweep(spec, sweeps[i], store);
      } catch (...) {
        errors[i] = std::current_exception();
        for (const SweepOptions& other : sweeps) other.stop->GpuFailed();  // the command fails as a whole
      }
    });
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& error : errors)
    if (error) std::rethrow_exception(error);
  return outcomes;
}

}  // namespace tuner
