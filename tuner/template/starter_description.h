// A first description of a kernel's template, written from its declaration (`tuner new`): one
// size that every buffer has, the integer template arguments (else a block size) as parameters,
// one thread per element, the arguments as argument_guess.h guessed them, a check against the
// first configuration and the bytes every buffer moves. Each part says in a comment what to edit
// next. The kernel file is referenced where it is (`source`, relative to the description), never
// copied: the user keeps editing one file, and a change to it makes a new template version.
#pragma once

#include <string>
#include <vector>

#include "template/argument_guess.h"

namespace tuner {

struct StarterRequest {
  std::string name;         // the template's
  std::string folder;       // where NAME.toml is written; made when missing
  std::string kernel_file;  // the kernel's file, as given
  std::string kernel_text;  // its contents
  KernelGuess guess;
};

struct StarterTemplate {
  std::string description_path;              // FOLDER/NAME.toml
  std::string source;                        // the kernel file as the description names it
  std::string text;                          // the description
  std::string size_name;                     // the one size variable, "N" unless a parameter has that name
  long long size = 0;                        // its default
  std::vector<GuessedParameter> parameters;  // with the block size added where the kernel's name has none
  std::string block_parameter;               // the parameter that is the block size
};

// The description's text (pure: nothing read or written), its source named `source`.
StarterTemplate StarterDescription(const StarterRequest& request, const std::string& source);

// Loads the description as every command would (template_spec.h), from a scratch folder, and only
// then writes FOLDER/NAME.toml, replacing one that is there. UsageError, with nothing written, when
// it does not load, naming the problem as the file would have had it.
StarterTemplate WriteStarterTemplate(const StarterRequest& request);

}  // namespace tuner
