// How the records map to the columns of the store's tables (store.cpp's private helper): the
// measurement columns (db/query/measurement_fields.h), binding and reading them, and the joined
// SELECT that MeasurementRow is read from.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "db/query/measurement_fields.h"
#include "db/query/records.h"
#include "db/query/sqlite.h"
#include "db/query/store.h"

namespace tuner::db {

// The measurement columns, "params_json, launch_json, ...", for INSERT and SELECT.
std::string MeasurementColumns();
// `expression` of every measurement field, in the table's order, joined by ", ".
std::string MeasurementColumnList(const std::function<std::string(const MeasurementField&)>& expression);

// Binds the measurement columns from parameter `first` on; an empty measured_at becomes now.
void BindMeasurement(sql::Statement& statement, int first, const MeasurementRecord& measurement);
MeasurementRecord ReadMeasurement(const sql::Statement& statement, int first);
// Every row of `select` (the measurement columns, then id), as records with their ids.
std::vector<MeasurementRecord> ReadMeasurementsWithIds(sql::Statement& select);
// A stored status column; BadDatabaseError naming the text when it is no status this tool knows.
CandidateStatus ReadStatus(const std::string& text);

// INSERT of (sweep_id, gpu_id, template_id, size_key, the measurement columns) as ?1, ?2, ... that replaces the
// stored row of the same candidate; with `only_if_newer`, only by a later measured_at.
std::string UpsertMeasurementSql(bool only_if_newer);

// SELECT of everything MeasurementRow holds, from `source` (a table or subquery) named m, joined with
// gpus g, templates t and sweeps s; append WHERE / ORDER BY.
std::string RowSelect(const std::string& source);
MeasurementRow ReadRow(const sql::Statement& statement);

}  // namespace tuner::db
