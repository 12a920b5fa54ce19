// Rows that `tuner db import` and `tuner db merge` add to the database: read from an export's JSON
// lines, then checked as the tool's own writer writes them, before anything is stored. Reading and
// checking a large file take a while: each reports its progress (common/progress_bar.h) when given.
#pragma once

#include <string>
#include <vector>

#include "common/progress_bar.h"
#include "db/query/store.h"

namespace tuner {

// Rows from elsewhere, each with where it came from ("FILE:LINE") for messages.
struct IncomingRows {
  std::vector<db::MeasurementRow> rows;
  std::vector<std::string> where;
};

// Reads every line first, so a bad line changes nothing (UsageError naming the file and line).
// `progress` hears of the lines read of a regular file, of a total estimated from its size and the
// bytes read so far; of stdin, whose size is unknown, nothing.
IncomingRows ReadJsonLines(const std::string& name, ProgressBar* progress = nullptr);

// Every incoming row as the tool's own writer writes it (db/row_check.h) and of its template
// version's shape; the first bad one is a UsageError naming where it came from and the field.
// `progress` hears of the rows checked.
void CheckIncoming(const IncomingRows& incoming, const std::string& command, const std::string& db_path,
                   const std::vector<std::string>& template_dirs, ProgressBar* progress = nullptr);

}  // namespace tuner
