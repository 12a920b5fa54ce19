// Shared command-line plumbing for the subcommands: parsing with Boost.Program_options, --help,
// and turning parse errors into UsageError (exit 2).
#pragma once

#include <boost/program_options.hpp>
#include <string>

namespace tuner {

namespace po = boost::program_options;

struct CommandSpec {
  std::string name;     // "tune"
  std::string usage;    // "tuner tune KERNEL [options]"
  std::string summary;  // one sentence shown under the usage line
  std::string example;  // one example command line, may be empty
};

// Adds --help to `options`, parses argv (argv[0] is the subcommand name) and fills `vm`.
// Prints help to stdout and returns false when --help was given. Throws UsageError otherwise
// on unknown options, missing values, surplus positional arguments and empty values ("--db ''").
bool ParseCommandLine(int argc, char** argv, const CommandSpec& spec, po::options_description options,
                      const po::positional_options_description& positional, po::variables_map* vm);

// UsageError unless `option` was given: "--param: needs --kernel".
void RequireWith(const po::variables_map& vm, const char* option, const char* needed);
// UsageError "--OPTION 'PATH': is a folder; give a file name" when `path` is a folder.
void RequireNoFolder(const char* option, const std::string& path);
// UsageError unless a file can be written at `path`: its folder exists and it is not a folder.
void RequireOutputPath(const char* option, const std::string& path);
// UsageError when both were given.
void RefuseTogether(const po::variables_map& vm, const char* first, const char* second);

// Whether stdout / stderr is a terminal (progress bars and colours only then).
bool StdoutIsTerminal();
bool StderrIsTerminal();

}  // namespace tuner
