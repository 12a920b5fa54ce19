#include "common/worker_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace tuner {

namespace {

void ClosePipe(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

// "/opt/tuner/bin/tuner __compile": which child, in messages (the same class runs workers and NVRTC
// processes).
std::string CommandLine(const std::string& executable, const std::vector<std::string>& args) {
  std::string line = executable;
  for (const std::string& a : args) line += " " + a;
  return line;
}

}  // namespace

WorkerProcess::WorkerProcess(const std::string& executable, const std::vector<std::string>& args) {
  signal(SIGPIPE, SIG_IGN);  // a worker that died mid-request is seen in Call, not as a signal
  int in_pipe[2], out_pipe[2];
  const auto pipe_error = [&](int error) {
    return std::runtime_error("cannot create pipes for " + CommandLine(executable, args) + ": " + std::strerror(error));
  };
  if (pipe2(in_pipe, O_CLOEXEC) != 0) throw pipe_error(errno);
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    const int error = errno;
    close(in_pipe[0]);
    close(in_pipe[1]);
    throw pipe_error(error);
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);  // its own group: the terminal's Ctrl-C is ours to handle
  std::vector<char*> argv{const_cast<char*>(executable.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const int error = posix_spawn(&pid_, executable.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(in_pipe[0]);
  close(out_pipe[1]);
  to_worker_ = in_pipe[1];
  from_worker_ = out_pipe[0];
  if (error != 0) {
    pid_ = -1;
    ClosePipe(to_worker_);
    ClosePipe(from_worker_);
    throw std::runtime_error("cannot start " + CommandLine(executable, args) + ": " + std::strerror(error));
  }
}

WorkerProcess::~WorkerProcess() {
  ClosePipe(to_worker_);
  if (pid_ > 0) {
    // A worker that does not exit promptly after its stdin closes is killed.
    for (int i = 0; i < 100 && waitpid(pid_, nullptr, WNOHANG) == 0; ++i) usleep(10000);
    Kill();
  }
  ClosePipe(from_worker_);
}

void WorkerProcess::Kill() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  waitpid(pid_, nullptr, 0);
  pid_ = -1;
  ClosePipe(to_worker_);
  ClosePipe(from_worker_);
}

std::string WorkerProcess::WaitStatus() {
  int status = 0;
  if (waitpid(pid_, &status, 0) != pid_) return "the worker vanished";
  pid_ = -1;
  ClosePipe(to_worker_);
  ClosePipe(from_worker_);
  if (WIFSIGNALED(status)) return std::string("the worker was killed by signal ") + strsignal(WTERMSIG(status));
  return "the worker exited with status " + std::to_string(WEXITSTATUS(status));
}

WorkerProcess::Reply WorkerProcess::Call(const nlohmann::json& request, double timeout_s,
                                         const std::function<bool()>& stop) {
  Reply reply;
  if (pid_ <= 0) return {Outcome::kDied, {}, "the worker is not running"};
  const std::string line = request.dump() + "\n";
  if (write(to_worker_, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    return {Outcome::kDied, {}, WaitStatus()};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    const std::size_t newline = pending_.find('\n');
    if (newline != std::string::npos) {
      reply.body = nlohmann::json::parse(pending_.substr(0, newline), nullptr, false);
      pending_.erase(0, newline + 1);
      if (!reply.body.is_discarded()) {
        reply.outcome = Outcome::kReplied;
        return reply;
      }
      Kill();  // out of step with its requests: what it sends next answers no one
      return {Outcome::kDied, {}, "the worker sent a malformed reply; it was killed"};
    }
    if (stop && stop()) {
      Kill();
      return {Outcome::kInterrupted, {}, "interrupted"};
    }
    // Rounded up: truncated, the last fraction of a millisecond would kill the worker before its deadline.
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      Kill();
      return {Outcome::kTimedOut, {}, "no answer within " + std::to_string(timeout_s) + " s; the worker was killed"};
    }
    pollfd fd{from_worker_, POLLIN, 0};
    const int ready = poll(&fd, 1, static_cast<int>(std::min<long long>(left, 100)));
    if (ready <= 0) continue;  // timeout slice or EINTR: check the deadline and the interrupt flag
    char buffer[65536];
    const ssize_t got = read(from_worker_, buffer, sizeof buffer);
    if (got <= 0) return {Outcome::kDied, {}, WaitStatus()};
    pending_.append(buffer, static_cast<std::size_t>(got));
  }
}

}  // namespace tuner
