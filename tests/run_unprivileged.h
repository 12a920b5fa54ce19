// Runs part of a test as a user without privileges, for tests of file permissions: root ignores
// file modes, so as root the body runs in a forked child that has become `nobody` (65534); as any
// other user it runs in a forked child as that user. Never carries a database connection: open
// what the body needs inside it.
#pragma once

#include <grp.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <functional>
#include <string>

namespace tuner::testing {

inline constexpr uid_t kNobody = 65534;

struct UnprivilegedRun {
  bool ran = false;    // false: no unprivileged user could be had; `result` says why (skip the test)
  std::string result;  // what the body returned, or the exception it threw
};

// Drops root for good in this (child) process; "" when done, else why not.
inline std::string BecomeNobody() {
  if (geteuid() != 0) return "";
  if (setgroups(0, nullptr) != 0 || setgid(kNobody) != 0 || setuid(kNobody) != 0)
    return std::string("cannot switch to uid/gid 65534 (nobody): ") + std::strerror(errno);
  if (setuid(0) == 0) return "still able to regain root after setuid(65534)";
  return "";
}

inline UnprivilegedRun RunUnprivileged(const std::function<std::string()>& body) {
  int fds[2];
  if (pipe(fds) != 0) return {false, std::string("pipe: ") + std::strerror(errno)};
  const pid_t child = fork();
  if (child < 0) return {false, std::string("fork: ") + std::strerror(errno)};
  if (child == 0) {
    close(fds[0]);
    const std::string refused = BecomeNobody();
    std::string message = refused.empty() ? "R" : "S" + refused;  // R: ran, S: skipped
    if (refused.empty()) {
      try {
        message += body();
      } catch (const std::exception& e) {
        message += std::string("exception: ") + e.what();
      }
    }
    for (std::size_t sent = 0; sent < message.size();) {
      const ssize_t n = write(fds[1], message.data() + sent, message.size() - sent);
      if (n <= 0) _exit(1);
      sent += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string message;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;) message.append(buffer, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  if (message.empty() || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return {true, "the unprivileged child died (status " + std::to_string(status) + ")"};
  return {message[0] == 'R', message.substr(1)};
}

}  // namespace tuner::testing
