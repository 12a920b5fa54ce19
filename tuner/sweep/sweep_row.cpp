#include "sweep/sweep_row.h"

#include <exception>
#include <iostream>

namespace tuner {

SweepRow::~SweepRow() {
  if (finished_) return;
  try {
    store_.FinishSweep(sweep_id_, "failed");
  } catch (const std::exception& e) {  // the exception that ended the sweep matters more
    std::cerr << "tuner: sweep " << sweep_id_ << " could not be marked failed in " << store_.path() << ": " << e.what()
              << "\n";
  }
}

void SweepRow::Finish(const std::string& status) {
  store_.FinishSweep(sweep_id_, status);
  finished_ = true;
}

}  // namespace tuner
