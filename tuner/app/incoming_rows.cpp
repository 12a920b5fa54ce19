#include "app/incoming_rows.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "app/stored_template.h"
#include "base/errors.h"
#include "common/input_limits.h"
#include "common/interrupt.h"
#include "common/line_reader.h"
#include "common/option_values.h"
#include "db/row_check.h"
#include "db/row_json.h"
#include "exchange/json_entry_lines.h"

namespace tuner {

namespace {

// The JSON library's message without its "[json.exception.out_of_range.406] " tag: "number overflow
// parsing '1e400'" says what is wrong; the tag only says where in the library.
std::string WithoutLibraryTag(const std::string& message) {
  const std::size_t tag_end = message.rfind(']', message.find(' '));
  return message.rfind("[json.exception.", 0) == 0 && tag_end != std::string::npos ? message.substr(tag_end + 2)
                                                                                   : message;
}

// Whether `done` of `total` reaches another thousandth of it: a terminal's bar is redrawn as often
// as that, not at every one of a million lines.
bool NextThousandth(std::size_t done, std::size_t total) {
  return done == total || done * 1000 / total != (done - 1) * 1000 / total;
}

// The lines of a file read so far, of the lines it holds in all as its size and the bytes read so
// far suggest: the lines are counted, their total is not known until the end.
class LineProgress {
 public:
  LineProgress(const std::string& name, ProgressBar* progress) : progress_(progress) {
    std::error_code error;
    if (progress_ && name != "-") file_bytes_ = std::filesystem::file_size(name, error);
    if (error) file_bytes_ = 0;
  }
  void Read(const std::string& line) {
    ++lines_;
    const std::uintmax_t before = bytes_;
    bytes_ += line.size() + 1;
    if (!file_bytes_ || bytes_ * 1000 / file_bytes_ == before * 1000 / file_bytes_) return;
    const double estimate =
        static_cast<double>(lines_) * static_cast<double>(file_bytes_) / static_cast<double>(bytes_);
    progress_->Update(0, {std::max(lines_, static_cast<std::size_t>(estimate)), lines_, 0, 0});
  }
  void End() {
    if (file_bytes_) progress_->Update(0, {lines_, lines_, 0, 0});
  }

 private:
  ProgressBar* progress_;
  std::uintmax_t file_bytes_ = 0;  // 0: no progress (none asked for, stdin, or a size unknown)
  std::size_t lines_ = 0;
  std::uintmax_t bytes_ = 0;
};

// What each template version's rows must name: the template's own parameters and sizes when its
// description is at hand in the same version, else those of the rows `db_path` holds of it (if it
// exists), else those of the first incoming row.
db::VersionShapes ExpectedShapes(const std::vector<db::MeasurementRow>& rows, const std::string& db_path,
                                 const std::vector<std::string>& template_dirs) {
  db::VersionShapes shapes;
  std::set<std::string> names;
  for (const db::MeasurementRow& row : rows) names.insert(row.templ.name);
  for (const std::string& name : names) {
    const std::optional<TemplateSpec> spec = FindTemplateIfAny(template_dirs, name);
    if (!spec) continue;
    std::vector<std::string> params;
    for (const ParamSpec& p : spec->params) params.push_back(p.name);
    shapes.Expect(name, spec->hash, std::move(params), spec->sizes.size());
  }
  std::error_code error;
  if (!std::filesystem::exists(db_path, error)) return shapes;
  db::Store store = db::Store::Open(db_path, db::OpenMode::kReadOnly);
  for (const std::string& name : names) {
    db::MeasurementFilter filter;
    filter.template_name = name;
    for (const db::MeasurementRow& row : store.ListMeasurements(filter))
      if (db::RowProblem(row).empty()) shapes.Check(row);
  }
  return shapes;
}

}  // namespace

IncomingRows ReadJsonLines(const std::string& name, ProgressBar* progress) {
  IncomingRows incoming;
  LineReader in(name);
  LineProgress lines(name, progress);
  const std::size_t max_rows = LimitValue(InputLimit::kEntries);
  for (std::string line; in.Next(&line);) {
    lines.Read(line);
    const int number = in.line_number();
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = Excerpt(name) + ":" + std::to_string(number);
    if (number % 4096 == 0) ThrowIfInterrupted("import: reading " + Excerpt(name));
    if (incoming.rows.size() == max_rows) LimitExceeded("import: " + where, InputLimit::kEntries);
    const nlohmann::json parsed(ParseBoundedJson(line, "import: " + where));  // within the depth and sizes
    try {
      incoming.rows.push_back(db::RowFromJson(parsed));
      incoming.where.push_back(where);
    } catch (const std::exception& e) {
      throw UsageError("import: " + where + ": " + Excerpt(WithoutLibraryTag(e.what())) + "; nothing was imported");
    }
  }
  lines.End();
  return incoming;
}

void CheckIncoming(const IncomingRows& incoming, const std::string& command, const std::string& db_path,
                   const std::vector<std::string>& template_dirs, ProgressBar* progress) {
  db::VersionShapes shapes = ExpectedShapes(incoming.rows, db_path, template_dirs);
  for (std::size_t i = 0; i < incoming.rows.size(); ++i) {
    std::string problem = db::RowProblem(incoming.rows[i]);
    if (problem.empty()) problem = shapes.Check(incoming.rows[i]);
    if (!problem.empty())
      throw UsageError(command + ": " + incoming.where[i] + ": " + problem + "; nothing was changed");
    if (i % 4096 == 0) ThrowIfInterrupted(command + ": checking the rows");
    if (progress && NextThousandth(i + 1, incoming.rows.size()))
      progress->Update(0, {incoming.rows.size(), i + 1, 0, 0});
  }
}

}  // namespace tuner
