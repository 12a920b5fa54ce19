// A program run to its end with its output collected (nvcc for a file NVRTC cannot take): started
// with posix_spawn in a process group of its own, stdin from /dev/null, stdout and stderr together,
// and its whole group killed when it outlives its time.
#pragma once

#include <string>
#include <vector>

namespace tuner {

struct CommandResult {
  int exit_code = -1;  // -1: killed by a signal, timed out or not started
  bool timed_out = false;
  std::string output;  // stdout and stderr as they came, or why it did not start
};

// argv[0] is the program's path. At most `max_output_bytes` of the output are kept.
CommandResult RunCommand(const std::vector<std::string>& argv, double timeout_s,
                         std::size_t max_output_bytes = 1 << 20);

}  // namespace tuner
