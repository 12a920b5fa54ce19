// A plain-text table with aligned columns, for terminal output.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tuner {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : rows_{std::move(header)} {}
  void Add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  void Print(std::ostream& out) const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

// "%.3g"-style formatting with a fixed number of decimals.
std::string Fixed(double value, int decimals);

}  // namespace tuner
