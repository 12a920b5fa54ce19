// Tuning parameters reach the kernel source as -D macros (-DTILE=32). A parameter whose name the
// source also declares, above all as a template's parameter (`template <int TILE>`), would be
// rewritten by its macro into a syntax error (`template <int 32>`) in every candidate. A template
// parameter that the kernel's name expression passes ("pnpoly<BLOCK, TILE>") takes the candidate's
// value through the name instead, and is no macro; any other collision is refused before the first
// compile, once, naming the parameter, the line and the fix.
#pragma once

#include <string>
#include <vector>

#include "template/template_spec.h"

namespace tuner {

// The parameters given to the kernel as template arguments, not as macros. Throws TemplateError
// for a parameter whose macro would rewrite a declaration of the source or its headers, or that is a
// template parameter which an #if also reads (without its macro the #if would read 0).
std::vector<std::string> TemplateArgumentParams(const TemplateSpec& spec);

}  // namespace tuner
