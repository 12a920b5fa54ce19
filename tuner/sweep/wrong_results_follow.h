// Wrong 580 times, not once: a sweep checked against one of its own configurations whose first
// checked candidates are wrong wherever a parameter differs from the reference's value (a
// stencil's number of time steps) stops and names that parameter, instead of recording every
// candidate as a wrong result. The output then follows the parameter, and [check]
// output_depends_on checks each candidate against a reference with its own value.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/candidate_status.h"
#include "template/search_space.h"
#include "template/template_spec.h"

namespace tuner {

struct WrongResultsFollowStop : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class WrongResultsFollow {
 public:
  // Watches only templates checked against their own configuration ([check] reference =
  // "own_configuration"): an independent reference has no parameter values to differ from.
  // Nothing is said before `at_least` candidates are checked and `wrong_at_least` are wrong.
  explicit WrongResultsFollow(const TemplateSpec& spec, std::size_t at_least = 8, std::size_t wrong_at_least = 4);

  // Counts a measured candidate (only ok and wrong_result were checked); throws
  // WrongResultsFollowStop once the pattern is established.
  void Add(const ParamValues& params, CandidateStatus status);

 private:
  // A parameter that varies in the space and that the reference does not follow yet.
  struct Suspect {
    std::string name;
    std::size_t differing = 0;         // checked candidates whose value differs from the reference's
    std::set<long long> other_values;  // their values
    bool differing_all_wrong = true;
    std::size_t same_right = 0, same = 0;  // those with the reference's value, and how many of them were right
  };

  // The candidate's value of `name` when it differs from its reference's.
  std::optional<long long> OtherValue(const ParamValues& params, const std::string& name) const;
  // Suspects that every wrong candidate so far can be blamed on.
  std::vector<const Suspect*> Followed() const;
  [[noreturn]] void Stop(const std::vector<const Suspect*>& followed) const;

  const TemplateSpec& spec_;
  std::size_t at_least_, wrong_at_least_;
  bool armed_;
  std::vector<Suspect> suspects_;
  std::size_t checked_ = 0, wrong_ = 0;
};

}  // namespace tuner
