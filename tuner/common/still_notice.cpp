#include "common/still_notice.h"

#include <iostream>

namespace tuner {

StillNotice::StillNotice(std::string who, std::ostream* out, Clock now)
    : who_(std::move(who)), out_(out ? out : &std::cerr), now_(std::move(now)), start_(now_()) {}

void StillNotice::Tick(const std::function<std::string()>& doing) {
  const double elapsed_s = std::chrono::duration<double>(now_() - start_).count();
  if (elapsed_s < next_s_) return;
  *out_ << who_ << ": still " << doing() << " (" << static_cast<int>(elapsed_s) << " s)\n" << std::flush;
  while (next_s_ <= elapsed_s) next_s_ += kStillNoticeS;
}

void StillNotice::Restart() {
  start_ = now_();
  next_s_ = kStillNoticeS;
}

}  // namespace tuner
