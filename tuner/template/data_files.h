// The .npy files a template reads: buffer contents (init = "file:PATH") and expected outputs
// ([check] expected). Their type is checked when the description loads; their length here, once
// the problem size is known, before a sweep touches the GPU or the database.
#pragma once

#include <string>
#include <vector>

#include "template/problem_size.h"
#include "template/template_spec.h"

namespace tuner {

// Every data file of the template, in argument order, initial contents before expected outputs.
std::vector<std::string> DataFilesOf(const TemplateSpec& spec);

// A fingerprint of a file's contents for the template version: a sweep on other data is another
// version, so results measured on the old data are never taken for the new. Reads the file once
// (64-bit words, several GB/s).
std::string DataFileDigest(const std::string& path);

// The template with the data files of `size`: its own at the default size, those of its
// [[data_size]] at another. Throws UsageError naming the sizes that have data when a template that
// reads data files has none at `size` and declares other sizes' data.
TemplateSpec SpecAtSize(const TemplateSpec& spec, const ProblemSize& size);

// Every size with data of its own: the defaults, then each [[data_size]] in order (`--sizes
// captured`). Throws UsageError when the template reads no data files.
std::vector<ProblemSize> SizesWithData(const TemplateSpec& spec);

// Throws UsageError naming the file, the argument and both values unless every data file holds
// exactly the argument's length, at this size, of its type.
void CheckDataFiles(const TemplateSpec& spec, const ProblemSize& size);

}  // namespace tuner
