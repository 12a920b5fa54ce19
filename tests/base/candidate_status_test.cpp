// A candidate's status and its text form: every status round-trips through its text, through the
// store and through an export line; a text that names no status is refused wherever it is read.
#include "base/candidate_status.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "base/errors.h"
#include "db/query/sqlite.h"
#include "db/query/store.h"
#include "db/row_json.h"
#include "db_test_util.h"

namespace tuner::db {
namespace {

using testing::SampleGpu;
using testing::SampleMeasurement;
using testing::SampleSweep;
using testing::TempDir;

// The texts every database and export holds: they may never change.
TEST(CandidateStatus, EachStatusHasItsStoredTextAndReadsBack) {
  const std::set<std::string> stored = {"ok",           "wrong_result", "compile_error", "invalid",
                                        "launch_error", "fault",        "timeout",       "skipped"};
  std::set<std::string> texts;
  for (CandidateStatus status : kAllCandidateStatuses) {
    texts.insert(ToText(status));
    EXPECT_EQ(CandidateStatusFromText(ToText(status)), status) << ToText(status);
  }
  EXPECT_EQ(texts, stored);
}

TEST(CandidateStatus, UnknownTextIsRefusedNamingIt) {
  for (const std::string text : {"", "OK", "interrupted", "running", "ok "}) {
    try {
      CandidateStatusFromText(text);
      ADD_FAILURE() << "\"" << text << "\" was taken for a status";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("unknown candidate status \"" + text + "\""), std::string::npos) << e.what();
    }
  }
}

TEST(CandidateStatus, OnlyOkIsOkAndOnlyAFaultOrATimeoutKillsTheWorker) {
  for (CandidateStatus status : kAllCandidateStatuses) {
    EXPECT_EQ(IsOk(status), status == CandidateStatus::kOk) << ToText(status);
    EXPECT_EQ(KillsWorker(status), status == CandidateStatus::kFault || status == CandidateStatus::kTimeout)
        << ToText(status);
  }
}

// A record of each status, stored and read back, keeps its status and its text in the database.
TEST(CandidateStatus, AStoredRecordOfEachStatusReadsBack) {
  TempDir dir;
  const std::string path = dir.File("statuses.db");
  {
    Store store = Store::Open(path, OpenMode::kReadWrite);
    const std::int64_t gpu = store.EnsureGpu(SampleGpu());
    const std::int64_t templ = store.EnsureTemplate({"transpose", "h", ""});
    const std::int64_t sweep = store.StartSweep(gpu, templ, SampleSweep());
    int tile = 1;
    for (CandidateStatus status : kAllCandidateStatuses) {
      MeasurementRecord m = SampleMeasurement(tile++, 1.0);
      m.status = status;
      store.AddMeasurement(sweep, m);
    }
  }
  sql::Connection connection(path, sql::Connection::Mode::kReadWrite);
  sql::Statement texts(connection, "SELECT status FROM measurements ORDER BY id");
  for (CandidateStatus status : kAllCandidateStatuses) {
    ASSERT_TRUE(texts.Step());
    EXPECT_EQ(texts.Text(0), ToText(status));
  }
  std::set<CandidateStatus> read;
  for (const MeasurementRow& row : Store::Open(path, OpenMode::kReadOnly).ListMeasurements({}))
    read.insert(row.measurement.status);
  EXPECT_EQ(read.size(), std::size(kAllCandidateStatuses));
  Store store = Store::Open(path, OpenMode::kReadOnly);
  for (CandidateStatus status : kAllCandidateStatuses) {
    MeasurementFilter only;
    only.status = status;
    const std::vector<MeasurementRow> rows = store.ListMeasurements(only);
    ASSERT_EQ(rows.size(), 1u) << ToText(status);
    EXPECT_EQ(rows[0].measurement.status, status);
  }
}

TEST(CandidateStatus, ADatabaseWithAnUnknownStatusIsRefusedNamingIt) {
  TempDir dir;
  const std::string path = dir.File("foreign.db");
  {
    Store store = Store::Open(path, OpenMode::kReadWrite);
    const std::int64_t gpu = store.EnsureGpu(SampleGpu());
    const std::int64_t sweep = store.StartSweep(gpu, store.EnsureTemplate({"transpose", "h", ""}), SampleSweep());
    store.AddMeasurement(sweep, SampleMeasurement(16, 1.0));
  }
  sql::Connection(path, sql::Connection::Mode::kReadWrite).Execute("UPDATE measurements SET status = 'great'");
  Store store = Store::Open(path, OpenMode::kReadOnly);
  try {
    store.ListMeasurements({});
    ADD_FAILURE() << "a measurement with status 'great' was read";
  } catch (const BadDatabaseError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown candidate status \"great\""), std::string::npos) << e.what();
  }
  EXPECT_THROW(store.Counts(), BadDatabaseError);
}

// An export line keeps the text; one with an unknown status is refused, naming it.
TEST(CandidateStatus, AnExportLineKeepsTheTextAndAnUnknownOneIsRefused) {
  MeasurementRow row;
  row.gpu = SampleGpu();
  row.templ = {"transpose", "h", "2026-11-20T00:00:00Z"};
  row.sweep = SampleSweep();
  row.size_key = "8192x8192";
  row.measurement = SampleMeasurement(16, 1.0, "launch_error");
  nlohmann::json line = nlohmann::json::parse(ToJson(row).dump());
  EXPECT_EQ(line["measurement"]["status"], "launch_error");
  EXPECT_EQ(RowFromJson(line).measurement.status, CandidateStatus::kLaunchError);
  line["measurement"]["status"] = "so-so";
  try {
    RowFromJson(line);
    ADD_FAILURE() << "a row with status 'so-so' was read";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("unknown candidate status \"so-so\""), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tuner::db
