// A policy's parameters. Each row of a policy table declares the parameters its policy
// takes (key, kind, unit, range, default, one line of help); the scenario layer reads,
// range-checks and documents every parameter from those declarations alone, and the
// policy reads its values by key through PolicyParams. So a parameterised policy is its
// own file and its row: nothing else names its parameters.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace memsim {

enum class ParamKind {
    Count,     // a whole number >= 0 (an op count, a seed)
    Number,    // a real number
    Size,      // bytes, written with a unit (300MiB)
    Duration,  // milliseconds, written with a unit (20ms, 1.5s)
    Flag,      // true or false
    Text,      // free text
};

// A value: Count and Size as std::uint64_t, Number and Duration (ms) as double.
using ParamValue = std::variant<std::uint64_t, double, bool, std::string>;
// Values by parameter key: what a scenario gave one policy choice.
using ParamValues = std::map<std::string, ParamValue, std::less<>>;

inline constexpr double kNoLowerBound = -std::numeric_limits<double>::infinity();
inline constexpr double kNoUpperBound = std::numeric_limits<double>::infinity();
// The longest duration a parameter may take, as the platform's latencies (docs/limits.md).
inline constexpr double kMaxParamDurationMs = 1e9;

struct ParamSpec {
    std::string_view key;
    ParamKind kind = ParamKind::Number;
    std::string_view summary;  // one line, for --help and the docs
    std::string_view unit;     // of the value, shown with it ("ops"); sizes are B and durations ms
    double low = kNoLowerBound;  // the range, in the value's unit; finite numbers only
    double high = kNoUpperBound;
    bool low_open = false;                // (low, high] rather than [low, high]
    std::optional<ParamValue> fallback;   // the default; none: required unless `optional`
    bool optional = false;                // may stay unset (the policy then decides)

    // Builders, so a row reads as one line: count_param("ops", "...").in(0, 100).or_default(2).
    [[nodiscard]] ParamSpec in(double lowest, double highest) const;
    [[nodiscard]] ParamSpec above(double bound) const;  // > bound, no upper bound
    // The default, in the value's unit: a number for Count, Size, Number and Duration.
    [[nodiscard]] ParamSpec or_default(double value) const;
    [[nodiscard]] ParamSpec or_default_flag(bool value) const;
    [[nodiscard]] ParamSpec or_default_text(std::string_view value) const;
    [[nodiscard]] ParamSpec or_unset() const;
    [[nodiscard]] ParamSpec in_unit(std::string_view text) const;
    [[nodiscard]] bool required() const { return !fallback && !optional; }
};

ParamSpec count_param(std::string_view key, std::string_view summary);
ParamSpec number_param(std::string_view key, std::string_view summary);
ParamSpec size_param(std::string_view key, std::string_view summary);
ParamSpec duration_param(std::string_view key, std::string_view summary);
ParamSpec flag_param(std::string_view key, std::string_view summary);
ParamSpec text_param(std::string_view key, std::string_view summary);

// How a scenario writes a value of the kind ("N", "T", "SIZE", ...) and its unit.
std::string_view placeholder(ParamKind kind);
std::string_view unit_of(const ParamSpec& spec);
// "a whole number in [0, 100] ops", "a size > 0 B": the kind and the range, for --help.
std::string kind_and_range(const ParamSpec& spec);
// The value as --help and the run header show it ("3", "1.5 ms", "true").
std::string value_text(const ParamSpec& spec, const ParamValue& value);

// Is the value inside the spec's range (finite, and of the spec's kind)?
bool in_range(const ParamSpec& spec, const ParamValue& value);

// The values a policy is built with: those given, completed by the row's defaults. Reading
// a key the row does not declare, or as another kind, is a bug (std::logic_error).
class PolicyParams {
public:
    PolicyParams() = default;
    // Throws std::invalid_argument for a given key the specs do not declare, a value
    // outside its range, or a required parameter not given.
    PolicyParams(std::span<const ParamSpec> specs, const ParamValues& given);

    [[nodiscard]] std::uint64_t count(std::string_view key) const;
    [[nodiscard]] double number(std::string_view key) const;    // Number, Duration (ms)
    [[nodiscard]] std::uint64_t bytes(std::string_view key) const;  // Size
    [[nodiscard]] bool flag(std::string_view key) const;
    [[nodiscard]] const std::string& text(std::string_view key) const;
    [[nodiscard]] bool has(std::string_view key) const { return values_.find(key) != values_.end(); }
    [[nodiscard]] const ParamValues& values() const { return values_; }

private:
    template <typename T>
    const T& get(std::string_view key) const;
    ParamValues values_;
};

}  // namespace memsim
