// Runs the built tuner binary (TUNER_EXECUTABLE) as a user would, for command-line tests.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace tuner::testing {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// `args` is appended to the binary's path and run by the shell; stdout and stderr are captured.
inline CliResult RunTuner(const std::string& args, const std::string& environment = "") {
  const std::string err_path = "/tmp/tuner-cli-" + std::to_string(getpid()) + ".err";
  const std::string command = environment + " " + TUNER_EXECUTABLE + " " + args + " 2>" + err_path;
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

}  // namespace tuner::testing
