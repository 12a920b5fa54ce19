// Ctrl-C for commands that stop cleanly: the first SIGINT sets a flag the work polls, so that the
// command can say what it did and exit 130; a second SIGINT ends the process at once.
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>

namespace tuner {

// From now on SIGINT sets `*flag` (which must outlive the process's work). Left alone when SIGINT is
// ignored, as in a background job of a shell without job control. Unblocks SIGINT, so one that
// arrived while it was blocked, before the command could handle it, is handled now and not lost.
void StopOnInterrupt(std::atomic<bool>* flag);

// Ctrl-C stopped a command before it changed anything: exit 130 (base/errors.h's kExitInterrupted).
struct InterruptedError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Whether a SIGINT set the flag StopOnInterrupt was given (false when none was): long loops below
// the commands (counting a space, reading a file) poll it without being handed the flag.
bool InterruptRequested();

// Throws InterruptedError (exit 130) naming `what` was stopped when InterruptRequested().
void ThrowIfInterrupted(const std::string& what);

}  // namespace tuner
