// What an application pays for its tuned configurations: TunedConfigs::Open, the first lookup of a
// kernel (it reads the kernel's best rows) and the lookups after it (memory only). Open and first
// lookup are timed in fresh processes, as an application meets them. bench/bench_lookup.sh runs
// it for bench/benchmarks.md. Not a unit test.
//   lookup_benchmark [--db PATH] [--runs N] [--iterations N]   time lookups (default: synthetic database)
//   lookup_benchmark --make PATH                               only build the synthetic database
// The synthetic database: db/synthetic_database.h (30,720 measurements).
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "db/query/tuned_config.h"
#include "db/synthetic_database.h"

namespace {

using Clock = std::chrono::steady_clock;

double MicrosecondsSince(Clock::time_point start) {
  return std::chrono::duration<double, std::micro>(Clock::now() - start).count();
}

// CPU time of this thread: on a shared machine, what the work costs without the waiting.
double CpuMicroseconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return now.tv_sec * 1e6 + now.tv_nsec / 1e3;
}

const tuner::GpuIdentity kH100{"NVIDIA H100 80GB HBM3", 9, 0, 132, 85'000'000'000, "GPU-h100-a"};

struct ColdTimes {
  double open_us = 0;
  double first_lookup_us = 0;
  double open_cpu_us = 0;
  double first_lookup_cpu_us = 0;
};

// Open and the first lookup in a new process (forked before this process opens the database).
ColdTimes TimeInFreshProcess(const std::string& db) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) std::exit(1);
  const pid_t child = fork();
  if (child == 0) {
    ColdTimes times;
    auto start = Clock::now();
    double cpu_start = CpuMicroseconds();
    const tuner::TunedConfigs configs = tuner::TunedConfigs::Open(db);
    times.open_us = MicrosecondsSince(start);
    times.open_cpu_us = CpuMicroseconds() - cpu_start;
    start = Clock::now();
    cpu_start = CpuMicroseconds();
    const bool found = bool(configs.Lookup("transpose", kH100, {8192, 8192}));
    times.first_lookup_us = MicrosecondsSince(start);
    times.first_lookup_cpu_us = CpuMicroseconds() - cpu_start;
    const bool sent = write(pipe_fds[1], &times, sizeof times) == static_cast<ssize_t>(sizeof times);
    _exit(found && sent ? 0 : 1);
  }
  close(pipe_fds[1]);
  ColdTimes times;
  const bool received = read(pipe_fds[0], &times, sizeof times) == static_cast<ssize_t>(sizeof times);
  close(pipe_fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (!received || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "the timing process failed (no transpose result for the H100 in %s?)\n", db.c_str());
    std::exit(1);
  }
  return times;
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

void PrintSpread(const char* what, std::vector<double> wall_us, const std::vector<double>& cpu_us) {
  std::sort(wall_us.begin(), wall_us.end());
  std::printf("%-34s median %8.1f us   min %8.1f us   max %8.1f us   CPU median %8.1f us   (%zu fresh processes)\n",
              what, wall_us[wall_us.size() / 2], wall_us.front(), wall_us.back(), Median(cpu_us), wall_us.size());
}

void MeasureColdStart(const std::string& db, int runs) {
  std::vector<double> open, first, both, open_cpu, first_cpu, both_cpu;
  for (int run = 0; run < runs; ++run) {
    const ColdTimes t = TimeInFreshProcess(db);
    open.push_back(t.open_us);
    first.push_back(t.first_lookup_us);
    both.push_back(t.open_us + t.first_lookup_us);
    open_cpu.push_back(t.open_cpu_us);
    first_cpu.push_back(t.first_lookup_cpu_us);
    both_cpu.push_back(t.open_cpu_us + t.first_lookup_cpu_us);
  }
  PrintSpread("open", open, open_cpu);
  PrintSpread("first lookup of a kernel", first, first_cpu);
  PrintSpread("open + first lookup", both, both_cpu);
}

// Times `lookup` one call at a time and prints the median, 99th percentile and mean in microseconds.
void Measure(const char* what, int iterations, const std::function<bool()>& lookup) {
  std::vector<double> us(static_cast<std::size_t>(iterations));
  int found = 0;
  for (double& t : us) {
    const auto start = Clock::now();
    found += lookup();
    t = MicrosecondsSince(start);
  }
  double mean = 0;
  for (double t : us) mean += t / iterations;
  std::sort(us.begin(), us.end());
  std::printf("%-34s median %7.2f us   p99 %7.2f us   mean %7.2f us   (%d/%d found)\n", what, us[us.size() / 2],
              us[us.size() * 99 / 100], mean, found, iterations);
}

void MeasureRepeatedLookups(const std::string& db, int iterations) {
  const tuner::TunedConfigs configs = tuner::TunedConfigs::Open(db);
  const tuner::GpuIdentity l40 = {"NVIDIA L40S", 8, 9, 142, 48'000'000'000, "GPU-x"};
  tuner::GpuIdentity other_card = kH100;
  other_card.uuid = "GPU-never-tuned";
  Measure("repeated: exact size, this card", iterations, [&] {
    return bool(configs.Lookup("transpose", kH100, {8192, 8192}));
  });
  Measure("repeated: nearest size, this card", iterations, [&] {
    return bool(configs.Lookup("transpose", kH100, {5000, 3000}));
  });
  Measure("repeated: same model, another card", iterations, [&] {
    return bool(configs.Lookup("transpose", other_card, {8192, 8192}));
  });
  Measure("repeated: by name \"H200\"", iterations, [&] {
    return bool(configs.Lookup("transpose", std::string("H200"), {8192, 8192}));
  });
  Measure("repeated: not found (other arch)", iterations, [&] {
    return bool(configs.Lookup("transpose", l40, {8192, 8192}));
  });
}

// Builds the synthetic database in a child, so that the processes forked to time open and first
// lookup start as small as an application's, not with the builder's heap to copy on write.
void MakeInAnotherProcess(const std::string& db) {
  std::fflush(stdout);
  const pid_t child = fork();
  if (child == 0) {
    std::printf("synthetic database %s: %zu measurements\n", db.c_str(), tuner::db::MakeSyntheticDatabase(db));
    std::fflush(stdout);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "building the synthetic database failed\n");
    std::exit(1);
  }
}

struct Options {
  std::string db;
  std::string make;
  int runs = 30;
  int iterations = 20000;
};

Options ParseOptions(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string name = argv[i];
    if (i + 1 >= argc || (name != "--db" && name != "--make" && name != "--runs" && name != "--iterations")) {
      std::fprintf(stderr, "usage: lookup_benchmark [--db PATH] [--runs N] [--iterations N] | --make PATH\n");
      std::exit(2);
    }
    const std::string value = argv[++i];
    if (name == "--db") options.db = value;
    if (name == "--make") options.make = value;
    if (name == "--runs") options.runs = std::max(1, std::atoi(value.c_str()));
    if (name == "--iterations") options.iterations = std::max(1, std::atoi(value.c_str()));
  }
  return options;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = ParseOptions(argc, argv);
  if (!options.make.empty()) {
    std::printf("synthetic database %s: %zu measurements\n", options.make.c_str(),
                tuner::db::MakeSyntheticDatabase(options.make));
    return 0;
  }
  std::printf("SQLite %s\n", sqlite3_libversion());
  const std::string folder = std::filesystem::temp_directory_path() / ("tuner-bench-" + std::to_string(getpid()));
  std::string db = options.db;
  if (db.empty()) {
    db = folder + "/bench.db";
    MakeInAnotherProcess(db);
  }
  MeasureColdStart(db, options.runs);
  MeasureRepeatedLookups(db, options.iterations);
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  return 0;
}
