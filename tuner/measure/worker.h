// The hidden `tuner __worker` command: the process that drives one GPU for a sweep (main's command
// table starts it; the sweep spawns it).
#pragma once

namespace tuner {

int RunWorker(int argc, char** argv);

}  // namespace tuner
