// One candidate measured through fake workers: its record from the reply, the retry after a kill
// with a fresh worker, the candidate that killed two workers, and the stop. No GPU.
#include "sweep/candidate_measurer.h"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

#include "fake_worker.h"
#include "measuring_fixture.h"
#include "search/retry_policy.h"

namespace tuner {
namespace {

using testing::FakeWorker;
using testing::kDone;
using testing::kOkReply;
using testing::Measuring;

TEST(CandidateMeasurer, TheRecordTakesTheReplysTimesAndTheLoadedKernelsResources) {
  FakeWorker fake(kDone, kOkReply);
  Measuring m(fake);
  const db::MeasurementRecord record = m.measurer.Measure(m.compiled, false, 0).value();
  EXPECT_EQ(record.status, CandidateStatus::kOk);
  EXPECT_EQ(record.time_ms_median, 2.0);
  EXPECT_EQ(record.time_ms_min, 1.5);
  EXPECT_EQ(record.time_ms_max, 3.0);
  EXPECT_EQ(record.samples, 12);
  EXPECT_EQ(record.regs_per_thread, 40);
  EXPECT_EQ(record.perf_unit, "GB/s");
  EXPECT_EQ(record.worker_kills, 0);
  EXPECT_EQ(m.measurer.best_ms(), 2.0);
  EXPECT_TRUE(m.committed.empty());  // the caller stores it
}

TEST(CandidateMeasurer, ACandidateThatKillsItsWorkerOnceIsTriedAgainWithAFreshOne) {
  FakeWorker fake(kDone, std::string("if [ -f FILE ]; then ") + kOkReply + "; else touch FILE; exit 1; fi");
  Measuring m(fake);
  const db::MeasurementRecord record = m.measurer.Measure(m.compiled, false, 0).value();
  EXPECT_EQ(record.status, CandidateStatus::kOk);
  EXPECT_EQ(record.worker_kills, 1);
  EXPECT_EQ(record.reason, "passed after killing its worker once; ");
  ASSERT_EQ(m.committed.size(), 1u);  // the kill, before the retry
  EXPECT_EQ(m.committed[0].status, CandidateStatus::kFault);
  EXPECT_EQ(m.committed[0].worker_kills, 1);
  EXPECT_EQ(fake.Starts(), 2);
}

TEST(CandidateMeasurer, ACandidateThatKilledTwoWorkersIsNotTriedAgain) {
  FakeWorker fake(kDone, "exit 1");
  Measuring m(fake);
  const db::MeasurementRecord record = m.measurer.Measure(m.compiled, false, 0).value();
  EXPECT_EQ(record.status, CandidateStatus::kFault);
  EXPECT_EQ(record.worker_kills, 2);
  EXPECT_EQ(record.reason, "the worker exited with status 1 (killed its worker 2 times; not tried again)");
  EXPECT_EQ(m.committed.size(), 1u);
  EXPECT_EQ(fake.Starts(), 2);

  FakeWorker again(kDone, "exit 1");  // a candidate stored with one kill gets one more try
  Measuring resumed(again);
  EXPECT_EQ(resumed.measurer.Measure(resumed.compiled, false, 1)->worker_kills, 2);
  EXPECT_TRUE(resumed.committed.empty());
  EXPECT_EQ(again.Starts(), 1);
}

TEST(CandidateMeasurer, AHangIsATimeout) {
  FakeWorker fake(kDone, "exec sleep 30");
  Measuring m(fake);
  const db::MeasurementRecord record = m.measurer.Measure(m.compiled, false, 1).value();  // a deadline of 1 s, no retry
  EXPECT_EQ(record.status, CandidateStatus::kTimeout);
  EXPECT_NE(record.reason.find("no answer within"), std::string::npos) << record.reason;
}

// A hang cost its 10 s deadline twice. After a candidate answered in milliseconds the
// deadline is 3 s (1 s plus a thousand times 2 ms), and a worker that had answered before, with a
// fresh one setting up after it, shows that the hang was the candidate's: no second try.
TEST(CandidateMeasurer, AHangAfterAnAnswerIsCutSoonAndNotTriedAgain) {
  FakeWorker fake(kDone, std::string("if [ -f FILE ]; then exec sleep 30; else touch FILE; ") + kOkReply + "; fi");
  Measuring m(fake);
  ASSERT_EQ(m.measurer.Measure(m.compiled, false, 0)->status, CandidateStatus::kOk);
  const auto start = std::chrono::steady_clock::now();
  const db::MeasurementRecord record = m.measurer.Measure(m.compiled, false, 0).value();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(record.status, CandidateStatus::kTimeout);
  EXPECT_NE(record.reason.find("no answer within 3"), std::string::npos) << record.reason;
  EXPECT_NE(record.reason.find("the hang is the candidate's; not tried again"), std::string::npos) << record.reason;
  EXPECT_EQ(record.worker_kills, kMaxWorkerKills) << "final";
  EXPECT_LT(seconds, 6);
  EXPECT_EQ(fake.Requests("measure"), 2);
  EXPECT_EQ(fake.Starts(), 2) << "the fresh worker that set up after the hang";
  EXPECT_TRUE(m.committed.empty());
}

TEST(CandidateMeasurer, AHangOfAWorkerThatNeverAnsweredIsTriedAgain) {
  FakeWorker fake(kDone, "exec sleep 30");
  Measuring m(fake);
  CandidateMeasurer quick(m.worker, m.pipeline, m.records, m.stop,
                          [&m](const db::MeasurementRecord& r) { m.committed.push_back(r); }, 0.3);
  const db::MeasurementRecord record = quick.Measure(m.compiled, false, 0).value();
  EXPECT_EQ(record.status, CandidateStatus::kTimeout);
  EXPECT_EQ(record.worker_kills, 2);
  EXPECT_NE(record.reason.find("(killed its worker 2 times; not tried again)"), std::string::npos) << record.reason;
  EXPECT_EQ(fake.Requests("measure"), 2) << "the GPU may have been at fault: tried again";
  ASSERT_EQ(m.committed.size(), 1u);
}

TEST(CandidateMeasurer, AWorkerThatCannotTakeTheCandidateUpGivesALaunchError) {
  FakeWorker fake(kDone, R"(echo '{"ok":false,"error":"cannot read the compiled kernel k.cubin","worker_s":0}')");
  Measuring m(fake);
  const db::MeasurementRecord record = m.measurer.Measure(m.compiled, false, 0).value();
  EXPECT_EQ(record.status, CandidateStatus::kLaunchError);
  EXPECT_EQ(record.reason, "cannot read the compiled kernel k.cubin");
}

TEST(CandidateMeasurer, ACandidateThatCannotRunNeverReachesTheWorker) {
  FakeWorker fake(kDone, kOkReply);
  Measuring m(fake);
  m.compiled.invalid_reason = "the block has more threads than the GPU allows";
  EXPECT_EQ(m.measurer.Measure(m.compiled, false, 0)->status, CandidateStatus::kInvalid);
  m.compiled.invalid_reason.clear();
  m.compiled.compile.result.ok = false;
  EXPECT_EQ(m.measurer.Measure(m.compiled, false, 0)->status, CandidateStatus::kCompileError);
  EXPECT_EQ(fake.Starts(), 0);
}

TEST(CandidateMeasurer, AStoppedSweepsCandidateIsInterruptedAndNothingIsCounted) {
  FakeWorker fake(kDone, "exit 1");
  Measuring m(fake);
  m.stop.GpuFailed();
  EXPECT_FALSE(m.measurer.Measure(m.compiled, false, 0).has_value());
  EXPECT_TRUE(m.committed.empty());
  EXPECT_EQ(fake.Starts(), 0);
}

}  // namespace
}  // namespace tuner
