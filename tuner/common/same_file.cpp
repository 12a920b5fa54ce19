#include "common/same_file.h"

#include <sys/stat.h>

#include "base/errors.h"
#include "common/option_values.h"

namespace tuner {

bool SameFile(const std::string& a, const std::string& b) {
  struct stat first {}, second {};
  return stat(a.c_str(), &first) == 0 && stat(b.c_str(), &second) == 0 && first.st_dev == second.st_dev &&
         first.st_ino == second.st_ino;
}

void RefuseReplacingInputs(const std::string& output, const std::vector<std::string>& inputs) {
  for (const std::string& input : inputs)
    if (SameFile(output, input))
      throw UsageError("output " + Quoted(output) + " is " + Quoted(input) +
                       ", which this command reads; writing it would destroy it: give another file name "
                       "(nothing was written)");
}

std::vector<std::string> DatabaseFiles(const std::string& path) {
  return {path, path + "-wal", path + "-shm", path + "-journal"};
}

}  // namespace tuner
