// The .npy files a template reads: buffer contents (init = "file:PATH") and expected outputs
// ([check] expected). Their type is checked when the description loads; their length here, once
// the problem size is known, before a sweep touches the GPU or the database.
#pragma once

#include <string>
#include <vector>

#include "problem_size.h"
#include "template_spec.h"

namespace tuner {

// Every data file of the template, in argument order, initial contents before expected outputs.
std::vector<std::string> DataFilesOf(const TemplateSpec& spec);

// A fingerprint of a file's contents for the template version: a sweep on other data is another
// version, so results measured on the old data are never taken for the new. Reads the file once
// (64-bit words, several GB/s).
std::string DataFileDigest(const std::string& path);

// Throws UsageError naming the file, the argument and both values unless every data file holds
// exactly the argument's length, at this size, of its type.
void CheckDataFiles(const TemplateSpec& spec, const ProblemSize& size);

}  // namespace tuner
