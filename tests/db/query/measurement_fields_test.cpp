// The measurement record's field table (db/query/measurement_fields.h) against the record, the
// store's columns in every schema version, and a round trip through the store.
#include "db/query/measurement_fields.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "db/query/schema.h"
#include "db/query/sqlite.h"
#include "db/query/store.h"
#include "db_test_util.h"

namespace tuner::db {
namespace {

using testing::DifferingFields;
using testing::EveryFieldSet;
using testing::SampleGpu;
using testing::SampleSweep;
using testing::TempDir;

// How many members an aggregate has: the most values it can be brace-initialised with (C++17 has
// no reflection; Boost.PFR counts the same way).
struct AnyValue {
  template <class T>
  operator T() const;  // never defined: used in unevaluated contexts only
};

template <class T, class... Values>
constexpr auto Initialisable(int) -> decltype(T{std::declval<Values>()...}, true) {
  return true;
}
template <class T, class... Values>
constexpr bool Initialisable(...) {
  return false;
}

template <class T, class... Values>
constexpr std::size_t MemberCount() {
  if constexpr (Initialisable<T, Values..., AnyValue>(0))
    return MemberCount<T, Values..., AnyValue>();
  else
    return sizeof...(Values);
}

using Columns = std::set<std::pair<std::string, std::string>>;  // (name, SQLite type)

// The measurement columns of the file's measurements table (every column but the keys).
Columns StoredColumns(const std::string& path) {
  sql::Connection connection(path, sql::Connection::Mode::kImmutable);  // no side files beside a fixture
  sql::Statement info(connection, "SELECT name, type FROM pragma_table_info('measurements')");
  const std::set<std::string> keys = {"id", "sweep_id", "gpu_id", "template_id", "size_key"};
  Columns columns;
  while (info.Step())
    if (!keys.count(info.Text(0))) columns.emplace(info.Text(0), info.Text(1));
  return columns;
}

Columns TableColumns(int schema_version) {
  Columns columns;
  for (const MeasurementField& field : MeasurementFields())
    if (field.since_schema <= schema_version) columns.emplace(field.name, SqlType(field));
  return columns;
}

TEST(MeasurementFields, ListEveryMemberOfTheRecordButItsId) {
  EXPECT_EQ(MemberCount<MeasurementRecord>(), MeasurementFields().size() + 1);
  for (const MeasurementField& field : MeasurementFields()) EXPECT_EQ(&FieldOf(field.member), &field) << field.name;
}

TEST(MeasurementFields, AreTheColumnsOfAFreshStore) {
  TempDir dir;
  Store::Open(dir.File("fresh.db"), OpenMode::kReadWrite);
  EXPECT_EQ(StoredColumns(dir.File("fresh.db")), TableColumns(kSchemaVersion));
}

// since_schema says which migration added a column: the fixtures made by older versions hold the
// columns of their version.
TEST(MeasurementFields, SinceSchemaMatchesTheFixtures) {
  for (const auto& [fixture, version] :
       {std::pair<const char*, int>{"schema_v1.db", 1}, {"schema_v4.db", 4}, {"schema_v5.db", 5}, {"schema_v6.db", 6}})
    EXPECT_EQ(StoredColumns(std::string(TUNER_FIXTURES_DIR "/") + fixture), TableColumns(version)) << fixture;
}

TEST(MeasurementFields, FindsAFieldByNameAndRefusesAnUnknownOne) {
  EXPECT_STREQ(FieldNamed("energy_j").name, "energy_j");
  EXPECT_STREQ(SqlType(FieldNamed("status")), "TEXT");
  EXPECT_STREQ(SqlType(FieldNamed("smem_bytes")), "INTEGER");
  EXPECT_STREQ(SqlType(FieldNamed("occupancy")), "REAL");
  EXPECT_THROW(FieldNamed("time_ms"), std::logic_error);
}

TEST(MeasurementFields, EveryFieldRoundTripsThroughTheStore) {
  TempDir dir;
  Store store = Store::Open(dir.File("t.db"), OpenMode::kReadWrite);
  const std::int64_t gpu = store.EnsureGpu(SampleGpu());
  const std::int64_t templ = store.EnsureTemplate({"transpose", "abc", ""});
  const std::int64_t sweep = store.StartSweep(gpu, templ, SampleSweep());
  const MeasurementRecord written = EveryFieldSet();
  EXPECT_EQ(DifferingFields(written, MeasurementRecord()).size(), MeasurementFields().size());
  store.AddMeasurement(sweep, written);
  const auto stored = store.Measurements(gpu, templ, SampleSweep().size_key);
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_EQ(DifferingFields(stored[0], written), std::vector<std::string>());
  const auto rows = store.ListMeasurements({});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(DifferingFields(rows[0].measurement, written), std::vector<std::string>());
}

}  // namespace
}  // namespace tuner::db
