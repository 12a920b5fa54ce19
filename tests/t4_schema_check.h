// What the T4 results schema (Kernel Tuner's kernel_tuner/schema/T4/1.0.0/results-schema.json)
// demands of a document. No C++ JSON Schema validator is packaged in Debian, so its rules are
// checked here one by one; t4_export_test shows that the check finds each violation.
#pragma once

#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace tuner::testing {

// One line per violation; empty when the document conforms.
inline std::vector<std::string> T4SchemaProblems(const nlohmann::json& doc) {
  std::vector<std::string> problems;
  const auto problem = [&](const std::string& text) { problems.push_back(text); };
  if (!doc.is_object()) return {"the document is not an object"};
  if (doc.contains("schema_version") &&
      (!doc["schema_version"].is_string() ||
       !std::regex_search(doc["schema_version"].get<std::string>(), std::regex("^[0-9]{1,}.[0-9]{1,}.[0-9]{1,}$"))))
    problem("schema_version is not major.minor.patch");
  if (!doc.contains("results")) return problems;
  if (!doc["results"].is_array()) return {"results is not an array"};
  const std::set<std::string> invalidity = {"timeout", "compile", "runtime", "correctness", "constraints", "correct"};
  for (std::size_t i = 0; i < doc["results"].size(); ++i) {
    const nlohmann::json& r = doc["results"][i];
    const std::string at = "results[" + std::to_string(i) + "]";
    if (!r.is_object()) {
      problem(at + " is not an object");
      continue;
    }
    for (const char* key : {"configuration", "times", "invalidity", "correctness"})
      if (!r.contains(key)) problem(at + " has no " + key);
    if (r.contains("timestamp") && !r["timestamp"].is_string()) problem(at + ".timestamp is not a string");
    if (r.contains("configuration") && !r["configuration"].is_object()) problem(at + ".configuration is not an object");
    if (r.contains("objectives") && !r["objectives"].is_array()) problem(at + ".objectives is not an array");
    if (r.contains("times")) {
      const nlohmann::json& t = r["times"];
      if (!t.is_object()) problem(at + ".times is not an object");
      for (const char* key : {"compilation_time", "framework", "search_algorithm", "validation"})
        if (t.is_object() && t.contains(key) && !t[key].is_number()) problem(at + ".times." + key + " is not a number");
      if (t.is_object() && t.contains("runtimes") && !t["runtimes"].is_array())
        problem(at + ".times.runtimes is not an array");
    }
    if (r.contains("invalidity") &&
        (!r["invalidity"].is_string() || !invalidity.count(r["invalidity"].get<std::string>())))
      problem(at + ".invalidity is not one of the schema's values");
    if (r.contains("correctness") && !r["correctness"].is_number()) problem(at + ".correctness is not a number");
    if (r.contains("measurements")) {
      if (!r["measurements"].is_array())
        problem(at + ".measurements is not an array");
      else
        for (const nlohmann::json& m : r["measurements"]) {
          if (!m.is_object())
            problem(at + ".measurements has an item that is not an object");
          else if ((m.contains("name") && !m["name"].is_string()) || (m.contains("unit") && !m["unit"].is_string()) ||
                   (m.contains("value") && !m["value"].is_number() && !m["value"].is_string() &&
                    !m["value"].is_array()))
            problem(at + ".measurements has an item of the wrong types");
        }
    }
  }
  return problems;
}

}  // namespace tuner::testing
