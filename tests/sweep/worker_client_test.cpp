// The supervisor's worker client with fake workers (shell scripts that answer as a worker would):
// started and set up once, restarted after a hang or a kill with the same setup, stopped by the
// sweep's stop, and its calls' time split into GPU work and waiting. No GPU.
#include "sweep/worker_client.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "fake_worker.h"

namespace tuner {
namespace {

using testing::FakeWorker;
using testing::kDone;

struct Client {
  explicit Client(const FakeWorker& fake, bool wants_profiler = false)
      : client(
            fake.path(),
            [this] {
              ++setups_made;
              return SetupRequest{};
            },
            "small", clock, stop, [wants_profiler] { return wants_profiler; }) {}
  SweepClock clock;
  SweepStop stop;
  int setups_made = 0;
  WorkerClient client;
};

MeasureRequest SomeMeasure() { return MeasureRequest{}; }

TEST(WorkerClient, TheFirstCallStartsAndSetsUpTheWorkerWhichLaterCallsReuse) {
  FakeWorker fake(kDone);
  Client c(fake);
  const WorkerAnswer<CopyBandwidthReply> copy = c.client.Call(CopyBandwidthRequest{1024}, 10);
  ASSERT_EQ(copy.outcome, WorkerProcess::Outcome::kReplied) << copy.failure;
  ASSERT_TRUE(copy.body.has_value()) << copy.failure;
  EXPECT_EQ(copy.body->gbps, 2500);
  EXPECT_TRUE(c.client.Call(WarmUpRequest{}, 10).body.has_value());
  c.client.Stop();
  EXPECT_EQ(fake.Starts(), 1);
  EXPECT_EQ(fake.Requests("setup"), 1);
  EXPECT_EQ(c.setups_made, 1);
}

TEST(WorkerClient, AWorkerThatWillProfileBuildsItsProfilerFromItsSetupOn) {
  FakeWorker fake(kDone);
  Client profiling(fake, true);
  profiling.client.Call(WarmUpRequest{}, 10);
  profiling.client.Stop();
  EXPECT_EQ(fake.Requests("prepare_profiler"), 1);
  FakeWorker other(kDone);
  Client timing_only(other);
  timing_only.client.Call(WarmUpRequest{}, 10);
  timing_only.client.Stop();
  EXPECT_EQ(other.Requests("prepare_profiler"), 0);
}

TEST(WorkerClient, AHungWorkerIsKilledAtTheDeadlineAndTheNextCallStartsAnotherWithTheSameSetup) {
  FakeWorker fake(kDone, "exec sleep 30");
  Client c(fake);
  const WorkerAnswer<MeasureReply> hung = c.client.Call(SomeMeasure(), 0.3);
  EXPECT_EQ(hung.outcome, WorkerProcess::Outcome::kTimedOut);
  EXPECT_NE(hung.failure.find("the worker was killed"), std::string::npos) << hung.failure;
  EXPECT_TRUE(c.client.Call(WarmUpRequest{}, 10).body.has_value());
  c.client.Stop();
  EXPECT_EQ(fake.Starts(), 2);
  EXPECT_EQ(fake.Requests("setup"), 2);
  EXPECT_EQ(c.setups_made, 1);  // the reference is compiled once per sweep
}

TEST(WorkerClient, AKilledWorkerIsStartedAgainByTheNextCall) {
  FakeWorker fake(kDone);
  Client c(fake);
  EXPECT_TRUE(c.client.Call(WarmUpRequest{}, 10).body.has_value());
  c.client.Kill();
  EXPECT_TRUE(c.client.Call(WarmUpRequest{}, 10).body.has_value());
  c.client.Stop();
  EXPECT_EQ(fake.Starts(), 2);
}

TEST(WorkerClient, AWorkerThatDiesIsSaidSoAndTheWorkersErrorIsPassedOn) {
  FakeWorker dies(kDone, "exit 1");
  Client c(dies);
  const WorkerAnswer<MeasureReply> died = c.client.Call(SomeMeasure(), 10);
  EXPECT_EQ(died.outcome, WorkerProcess::Outcome::kDied);
  EXPECT_EQ(died.failure, "the worker exited with status 1");

  FakeWorker refuses(kDone, R"(echo '{"ok":false,"error":"cannot read the compiled kernel x","worker_s":0}')");
  Client d(refuses);
  const WorkerAnswer<MeasureReply> refused = d.client.Call(SomeMeasure(), 10);
  EXPECT_EQ(refused.outcome, WorkerProcess::Outcome::kReplied);
  EXPECT_FALSE(refused.body.has_value());
  EXPECT_EQ(refused.failure, "cannot read the compiled kernel x");
}

TEST(WorkerClient, AStoppedSweepsCallIsInterrupted) {
  FakeWorker fake(kDone, "exec sleep 30");
  Client c(fake);
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    c.stop.GpuFailed();
  });
  const WorkerAnswer<MeasureReply> stopped = c.client.Call(SomeMeasure(), 20);
  stopper.join();
  EXPECT_EQ(stopped.outcome, WorkerProcess::Outcome::kInterrupted);
  EXPECT_EQ(c.client.Call(WarmUpRequest{}, 10).outcome, WorkerProcess::Outcome::kInterrupted);  // never set up again
}

TEST(WorkerClient, AWorkerThatCannotBeSetUpIsAnErrorNamingTheTemplateAndTheReason) {
  FakeWorker fake(R"({"ok":false,"error":"this command needs a CUDA GPU","worker_s":0})");
  Client c(fake);
  try {
    c.client.Call(WarmUpRequest{}, 10);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the GPU worker could not set up small: this command needs a CUDA GPU");
  }
}

TEST(WorkerClient, AReferenceThatHangsIsStoppedAtItsOwnLimitNamingItAndTheLimit) {
  FakeWorker fake(kDone, "", "", "exec sleep 30");
  SweepClock clock;
  SweepStop stop;
  WorkerClient client(
      fake.path(),
      [] {
        SetupRequest setup;
        setup.reference_label = "the reference kernel k_reference (VARIANT=0)";
        return setup;
      },
      "small", clock, stop, {}, 0.5);
  const auto start = std::chrono::steady_clock::now();
  try {
    client.Call(WarmUpRequest{}, 10);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(),
                 "the reference kernel k_reference (VARIANT=0) of small ran past its time limit of 0.5 s and was "
                 "stopped; if it needs longer, raise the limit with tune --reference-timeout");
  }
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 10);
  EXPECT_EQ(fake.Requests("reference"), 1);
}

TEST(WorkerClient, AReferenceThatFailsIsAnErrorNamingIt) {
  FakeWorker fake(kDone, "", "", R"(echo '{"ok":false,"error":"argument 3 does not fit","worker_s":0}')");
  Client c(fake);
  try {
    c.client.Call(WarmUpRequest{}, 10);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "the reference of small could not run: argument 3 does not fit");
  }
}

TEST(WorkerClient, TheWorkersOwnSecondsAreGpuWorkAndTheRestWaiting) {
  FakeWorker fake(kDone);
  Client c(fake);
  c.client.Call(WarmUpRequest{}, 10);
  c.client.Stop();
  const SweepTime time = c.clock.Split();
  EXPECT_GT(time.gpu_s, 0);
  EXPECT_LE(time.gpu_s, 3 * 0.0001 + 1e-12);  // setup, reference and warm-up, as the worker said
  EXPECT_GT(time.waiting_s, 0);               // starting and stopping it, and the pipes
}

}  // namespace
}  // namespace tuner
