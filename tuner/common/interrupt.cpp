#include "common/interrupt.h"

#include <pthread.h>
#include <signal.h>

namespace tuner {

namespace {

std::atomic<std::atomic<bool>*> g_flag{nullptr};  // lock-free, so the handler may read it

extern "C" void OnInterrupt(int) {
  std::atomic<bool>* flag = g_flag.load();
  if (flag && !flag->exchange(true)) return;
  signal(SIGINT, SIG_DFL);  // the second Ctrl-C: the default action, delivered once this handler returns
  raise(SIGINT);
}

}  // namespace

void StopOnInterrupt(std::atomic<bool>* flag) {
  struct sigaction previous {};
  sigaction(SIGINT, nullptr, &previous);
  if (previous.sa_handler == SIG_IGN) return;
  g_flag = flag;
  struct sigaction action {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, nullptr);
  sigset_t interrupt;
  sigemptyset(&interrupt);
  sigaddset(&interrupt, SIGINT);
  pthread_sigmask(SIG_UNBLOCK, &interrupt, nullptr);
}

bool InterruptRequested() {
  const std::atomic<bool>* flag = g_flag.load();
  return flag && flag->load();
}

void ThrowIfInterrupted(const std::string& what) {
  if (InterruptRequested()) throw InterruptedError(what + " was interrupted (Ctrl-C); nothing was changed");
}

}  // namespace tuner
