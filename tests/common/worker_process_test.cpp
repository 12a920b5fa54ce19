// The supervisor's handle on a child process, with /bin/sh as the child: a reply, a child that
// hangs (killed at its deadline), one that dies or sends garbage (reported, and gone for good, so
// the caller starts a new one), an interrupt, and a destructor that does not wait on a stuck child.
#include "common/worker_process.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <thread>

#include "db_test_util.h"

namespace tuner {
namespace {

using db::testing::TempDir;

// A child running `script` in sh.
WorkerProcess Shell(const std::string& script) { return WorkerProcess("/bin/sh", {"-c", script}); }

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The pid the child wrote to `file`, once it has.
pid_t PidIn(const std::string& file) {
  for (int i = 0; i < 500; ++i) {
    pid_t pid = 0;
    if (std::ifstream(file) >> pid && pid > 0) return pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return 0;
}

bool Exists(pid_t pid) { return kill(pid, 0) == 0 || errno != ESRCH; }

TEST(WorkerProcess, ARequestGetsItsOneLineReply) {
  WorkerProcess child = Shell("while read line; do echo \"{\\\"echo\\\": $line}\"; done");
  for (int i = 0; i < 3; ++i) {
    const WorkerProcess::Reply reply = child.Call({{"n", i}}, 10);
    ASSERT_EQ(reply.outcome, WorkerProcess::Outcome::kReplied) << reply.detail;
    EXPECT_EQ(reply.body, nlohmann::json({{"echo", {{"n", i}}}}));
  }
  EXPECT_TRUE(child.Alive());
}

TEST(WorkerProcess, AChildThatHangsIsKilledAtItsDeadline) {
  TempDir dir;
  WorkerProcess child = Shell("echo $$ > " + dir.File("pid") + "; read line; exec sleep 600");
  const pid_t pid = PidIn(dir.File("pid"));
  ASSERT_GT(pid, 0);
  const auto start = std::chrono::steady_clock::now();
  const WorkerProcess::Reply reply = child.Call({{"op", "hang"}}, 0.5);
  EXPECT_EQ(reply.outcome, WorkerProcess::Outcome::kTimedOut);
  EXPECT_NE(reply.detail.find("the worker was killed"), std::string::npos) << reply.detail;
  EXPECT_GE(SecondsSince(start), 0.5);
  EXPECT_LT(SecondsSince(start), 5.0);
  EXPECT_FALSE(child.Alive());
  EXPECT_FALSE(Exists(pid));  // killed and reaped, not left running or a zombie
}

TEST(WorkerProcess, AChildThatDiesIsReportedWithHowAndStaysDead) {
  WorkerProcess crashing = Shell("read line; kill -KILL $$");
  WorkerProcess::Reply reply = crashing.Call({{"op", "crash"}}, 10);
  EXPECT_EQ(reply.outcome, WorkerProcess::Outcome::kDied);
  EXPECT_EQ(reply.detail, std::string("the worker was killed by signal ") + strsignal(SIGKILL));
  EXPECT_FALSE(crashing.Alive());
  reply = crashing.Call({{"op", "again"}}, 10);
  EXPECT_EQ(reply.outcome, WorkerProcess::Outcome::kDied);
  EXPECT_EQ(reply.detail, "the worker is not running");

  WorkerProcess exiting = Shell("read line; exit 3");
  reply = exiting.Call({{"op", "exit"}}, 10);
  EXPECT_EQ(reply.outcome, WorkerProcess::Outcome::kDied);
  EXPECT_EQ(reply.detail, "the worker exited with status 3");
}

// A child out of step with its requests would answer the next request with this one's leftovers.
TEST(WorkerProcess, AMalformedReplyIsNoReplyAndEndsTheChild) {
  TempDir dir;
  WorkerProcess child = Shell("echo $$ > " + dir.File("pid") + "; read line; echo 'not json'; exec sleep 600");
  const pid_t pid = PidIn(dir.File("pid"));
  ASSERT_GT(pid, 0);
  const WorkerProcess::Reply reply = child.Call({{"op", "x"}}, 10);
  EXPECT_EQ(reply.outcome, WorkerProcess::Outcome::kDied);
  EXPECT_EQ(reply.detail, "the worker sent a malformed reply; it was killed");
  EXPECT_FALSE(child.Alive());
  EXPECT_FALSE(Exists(pid));
}

TEST(WorkerProcess, AnInterruptKillsTheChildItWaitsFor) {
  TempDir dir;
  WorkerProcess child = Shell("echo $$ > " + dir.File("pid") + "; read line; exec sleep 600");
  const pid_t pid = PidIn(dir.File("pid"));
  ASSERT_GT(pid, 0);
  std::atomic<bool> interrupted{false};
  std::thread ctrl_c([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    interrupted = true;
  });
  const auto start = std::chrono::steady_clock::now();
  const WorkerProcess::Reply reply = child.Call({{"op", "hang"}}, 60, [&] { return interrupted.load(); });
  ctrl_c.join();
  EXPECT_EQ(reply.outcome, WorkerProcess::Outcome::kInterrupted);
  EXPECT_LT(SecondsSince(start), 5.0);
  EXPECT_FALSE(Exists(pid));
}

TEST(WorkerProcess, TheDestructorKillsAChildThatDoesNotQuit) {
  TempDir dir;
  pid_t pid = 0;
  const auto start = std::chrono::steady_clock::now();
  {
    WorkerProcess child = Shell("echo $$ > " + dir.File("pid") + "; exec sleep 600");  // ignores its stdin
    pid = PidIn(dir.File("pid"));
  }
  ASSERT_GT(pid, 0);
  EXPECT_LT(SecondsSince(start), 5.0);  // about a second's grace, then killed
  EXPECT_FALSE(Exists(pid));
}

TEST(WorkerProcess, AProgramThatCannotStartIsAnErrorNamingIt) {
  try {
    WorkerProcess child("/nonexistent/tuner", {"__compile"});
    FAIL() << "expected a runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              std::string("cannot start /nonexistent/tuner __compile: ") + std::strerror(ENOENT));
  }
}

}  // namespace
}  // namespace tuner
