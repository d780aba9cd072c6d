// The conditions of `memsim find` (--until, --while): comparisons of summary.json fields
// joined by `and` / `or` (and binds tighter; parentheses group), e.g.
//   status == ok and peak_bytes <= 300MiB
//   overhead <= 1.10 or time_ms < 2s
// A field is any summary.json key (a dotted path reaches nested ones). A value is a
// number, a quantity with units read as scenarios read them (sizes in bytes, rates in
// B/s, times in ms; sim/report/charts/value_axis.h), or a word compared as text (`ok`).
// A point whose run did not finish (status not ok) fails every comparison except those
// on `status` and `message`: its numbers describe a stopped run (docs/find.md).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace memsim {

struct ConditionNode;

// Parentheses nest at most this deep (a condition is read by recursive descent).
inline constexpr int kMaxConditionDepth = 32;

class Condition {
public:
    Condition() = default;
    // Throws InputError "<option>: ..." naming the text it could not read: bad syntax,
    // parentheses nested deeper than kMaxConditionDepth, a value that is not finite
    // (`nan`, `inf`), or a field summary.json never has (the first part of a dotted
    // path; under `details` and `scenario_resolved` the rest is checked per point). So a
    // mistake stops `memsim find` before it runs any point.
    static Condition parse(const std::string& text, const std::string& option);
    // Whether a point's summary satisfies it. Throws InputError when a point that ran to
    // the end has no such field (naming it and the closest field it has).
    bool holds(const nlohmann::json& summary) const;
    // The fields it reads, in the order written.
    std::vector<std::string> fields() const;
    const std::string& text() const { return text_; }

private:
    std::shared_ptr<const ConditionNode> root_;
    std::string text_, option_;
};

}  // namespace memsim
