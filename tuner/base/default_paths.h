// Where the tool keeps its files: the results database and the compiled-binary cache
// (XDG base directories). Also compiled into the application library, which finds the database
// the same way.
#pragma once

#include <string>

namespace tuner {

// `command_line` (--db PATH) if given, else $TUNER_DB, else $XDG_DATA_HOME/tuner/tuner.db
// (default ~/.local/share/tuner/tuner.db). Empty variables count as unset.
std::string ResolveDatabasePath(const std::string& command_line = "");

// $XDG_CACHE_HOME/tuner (default ~/.cache/tuner).
std::string CacheDir();

// This process's executable (/proc/self/exe): the tuner binary starts its workers from it.
std::string SelfExecutable();

}  // namespace tuner
