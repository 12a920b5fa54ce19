#include "sweep/wrong_results_follow.h"

#include <algorithm>

namespace tuner {

namespace {

// Past this many checked candidates without a pattern, none is looked for any more: the early
// stop is for the first candidates, as the compile error's is.
constexpr std::size_t kWindow = 32;

template <typename Names>
std::string Joined(const Names& names, const std::string& separator) {
  std::string text;
  for (const auto& name : names) text += (text.empty() ? "" : separator) + name;
  return text;
}

}  // namespace

WrongResultsFollow::WrongResultsFollow(const TemplateSpec& spec, std::size_t at_least, std::size_t wrong_at_least)
    : spec_(spec), at_least_(at_least), wrong_at_least_(wrong_at_least), armed_(spec.check.own_configuration) {
  const std::vector<std::string>& followed = spec.check.output_depends_on;
  for (const ParamSpec& p : spec.params)
    if (p.values.size() > 1 && std::find(followed.begin(), followed.end(), p.name) == followed.end())
      suspects_.push_back({p.name});
}

std::optional<long long> WrongResultsFollow::OtherValue(const ParamValues& params, const std::string& name) const {
  const ParamValues reference = ReferenceParamsFor(spec_, params);
  const auto value_of = [&](const ParamValues& values) {
    return std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == name; });
  };
  const auto mine = value_of(params), theirs = value_of(reference);
  if (mine == params.end() || theirs == reference.end() || mine->second == theirs->second) return std::nullopt;
  return mine->second;
}

void WrongResultsFollow::Add(const ParamValues& params, CandidateStatus status) {
  if (!armed_ || (status != CandidateStatus::kOk && status != CandidateStatus::kWrongResult)) return;
  const bool wrong = status == CandidateStatus::kWrongResult;
  ++checked_;
  wrong_ += wrong;
  for (Suspect& s : suspects_) {
    if (const std::optional<long long> other = OtherValue(params, s.name)) {
      ++s.differing;
      s.other_values.insert(*other);
      s.differing_all_wrong = s.differing_all_wrong && wrong;
    } else {
      ++s.same;
      s.same_right += !wrong;
    }
  }
  const std::vector<const Suspect*> followed = Followed();
  if (checked_ >= at_least_ && wrong_ >= wrong_at_least_ && (wrong_ == checked_ || !followed.empty())) Stop(followed);
  if (checked_ >= kWindow) armed_ = false;
}

// A suspect is blamed when every candidate that differs from the reference in it is wrong (enough
// of them to tell, with two other values or more), and some that share the reference's value are
// right: a wrong candidate among those is a bug of its own, which the sweep records. One other
// value alone (VARIANT=1 against VARIANT=0) is as likely a bug of that variant: it is recorded.
std::vector<const WrongResultsFollow::Suspect*> WrongResultsFollow::Followed() const {
  std::vector<const Suspect*> followed;
  for (const Suspect& s : suspects_)
    if (s.differing_all_wrong && s.differing >= wrong_at_least_ && s.other_values.size() >= 2 && s.same_right > 0)
      followed.push_back(&s);
  return followed;
}

void WrongResultsFollow::Stop(const std::vector<const Suspect*>& followed) const {
  const std::string reference = DescribeParams(ReferenceParams(spec_));
  const std::string first = " of the first " + std::to_string(checked_) + " candidates checked of " + spec_.name;
  if (followed.empty()) {
    std::vector<std::string> differing;  // where none of them has the reference's value: the output may follow one
    for (const Suspect& s : suspects_)
      if (s.same == 0) differing.push_back(s.name);
    throw WrongResultsFollowStop(
        "every one" + first + " differs from the reference configuration (" + reference +
        "), so the sweep stops: check that configuration, or name the parameters its output depends on in [check] "
        "output_depends_on" +
        (differing.empty()
             ? ""
             : " (none of these candidates has the reference's value of " + Joined(differing, ", ") + ")"));
  }
  std::vector<std::string> names, counts;
  for (const Suspect* s : followed) {
    names.push_back(s->name);
    counts.push_back("all " + std::to_string(s->differing) + " whose " + s->name +
                     " differs from the reference's are wrong, " + std::to_string(s->same_right) + " of the " +
                     std::to_string(s->same) + " with its value right");
  }
  throw WrongResultsFollowStop(std::to_string(wrong_) + first + " differ from the reference (" + reference +
                               "): " + Joined(counts, "; ") + ". The sweep stops: the output follows " +
                               Joined(names, " or ") + ". If that is intended, say so in the " +
                               "description, [check] output_depends_on = [\"" + Joined(names, "\", \"") +
                               "\"] (import t1 --output-depends-on " + Joined(names, " --output-depends-on ") +
                               "), and each candidate is checked against a reference run with its " + "own value");
}

}  // namespace tuner
