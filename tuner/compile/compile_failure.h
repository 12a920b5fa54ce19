// Why a compile failed, in words a user can act on: the one-line reason stored with a candidate,
// the likely fix for the causes that are common, and the log cut down to what may be published.
#pragma once

#include <string>

namespace tuner {

// One line, never empty, starting "compile: ". NVRTC's first error ("transpose.cu(12): error:
// identifier \"x\" is undefined", the source's folder left out), else ptxas's or the linker's first
// error, else the log's last non-empty line. Named as such: an entry point that is not in the source
// ("compile: no entry point ..."), static shared memory over 48 KiB ("compile: static shared memory
// ...") and a register limit ("compile: register limit: ...").
std::string CompileFailureReason(const std::string& log, const std::string& source_path);

// What to do about a reason from CompileFailureReason, or "" when there is no usual cure.
std::string LikelyFix(const std::string& reason);

// The log with the messages about files outside `folder` left out, and a last line saying how many
// were (NVRTC quotes lines of every file it reads, a secret included). Messages about the
// source itself, NVRTC's name map and ptxas stay.
std::string LogInsideFolder(const std::string& log, const std::string& folder);

}  // namespace tuner
