// tuner db check | info | export | import | merge | upgrade: looking after the results database.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/cli.h"
#include "app/command_options.h"
#include "app/commands.h"
#include "app/incoming_rows.h"
#include "base/default_paths.h"
#include "base/errors.h"
#include "common/interrupt.h"
#include "common/option_values.h"
#include "common/progress_bar.h"
#include "common/same_file.h"
#include "common/spelling.h"
#include "common/whole_file.h"
#include "db/query/schema.h"
#include "db/query/store.h"
#include "db/row_json.h"

namespace tuner {

namespace {

using nlohmann::ordered_json;

// Parses the options of one `tuner db X` command; false when --help was shown.
bool Parse(int argc, char** argv, const CommandSpec& spec, po::options_description options,
           const po::positional_options_description& positional, po::variables_map* vm) {
  AddDatabaseOption(options);
  return ParseCommandLine(argc, argv, spec, options, positional, vm);
}

// "schema version 4, read through an upgrade to 5 in memory; 'tuner db upgrade' upgrades the file".
std::string VersionText(const db::Store& store) {
  std::string text = "schema version " + std::to_string(store.SchemaVersion());
  if (store.SchemaVersion() < db::kSchemaVersion)
    text += ", read through an upgrade to " + std::to_string(db::kSchemaVersion) +
            " in memory; 'tuner db upgrade' upgrades the file";
  return text;
}

int RunCheck(int argc, char** argv) {
  po::options_description options("Options");
  AddJsonOption(options);
  po::variables_map vm;
  if (!Parse(
          argc, argv,
          {"db check", "tuner db check [--db PATH] [--json]",
           "Run SQLite's full integrity check and the foreign-key check, and compare best_per_gpu with a ranking of\n"
           "every measurement. Exit 4 when the database is bad.",
           ""},
          options, {}, &vm))
    return kExitOk;
  db::Store store = db::Store::Open(DatabasePath(vm), db::OpenMode::kReadOnly);
  const std::vector<std::string> problems = store.FullCheck();
  if (JsonOutput(vm)) {
    std::cout << ordered_json{{"database", store.path()},
                              {"schema_version", store.SchemaVersion()},
                              {"ok", problems.empty()},
                              {"problems", problems}}
                     .dump(2)
              << "\n";
  } else {
    for (const std::string& problem : problems) std::cout << "problem: " << problem << "\n";
    if (problems.empty()) std::cout << store.path() << ": ok (" << VersionText(store) << ")\n";
  }
  if (!problems.empty())
    throw BadDatabaseError("'" + store.path() + "' failed the integrity check (" + std::to_string(problems.size()) +
                           " problem(s)); restore a copy, or export what can be read and import it into a new file");
  return kExitOk;
}

int RunInfo(int argc, char** argv) {
  po::options_description options("Options");
  AddJsonOption(options);
  po::variables_map vm;
  if (!Parse(argc, argv,
             {"db info", "tuner db info [--db PATH] [--json]",
              "Counts of stored measurements per GPU, template and status.", ""},
             options, {}, &vm))
    return kExitOk;
  db::Store store = db::Store::Open(DatabasePath(vm), db::OpenMode::kReadOnly);
  const std::vector<db::CountRow> counts = store.Counts();
  if (JsonOutput(vm)) {
    ordered_json rows = ordered_json::array();
    for (const db::CountRow& c : counts)
      rows.push_back({{"gpu", c.gpu_name},
                      {"uuid", c.gpu_uuid},
                      {"template", c.template_name},
                      {"status", ToText(c.status)},
                      {"count", c.count}});
    std::cout
        << ordered_json{{"database", store.path()}, {"schema_version", store.SchemaVersion()}, {"counts", rows}}.dump(2)
        << "\n";
    return kExitOk;
  }
  std::cout << Printable(store.path()) << " (" << VersionText(store) << ")\n";
  std::string last_gpu;
  for (const db::CountRow& c : counts) {  // names from a merged file may hold terminal escapes
    if (c.gpu_uuid != last_gpu) std::cout << Printable(c.gpu_name) << " (" << Printable(c.gpu_uuid) << ")\n";
    last_gpu = c.gpu_uuid;
    std::printf("  %-24s %-14s %8lld\n", Printable(c.template_name).c_str(), ToText(c.status),
                static_cast<long long>(c.count));
  }
  if (counts.empty()) std::cout << "  no measurements\n";
  return kExitOk;
}

int RunExport(int argc, char** argv) {
  po::options_description options("Options");
  AddOutputFileOption(options, "file to write (default: stdout)", "-");
  options.add_options()("kernel", po::value<std::string>()->value_name("KERNEL")->default_value(""),
                        "only this template");
  AddDeviceOption(options);
  po::variables_map vm;
  if (!Parse(argc, argv,
             {"db export", "tuner db export [--output FILE] [--kernel NAME] [--device NAME] [--db PATH]",
              "Write every measurement, with its GPU, template version and sweep, as JSON lines.",
              "tuner db export -o results.jsonl"},
             options, {}, &vm))
    return kExitOk;
  const std::string output = *OutputFile(vm);
  db::Store store = db::Store::Open(DatabasePath(vm), db::OpenMode::kReadOnly);
  db::MeasurementFilter filter;
  filter.template_name = vm["kernel"].as<std::string>();
  filter.gpu_name = DeviceFilter(vm);
  const std::vector<db::MeasurementRow> rows = store.ListMeasurements(filter);
  if (output == "-") {
    for (const db::MeasurementRow& row : rows) std::cout << db::ToJson(row).dump() << "\n";
    if (!std::cout.flush()) throw std::runtime_error("writing to stdout failed");
  } else {
    RefuseReplacingInputs(output, DatabaseFiles(store.path()));
    WholeFileWriter file(output);  // the old file stays whole until every row is written
    for (const db::MeasurementRow& row : rows) file.Append(db::ToJson(row).dump() + "\n");
    file.Commit();
  }
  std::cerr << "exported " << rows.size() << " measurement(s)\n";
  return kExitOk;
}

void PrintImported(const std::string& what, std::size_t read, std::int64_t changed) {
  std::cout << what << ": " << read << " measurement(s) read, " << changed << " added or updated, "
            << static_cast<std::int64_t>(read) - changed << " already present\n";
}

int RunImport(int argc, char** argv) {
  po::options_description options("Options");
  options.add_options()("file", po::value<std::string>()->value_name("FILE")->required(),
                        "JSON lines written by 'tuner db export' (- for stdin)");
  AddTemplatesOption(options);
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!Parse(argc, argv,
             {"db import", "tuner db import FILE [--db PATH] [--templates DIR]",
              "Add the measurements of a 'tuner db export' file. A measurement replaces a stored one of the\n"
              "same candidate only if it is newer; importing a file twice changes nothing. Every field must\n"
              "be as tuner writes it, and the parameters and sizes those of the template's version (its\n"
              "description when at hand, else the rows stored): one bad line is exit 2 and changes nothing.",
              "tuner db import results.jsonl"},
             options, positional, &vm))
    return kExitOk;
  const std::string name = vm["file"].as<std::string>();
  static std::atomic<bool> interrupted{false};  // reading and checking stop at Ctrl-C, before anything is stored
  StopOnInterrupt(&interrupted);
  const ProgressStyle style = ProgressStyleFor(StderrIsTerminal());
  ProgressBar reading(style, "tuner db import: lines read", false);
  const IncomingRows incoming = ReadJsonLines(name, &reading);
  reading.Finish();
  ProgressBar checking(style, "tuner db import: rows checked", false);
  CheckIncoming(incoming, "import", DatabasePath(vm), TemplateFolders(vm), &checking);
  checking.Finish();
  db::Store store = db::Store::Open(DatabasePath(vm), db::OpenMode::kReadWrite);
  PrintImported(name, incoming.rows.size(), store.Import(incoming.rows));
  return kExitOk;
}

int RunMerge(int argc, char** argv) {
  po::options_description options("Options");
  options.add_options()("other", po::value<std::string>()->value_name("PATH")->required(),
                        "the database to merge in (read only)");
  AddTemplatesOption(options);
  po::positional_options_description positional;
  positional.add("other", 1);
  po::variables_map vm;
  if (!Parse(argc, argv,
             {"db merge", "tuner db merge OTHER.db [--db PATH] [--templates DIR]",
              "Add the results of another database (from another machine) to this one. GPUs match by UUID,\n"
              "templates by name and hash, sweeps by id; merging twice changes nothing. Its rows are checked\n"
              "as 'db import' checks a file's: one bad row is exit 2 and changes nothing.",
              "tuner db merge h200-node.db"},
             options, positional, &vm))
    return kExitOk;
  const std::string other_path = vm["other"].as<std::string>();
  const std::string path = DatabasePath(vm);
  std::error_code error;
  if (!std::filesystem::exists(other_path, error))
    throw UsageError("merge: there is no database at " + Quoted(other_path));
  if (std::filesystem::equivalent(other_path, path, error))
    throw UsageError("merge: " + Quoted(other_path) + " is the database itself");
  static std::atomic<bool> interrupted{false};  // checking stops at Ctrl-C, before anything is stored
  StopOnInterrupt(&interrupted);
  IncomingRows incoming;
  incoming.rows = db::Store::Open(other_path, db::OpenMode::kReadOnly).ListMeasurements({});
  for (const db::MeasurementRow& row : incoming.rows)
    incoming.where.push_back(Printable(other_path) + ", measurement " + std::to_string(row.measurement.id));
  ProgressBar checking(ProgressStyleFor(StderrIsTerminal()), "tuner db merge: rows checked", false);
  CheckIncoming(incoming, "merge", path, TemplateFolders(vm), &checking);
  checking.Finish();
  db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
  PrintImported(other_path, incoming.rows.size(), store.Import(incoming.rows));
  return kExitOk;
}

int RunUpgrade(int argc, char** argv) {
  po::options_description options("Options");
  po::variables_map vm;
  if (!Parse(argc, argv,
             {"db upgrade", "tuner db upgrade [--db PATH]",
              "Upgrade the database file to this tuner's schema and fold in a write-ahead log left by a\n"
              "killed writer, leaving one self-contained file (no -wal or -shm) that readers who cannot\n"
              "write can read. Reading commands read an older file through an upgrade in memory, so this\n"
              "only makes them faster; it needs write access to the file and its folder.",
              "tuner db upgrade --db /shared/tuner.db"},
             options, {}, &vm))
    return kExitOk;
  const std::string path = DatabasePath(vm);
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw UsageError("upgrade: there is no database at " + Quoted(path));
  const int before = db::CheckFileHeader(path).schema_version;
  db::Store store = db::Store::Open(path, db::OpenMode::kReadWrite);
  std::cout << path << ": schema version " << before;
  if (before < db::kSchemaVersion) std::cout << ", upgraded to " << db::kSchemaVersion;
  std::cout << "\n";
  if (!store.LeaveWalMode())
    std::cout
        << "another program has it open: it stays in WAL mode (with -wal and -shm) until the last writer closes it\n";
  return kExitOk;
}

struct DbCommand {
  const char* name;
  int (*run)(int, char**);
  const char* summary;
};

const DbCommand kDbCommands[] = {
    {"check", RunCheck, "full integrity check of the database"},
    {"info", RunInfo, "counts per GPU, template and status"},
    {"export", RunExport, "write the measurements as JSON lines"},
    {"import", RunImport, "add the measurements of an export"},
    {"merge", RunMerge, "add the results of another database"},
    {"upgrade", RunUpgrade, "upgrade the file to this tuner's schema"},
};

void PrintDbUsage(std::ostream& out) {
  out << "Usage: tuner db COMMAND [options]\n\nLook after the results database ($TUNER_DB, else "
      << ResolveDatabasePath() << ").\n\nCommands:\n";
  for (const DbCommand& c : kDbCommands)
    out << "  " << c.name << std::string(10 - std::strlen(c.name), ' ') << c.summary << "\n";
  out << "\nRun 'tuner db COMMAND --help' for the options of one command.\n";
}

}  // namespace

int RunDb(int argc, char** argv) {
  if (argc < 2) {
    PrintDbUsage(std::cerr);
    return kExitUsage;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h") {
    PrintDbUsage(std::cout);
    return kExitOk;
  }
  std::vector<std::string> names;
  for (const DbCommand& c : kDbCommands) {
    if (name == c.name) return c.run(argc - 1, argv + 1);
    names.push_back(c.name);
  }
  throw UsageError(Quoted(name) + " is not a db command" + DidYouMean(name, names) +
                   "; they are check, info, export, import, merge and upgrade");
}

}  // namespace tuner
