// No output may replace an input: `-o x.db` with `--db x.db` would destroy the database. Files are
// compared by device and inode, so a symbolic or hard link to an input is caught too.
#pragma once

#include <string>
#include <vector>

namespace tuner {

// Whether both paths exist and name one file.
bool SameFile(const std::string& a, const std::string& b);

// Throws UsageError naming both when `output` is one of `inputs` (missing files are no input).
void RefuseReplacingInputs(const std::string& output, const std::vector<std::string>& inputs);

// The files of an SQLite database at `path`: itself and its journals, all read by its readers.
std::vector<std::string> DatabaseFiles(const std::string& path);

}  // namespace tuner
