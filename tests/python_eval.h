// Python 3's own `eval` of test expressions (TUNER_PYTHON3, the interpreter CMake found), so that
// the translations and constant evaluations of T1's Python are checked against Python itself on
// generated cases. Only the tests run Python; the importer never does.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace tuner::testing {

// What Python gave: an error (its exception's type), a number, or a sequence of numbers.
struct PythonResult {
  std::string error;  // "ZeroDivisionError"; empty when there is a value
  bool is_sequence = false;
  double number = 0;
  std::vector<double> items;
};

struct PythonCase {
  std::string expression;
  std::map<std::string, double> names;  // whole numbers, bound as Python ints
};

// Evaluates each case with only the builtins T1's Python uses; one interpreter for the batch.
inline std::vector<PythonResult> EvalInPython(const std::vector<PythonCase>& cases) {
  static const char* const kScript = R"(
import json, sys
allowed = {"range": range, "list": list, "tuple": tuple, "min": min, "max": max, "abs": abs,
           "int": int, "float": float}
out = []
for case in json.load(open(sys.argv[1])):
    scope = {"__builtins__": allowed}
    scope.update({k: int(v) for k, v in case["names"].items()})
    try:
        v = eval(case["expression"], scope)
        if isinstance(v, (list, tuple, range)) or type(v).__name__ == "generator":
            items = [float(x) for x in v]
            out.append({"items": items})
        else:
            out.append({"number": float(v)})
    except Exception as e:
        out.append({"error": type(e).__name__})
json.dump(out, open(sys.argv[2], "w"))
)";
  const std::string stem = "/tmp/tuner-python-eval-" + std::to_string(getpid());
  nlohmann::json input = nlohmann::json::array();
  for (const PythonCase& c : cases) input.push_back({{"expression", c.expression}, {"names", c.names}});
  std::ofstream(stem + ".json") << input.dump();
  std::ofstream(stem + ".py") << kScript;
  const std::string command =
      std::string(TUNER_PYTHON3) + " " + stem + ".py " + stem + ".json " + stem + ".out.json";
  const int status = std::system(command.c_str());
  std::ifstream in(stem + ".out.json");
  if (status != 0 || !in) throw std::runtime_error("python3 failed: " + command);
  const nlohmann::json output = nlohmann::json::parse(in);
  for (const char* suffix : {".json", ".py", ".out.json"}) std::remove((stem + suffix).c_str());
  std::vector<PythonResult> results;
  for (const nlohmann::json& r : output) {
    PythonResult result;
    if (r.contains("error")) result.error = r["error"].get<std::string>();
    if (r.contains("number")) result.number = r["number"].get<double>();
    if (r.contains("items")) {
      result.is_sequence = true;
      result.items = r["items"].get<std::vector<double>>();
    }
    results.push_back(result);
  }
  return results;
}

// Random expressions of T1's Python, seeded, so a failure can be replayed.
class PythonGenerator {
 public:
  explicit PythonGenerator(unsigned seed, std::vector<std::string> names) : random_(seed), names_(std::move(names)) {}

  int Pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(random_); }

  std::string SmallNumber() { return std::to_string(Pick(11) - 3); }

  // A whole-number expression: its operands are parenthesised, so the generator knows its shape.
  std::string Integer(int depth) {
    if (depth <= 0 || Pick(4) == 0) return Atom();
    switch (Pick(9)) {
      case 0:
        return "(" + Integer(depth - 1) + ") + (" + Integer(depth - 1) + ")";
      case 1:
        return "(" + Integer(depth - 1) + ") - (" + Integer(depth - 1) + ")";
      case 2:
        return "(" + Integer(depth - 1) + ") * (" + Integer(depth - 1) + ")";
      case 3:
        return "(" + Integer(depth - 1) + ") // (" + Integer(depth - 1) + ")";
      case 4:
        return "(" + Integer(depth - 1) + ") % (" + Integer(depth - 1) + ")";
      case 5:
        return "(" + Integer(depth - 1) + ") ** " + std::to_string(Pick(4));
      case 6:
        return "-(" + Integer(depth - 1) + ")";
      case 7:
        return std::string(Pick(2) ? "min(" : "max(") + Integer(depth - 1) + ", " + Integer(depth - 1) +
               (Pick(2) ? ", " + Atom() : "") + ")";
      default:
        return "abs(" + Integer(depth - 1) + ")";
    }
  }

  // A sequence of whole numbers as T1 writes them.
  std::string Sequence(int depth) {
    switch (Pick(depth > 0 ? 8 : 5)) {
      case 0:
        return "[" + List(Pick(4)) + "]";
      case 1:
        return "(" + List(Pick(3) + 2) + ")";
      case 2:
        return "range(" + SmallNumber() + ", " + std::to_string(Pick(40) - 8) + ", " + NonZeroStep() + ")";
      case 3:
        return "list(range(" + std::to_string(Pick(12)) + "))";
      case 4:
        return "range(" + SmallNumber() + ", " + std::to_string(Pick(30)) + ")";
      case 5:
        return "[" + Comprehended() + " for i in " + Sequence(depth - 1) +
               (Pick(2) ? " if " + Filter() : "") + "]";
      case 6:
        return "list(" + Sequence(depth - 1) + ") + [" + List(Pick(3)) + "]";
      default:
        return "[" + List(Pick(3)) + "] + list(" + Sequence(depth - 1) + ")";
    }
  }

  // A condition over the names, as the T1 constraints are written.
  std::string Condition(int depth) {
    if (depth <= 0) return Compare(0);
    switch (Pick(7)) {
      case 0:
        return "(" + Condition(depth - 1) + ") and (" + Condition(depth - 1) + ")";
      case 1:
        return "(" + Condition(depth - 1) + ") or (" + Condition(depth - 1) + ")";
      case 2:
        return "not (" + Condition(depth - 1) + ")";
      case 3:  // a list of the names, or of constants (the import evaluates those)
        return "(" + Integer(1) + ") " + (Pick(2) ? "in " : "not in ") +
               (Pick(3) == 0 ? "[" + List(1 + Pick(3)) + "]" : ConstantSequence(1));
      case 4:
        return "(" + Integer(depth - 1) + ") if (" + Condition(depth - 1) + ") else (" + Integer(depth - 1) + ")";
      default:
        return Compare(depth - 1);
    }
  }

 private:
  std::string Atom() {
    const int pick = Pick(static_cast<int>(names_.size()) + 3);
    if (pick < static_cast<int>(names_.size())) return names_[pick];
    if (pick == static_cast<int>(names_.size())) return Pick(2) ? "True" : "False";
    return SmallNumber();
  }

  std::string ConstantSequence(int depth) {
    std::vector<std::string> names;
    names.swap(names_);
    const std::string text = Sequence(depth);
    names.swap(names_);
    return text;
  }

  std::string NonZeroStep() {
    const int step = Pick(7) - 3;
    return std::to_string(step == 0 ? 2 : step);
  }

  std::string List(int n) {
    std::string text;
    for (int i = 0; i < n; ++i) text += (i ? ", " : "") + Integer(1);
    return text;
  }

  // The element of a comprehension over i: whole numbers, or 2**i (a float where i < 0).
  std::string Comprehended() {
    static const char* const kElements[] = {"i", "2**i", "i * i - 1", "i // 2", "-i % 3", "max(i, 2)", "abs(i - 4)"};
    return kElements[Pick(7)];
  }

  // The `if` of a comprehension over i.
  std::string Filter() {
    static const char* const kFilters[] = {"i % 2 == 0", "i > 1", "i != 3", "i < 5 and i != 2", "i in (1, 4, 5)",
                                           "not i % 3", "0 < i <= 6"};
    return kFilters[Pick(7)];
  }

  std::string Compare(int depth) {
    static const char* const kOperators[] = {"<", "<=", ">", ">=", "==", "!="};
    std::string text = "(" + Integer(depth) + ")";
    const int links = 1 + Pick(3);  // chains of up to three comparisons, as Python chains them
    for (int i = 0; i < links; ++i) text += std::string(" ") + kOperators[Pick(6)] + " (" + Integer(depth) + ")";
    return text;
  }

  std::mt19937 random_;
  std::vector<std::string> names_;
};

}  // namespace tuner::testing
