// The supervisor's handle on a worker process: started with posix_spawn (fork+exec, so no CUDA
// state or SQLite connection crosses), in its own process group (Ctrl-C reaches only the
// supervisor), spoken to over pipes, and killed when it hangs.
#pragma once

#include <sys/types.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tuner {

class WorkerProcess {
 public:
  enum class Outcome { kReplied, kTimedOut, kDied, kInterrupted };
  struct Reply {
    Outcome outcome = Outcome::kDied;
    nlohmann::json body;
    std::string detail;  // how it died or timed out
  };

  WorkerProcess(const std::string& executable, const std::vector<std::string>& args);
  ~WorkerProcess();  // closes the worker's stdin, which ends it, and kills it if it does not end
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  // Sends one request and waits up to `timeout_s` for its one-line reply. On a timeout, a stop
  // (`stop`, polled while waiting, says so: kInterrupted) or a reply that is no JSON the worker is
  // killed; after any outcome but kReplied it is gone (Alive() is false) and the caller starts a
  // new one.
  Reply Call(const nlohmann::json& request, double timeout_s, const std::function<bool()>& stop = {});

  void Kill();
  bool Alive() const { return pid_ > 0; }

 private:
  std::string WaitStatus();
  pid_t pid_ = -1;
  int to_worker_ = -1;
  int from_worker_ = -1;
  std::string pending_;  // bytes read past the last newline
};

}  // namespace tuner
