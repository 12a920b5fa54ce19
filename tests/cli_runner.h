// Runs the built tuner binary (TUNER_EXECUTABLE) as a user would, for command-line tests.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace tuner::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs `command` with the shell; stdout and stderr are captured.
inline CliResult RunCommand(const std::string& command_line) {
  const std::string err_path = "/tmp/tuner-cli-" + std::to_string(getpid()) + ".err";
  const std::string command = command_line + " 2>" + err_path;
  CliResult result;
  FILE* pipe = popen(command.c_str(), "r");
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) result.out.append(buffer, n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_path);
  result.err.assign(std::istreambuf_iterator<char>(err), {});
  std::remove(err_path.c_str());
  return result;
}

inline std::string ReadFileText(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The tuner started without a shell: argv is `args`, `environment` (NAME, VALUE) pairs are added,
// stdout and stderr go to files. With `interrupt_pending` it starts with a SIGINT already pending
// and blocked, as a Ctrl-C that arrives while the command starts up.
class SpawnedTuner {
 public:
  SpawnedTuner(const std::vector<std::string>& args,
               const std::vector<std::pair<std::string, std::string>>& environment, bool interrupt_pending = false)
      : out_path_("/tmp/tuner-spawn-" + std::to_string(getpid()) + ".out"),
        err_path_("/tmp/tuner-spawn-" + std::to_string(getpid()) + ".err") {
    pid_ = fork();
    if (pid_ != 0) return;
    for (const auto& [name, value] : environment) setenv(name.c_str(), value.c_str(), 1);
    dup2(open(out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), STDOUT_FILENO);
    dup2(open(err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), STDERR_FILENO);
    if (interrupt_pending) {
      sigset_t interrupt;
      sigemptyset(&interrupt);
      sigaddset(&interrupt, SIGINT);
      sigprocmask(SIG_BLOCK, &interrupt, nullptr);
      raise(SIGINT);
    }
    std::vector<char*> argv{const_cast<char*>(TUNER_EXECUTABLE)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(TUNER_EXECUTABLE, argv.data());
    _exit(127);
  }

  pid_t pid() const { return pid_; }

  // Waits for it to end; exit_code is -1 when a signal ended it.
  CliResult Wait() {
    int status = 0;
    waitpid(pid_, &status, 0);
    CliResult result{WIFEXITED(status) ? WEXITSTATUS(status) : -1, ReadFileText(out_path_), ReadFileText(err_path_)};
    std::remove(out_path_.c_str());
    std::remove(err_path_.c_str());
    return result;
  }

 private:
  pid_t pid_ = -1;
  std::string out_path_;
  std::string err_path_;
};

// `args` is appended to the binary's path and run by the shell.
inline CliResult RunTuner(const std::string& args, const std::string& environment = "") {
  return RunCommand(environment + " " + TUNER_EXECUTABLE + " " + args);
}

}  // namespace tuner::testing
