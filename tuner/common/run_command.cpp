#include "common/run_command.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace tuner {

namespace {

// Reads what the child writes until it closes its end or the deadline passes; false on the deadline.
bool Collect(int fd, std::chrono::steady_clock::time_point deadline, std::size_t max_bytes, std::string& output) {
  char buffer[65536];
  for (;;) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return false;
    pollfd ready{fd, POLLIN, 0};
    if (poll(&ready, 1, static_cast<int>(std::min<long long>(left, 1000))) <= 0) continue;
    const ssize_t got = read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return true;
    output.append(buffer, std::min(static_cast<std::size_t>(got), max_bytes - std::min(max_bytes, output.size())));
  }
}

}  // namespace

CommandResult RunCommand(const std::vector<std::string>& argv, double timeout_s, std::size_t max_output_bytes) {
  CommandResult result;
  int out[2];
  if (argv.empty() || pipe2(out, O_CLOEXEC) != 0) {
    result.output = argv.empty() ? "no program to run" : std::string("cannot create a pipe: ") + std::strerror(errno);
    return result;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = -1;
  const int error = posix_spawn(&pid, argv[0].c_str(), &actions, &attributes, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(out[1]);
  if (error != 0) {
    close(out[0]);
    result.output = "cannot start " + argv[0] + ": " + std::strerror(error);
    return result;
  }
  const auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(timeout_s));
  if (!Collect(out[0], deadline, max_output_bytes, result.output)) {
    result.timed_out = true;
    kill(-pid, SIGKILL);  // the program and whatever it started (nvcc's cicc and ptxas)
  }
  close(out[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!result.timed_out && WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  return result;
}

}  // namespace tuner
