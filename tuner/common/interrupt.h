// Ctrl-C for commands that stop cleanly: the first SIGINT sets a flag the work polls, so that the
// command can say what it did and exit 130; a second SIGINT ends the process at once.
#pragma once

#include <atomic>

namespace tuner {

// From now on SIGINT sets `*flag` (which must outlive the process's work). Left alone when SIGINT is
// ignored, as in a background job of a shell without job control. Unblocks SIGINT, so one that
// arrived while it was blocked, before the command could handle it, is handled now and not lost.
void StopOnInterrupt(std::atomic<bool>* flag);

}  // namespace tuner
