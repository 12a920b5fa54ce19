// The rows of `tuner db import`: read and checked with their progress in a batch job's plain lines.
#include "app/incoming_rows.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "db/query/store.h"
#include "db/row_json.h"
#include "db_test_util.h"

namespace tuner {
namespace {

using db::testing::TempDir;

// An export of `count` measurements of one sweep, as `tuner db export` writes it.
std::string WriteExport(const TempDir& dir, int count) {
  db::Store store = db::Store::Open(dir.File("source.db"), db::OpenMode::kReadWrite);
  const auto gpu = store.EnsureGpu(db::testing::SampleGpu());
  const auto sweep = store.StartSweep(gpu, store.EnsureTemplate({"transpose", "h1", ""}), db::testing::SampleSweep());
  for (int i = 0; i < count; ++i) store.AddMeasurement(sweep, db::testing::SampleMeasurement(i + 1, 1.0 + i));
  store.FinishSweep(sweep, "done");
  std::string lines;
  for (const db::MeasurementRow& row : store.ListMeasurements({})) lines += db::ToJson(row).dump() + "\n";
  db::testing::WriteBytes(dir.File("rows.jsonl"), lines);
  return dir.File("rows.jsonl");
}

// The plain lines a progress report writes on a clock that moves a second at each reading: the
// done and total of each (the estimate of a long task's time, said once, left out).
struct PlainLines {
  PlainLines() : file(std::tmpfile()) {}
  ~PlainLines() { std::fclose(file); }
  ProgressBar Bar(const std::string& what) {
    return ProgressBar(ProgressStyle::kLines, what, false, file,
                       [t = std::chrono::steady_clock::time_point{}]() mutable { return t += std::chrono::seconds(1); });
  }
  std::vector<std::pair<std::size_t, std::size_t>> Read(const std::string& what) {
    std::fflush(file);
    std::rewind(file);
    std::vector<std::pair<std::size_t, std::size_t>> counts;
    char line[512];
    while (std::fgets(line, sizeof line, file)) {
      if (std::string(line).find(" to do; at the pace of the first ") != std::string::npos) continue;  // the estimate
      std::size_t done = 0, total = 0;
      EXPECT_EQ(std::sscanf(line, (what + ": %zu/%zu").c_str(), &done, &total), 2) << line;
      counts.emplace_back(done, total);
    }
    return counts;
  }
  std::FILE* file;
};

TEST(IncomingRows, ReadingAFileReportsTheLinesReadOfATotalEstimatedFromItsSize) {
  TempDir dir;
  const std::string path = WriteExport(dir, 300);
  PlainLines out;
  IncomingRows incoming;
  {
    ProgressBar bar = out.Bar("tuner db import: lines read");
    incoming = ReadJsonLines(path, &bar);
    bar.Finish();
  }
  EXPECT_EQ(incoming.rows.size(), 300u);
  const auto counts = out.Read("tuner db import: lines read");
  ASSERT_GE(counts.size(), 10u);  // a line every 10 s or 5%, of 300 lines a second each
  for (const auto& [done, total] : counts) {
    EXPECT_NEAR(static_cast<double>(total), 300.0, 30.0);  // the lines are of nearly one length
    EXPECT_LE(done, total);
  }
  EXPECT_EQ(counts.back(), std::make_pair(std::size_t{300}, std::size_t{300}));
}

TEST(IncomingRows, CheckingReportsTheRowsChecked) {
  TempDir dir;
  const IncomingRows incoming = ReadJsonLines(WriteExport(dir, 300));
  PlainLines out;
  {
    ProgressBar bar = out.Bar("tuner db import: rows checked");
    CheckIncoming(incoming, "import", dir.File("target.db"), {}, &bar);
    bar.Finish();
  }
  const auto counts = out.Read("tuner db import: rows checked");
  ASSERT_GE(counts.size(), 10u);
  for (const auto& [done, total] : counts) EXPECT_EQ(total, 300u);
  EXPECT_EQ(counts.back().first, 300u);
}

}  // namespace
}  // namespace tuner
