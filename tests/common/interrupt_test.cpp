// Ctrl-C handling: the first SIGINT sets the flag, a second ends the process, an ignored SIGINT
// stays ignored, and one pending from before the handler is not lost. Each case runs in a child
// process, so this test's own signal handling is left alone.
#include "common/interrupt.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <functional>

namespace tuner {
namespace {

// Runs `body` in a child and returns its wait status.
int InChild(const std::function<int()>& body) {
  const pid_t pid = fork();
  if (pid == 0) _exit(body());
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

std::atomic<bool> g_flag{false};

TEST(Interrupt, FirstSigintSetsTheFlag) {
  const int status = InChild([] {
    StopOnInterrupt(&g_flag);
    raise(SIGINT);
    return g_flag ? 7 : 1;
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
}

TEST(Interrupt, SecondSigintEndsTheProcess) {
  const int status = InChild([] {
    StopOnInterrupt(&g_flag);
    raise(SIGINT);
    raise(SIGINT);
    return 1;
  });
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(WTERMSIG(status), SIGINT);
}

TEST(Interrupt, AnIgnoredSigintStaysIgnored) {
  const int status = InChild([] {
    signal(SIGINT, SIG_IGN);
    StopOnInterrupt(&g_flag);
    raise(SIGINT);
    return g_flag ? 1 : 7;
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
}

TEST(Interrupt, APendingSigintIsHandledOnceTheHandlerIsInstalled) {
  const int status = InChild([] {
    sigset_t interrupt;
    sigemptyset(&interrupt);
    sigaddset(&interrupt, SIGINT);
    sigprocmask(SIG_BLOCK, &interrupt, nullptr);
    raise(SIGINT);
    StopOnInterrupt(&g_flag);
    return g_flag ? 7 : 1;
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
}

}  // namespace
}  // namespace tuner
