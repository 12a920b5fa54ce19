// A fake GPU or NVRTC worker process for tests of the supervisor's side without a GPU: a shell
// script that logs each start and request line and answers as a worker would.
#pragma once

#include <sys/stat.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>

#include "cuda/device.h"
#include "db_test_util.h"
#include "occupancy/arch_table.h"

namespace tuner::testing {

// The GPU a fake worker stands for: GPU 3, an sm_90 with the table's limits.
inline GpuInfo FakeGpu() {
  GpuInfo gpu;
  static_cast<DeviceLimits&>(gpu) = ArchLimits("sm_90");
  gpu.index = 3;
  gpu.uuid = "GPU-5c1f0e8a";
  return gpu;
}

// Answers every request with this: done, with a copy bandwidth, 0.1 ms of the worker's time.
inline const char* const kDone = R"({"ok":true,"worker_s":0.0001,"gbps":2500})";

// A fake `tuner __worker`: logs each start and each request line in the folder, and answers
// `reply` to every request, or runs the shell command `measure_reply` for a measure request (FILE
// in it is a file of the fake's own folder, for a state kept between its starts).
class FakeWorker {
 public:
  // `profile_reply`, when given, answers profile requests (counters and energy); `reference_reply`,
  // a shell command like `measure_reply`, the reference run.
  explicit FakeWorker(const std::string& reply, const std::string& measure_reply = "",
                      const std::string& profile_reply = "", const std::string& reference_reply = "") {
    std::ofstream(path()) << "#!/bin/sh\n"
                          << "echo start >> " << dir_.File("starts") << "\n"
                          << "while read -r line; do\n"
                          << "  echo \"$line\" >> " << dir_.File("requests") << "\n"
                          << "  case \"$line\" in\n"
                          << "    *'\"op\":\"measure\"'*) "
                          << (measure_reply.empty() ? "echo '" + reply + "'" : WithFile(measure_reply)) << ";;\n"
                          << "    *'\"op\":\"profile\"'*) echo '" << (profile_reply.empty() ? reply : profile_reply)
                          << "';;\n"
                          << "    *'\"op\":\"reference\"'*) "
                          << (reference_reply.empty() ? "echo '" + reply + "'" : WithFile(reference_reply)) << ";;\n"
                          << "    *) echo '" << reply << "';;\n"
                          << "  esac\n"
                          << "done\n";
    chmod(path().c_str(), 0755);
  }
  std::string path() const { return dir_.File("worker.sh"); }
  int Starts() const { return Lines("starts"); }
  int Requests(const std::string& op) const {
    int count = 0;
    std::istringstream in(db::testing::ReadBytes(dir_.File("requests")));
    for (std::string line; std::getline(in, line);) count += line.find("\"op\":\"" + op + "\"") != std::string::npos;
    return count;
  }

 private:
  std::string WithFile(std::string command) const {
    for (std::size_t at; (at = command.find("FILE")) != std::string::npos;) command.replace(at, 4, dir_.File("state"));
    return command;
  }
  int Lines(const std::string& file) const {
    const std::string text = db::testing::ReadBytes(dir_.File(file));
    return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
  }
  db::testing::TempDir dir_;
};

}  // namespace tuner::testing
