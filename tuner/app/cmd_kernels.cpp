// `tuner kernels`: the templates found, with their parameters, value lists and size variables.
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "app/cli.h"
#include "app/command_options.h"
#include "app/commands.h"
#include "base/errors.h"
#include "common/option_values.h"
#include "template/search_space.h"
#include "template/template_library.h"

namespace tuner {

namespace {

nlohmann::json ToJson(const TemplateSpec& t) {
  nlohmann::json params = nlohmann::json::array(), sizes = nlohmann::json::array();
  for (const ParamSpec& p : t.params)
    params.push_back({{"name", p.name}, {"values", p.values}, {"labels", p.labels}, {"host", p.host}});
  for (const SizeSpec& s : t.sizes) sizes.push_back({{"name", s.name}, {"default", s.default_value}});
  return {{"name", t.name},   {"summary", t.summary}, {"description", t.description_path},   {"hash", t.hash},
          {"params", params}, {"sizes", sizes},       {"combinations", CountCombinations(t)}};
}

void PrintText(const TemplateSpec& t) {
  std::cout << Printable(t.name) << "  " << Printable(t.summary) << "\n  sizes:";
  for (const SizeSpec& s : t.sizes) std::cout << " " << Printable(s.name) << "=" << s.default_value;
  std::cout << "  (--size ";
  for (std::size_t i = 0; i < t.sizes.size(); ++i) std::cout << (i ? "x" : "") << Printable(t.sizes[i].name);
  std::cout << ")\n";
  for (const ParamSpec& p : t.params) {
    std::cout << "  " << Printable(p.name) << (p.host ? " (host)" : "") << ":";
    for (long long v : p.values) std::cout << " " << Printable(ValueLabel(p, v));
    std::cout << "\n";
  }
  std::cout << "  " << CountCombinations(t) << " combinations before constraints; " << Printable(t.description_path)
            << "\n\n";
}

}  // namespace

int RunKernels(int argc, char** argv) {
  const CommandSpec spec{"kernels", "tuner kernels [NAME] [--templates DIR]... [--json]",
                         "List the kernel templates: parameters with their values, and size variables.",
                         "tuner kernels transpose"};
  po::options_description options("Options");
  options.add_options()("name", po::value<std::string>()->value_name("NAME"), "show only this template");
  AddJsonOption(options);
  AddTemplatesOption(options);
  po::positional_options_description positional;
  positional.add("name", 1);
  po::variables_map vm;
  if (!ParseCommandLine(argc, argv, spec, options, positional, &vm)) return kExitOk;
  const auto dirs = TemplateSearchDirs(TemplateFolders(vm));
  const TemplateLibrary library = LoadTemplateLibrary(dirs);
  std::vector<const TemplateSpec*> shown;
  if (vm.count("name"))
    shown.push_back(&library.Find(vm["name"].as<std::string>()));
  else
    for (const TemplateSpec& t : library.templates) shown.push_back(&t);
  for (const std::string& error : library.errors) std::cerr << "warning: " << error << "\n";
  if (library.templates.empty() && library.errors.empty())
    throw std::runtime_error(NoTemplatesMessage(library.searched));
  if (JsonOutput(vm)) {
    nlohmann::json doc = {{"templates", nlohmann::json::array()}, {"errors", library.errors}};
    for (const TemplateSpec* t : shown) doc["templates"].push_back(ToJson(*t));
    std::cout << doc.dump(2) << "\n";
  } else {
    for (const TemplateSpec* t : shown) PrintText(*t);
  }
  return kExitOk;
}

}  // namespace tuner
