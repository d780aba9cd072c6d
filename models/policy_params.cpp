#include "models/policy_params.h"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

namespace memsim {

namespace {

ParamSpec make_spec(std::string_view key, ParamKind kind, std::string_view summary) {
    ParamSpec spec;
    spec.key = key;
    spec.kind = kind;
    spec.summary = summary;
    return spec;
}

// Whole numbers as integers (2147483647, not 2.14748e+09); others as {:g}.
std::string bound_text(double value) {
    if (std::trunc(value) == value && std::fabs(value) < 1e16) return fmt::format("{:.0f}", value);
    return fmt::format("{:g}", value);
}

std::string_view kind_name(ParamKind kind) {
    switch (kind) {
        case ParamKind::Count: return "a whole number";
        case ParamKind::Number: return "a number";
        case ParamKind::Size: return "a size";
        case ParamKind::Duration: return "a duration";
        case ParamKind::Flag: return "true or false";
        case ParamKind::Text: return "text";
    }
    return "";
}

bool holds_kind(ParamKind kind, const ParamValue& value) {
    switch (kind) {
        case ParamKind::Count:
        case ParamKind::Size: return std::holds_alternative<std::uint64_t>(value);
        case ParamKind::Number:
        case ParamKind::Duration: return std::holds_alternative<double>(value);
        case ParamKind::Flag: return std::holds_alternative<bool>(value);
        case ParamKind::Text: return std::holds_alternative<std::string>(value);
    }
    return false;
}

}  // namespace

ParamSpec ParamSpec::in(double lowest, double highest) const {
    ParamSpec spec = *this;
    spec.low = lowest;
    spec.high = highest;
    spec.low_open = false;
    return spec;
}

ParamSpec ParamSpec::above(double bound) const {
    ParamSpec spec = *this;
    spec.low = bound;
    spec.low_open = true;
    return spec;
}

ParamSpec ParamSpec::or_default(double value) const {
    ParamSpec spec = *this;
    if (kind == ParamKind::Count || kind == ParamKind::Size) spec.fallback = static_cast<std::uint64_t>(value);
    else spec.fallback = value;
    return spec;
}

ParamSpec ParamSpec::or_default_flag(bool value) const {
    ParamSpec spec = *this;
    spec.fallback = value;
    return spec;
}

ParamSpec ParamSpec::or_default_text(std::string_view value) const {
    ParamSpec spec = *this;
    spec.fallback = std::string(value);
    return spec;
}

ParamSpec ParamSpec::or_unset() const {
    ParamSpec spec = *this;
    spec.optional = true;
    return spec;
}

ParamSpec ParamSpec::in_unit(std::string_view text) const {
    ParamSpec spec = *this;
    spec.unit = text;
    return spec;
}

ParamSpec count_param(std::string_view key, std::string_view summary) {
    return make_spec(key, ParamKind::Count, summary).in(0, kNoUpperBound);
}
ParamSpec number_param(std::string_view key, std::string_view summary) { return make_spec(key, ParamKind::Number, summary); }
ParamSpec size_param(std::string_view key, std::string_view summary) {
    return make_spec(key, ParamKind::Size, summary).in(0, kNoUpperBound);
}
ParamSpec duration_param(std::string_view key, std::string_view summary) {
    return make_spec(key, ParamKind::Duration, summary).in(0, kMaxParamDurationMs);
}
ParamSpec flag_param(std::string_view key, std::string_view summary) { return make_spec(key, ParamKind::Flag, summary); }
ParamSpec text_param(std::string_view key, std::string_view summary) { return make_spec(key, ParamKind::Text, summary); }

std::string_view placeholder(ParamKind kind) {
    switch (kind) {
        case ParamKind::Count: return "N";
        case ParamKind::Number: return "X";
        case ParamKind::Size: return "SIZE";
        case ParamKind::Duration: return "T";
        case ParamKind::Flag: return "true|false";
        case ParamKind::Text: return "TEXT";
    }
    return "";
}

std::string_view unit_of(const ParamSpec& spec) {
    if (spec.kind == ParamKind::Size) return "B";
    if (spec.kind == ParamKind::Duration) return "ms";
    return spec.unit;
}

std::string kind_and_range(const ParamSpec& spec) {
    std::string text(kind_name(spec.kind));
    if (spec.kind == ParamKind::Flag || spec.kind == ParamKind::Text) return text;
    const bool has_low = spec.low != kNoLowerBound, has_high = spec.high != kNoUpperBound;
    if (has_low && has_high && !spec.low_open)
        text += fmt::format(" in [{}, {}]", bound_text(spec.low), bound_text(spec.high));
    else if (has_low && has_high)
        text += fmt::format(" in ({}, {}]", bound_text(spec.low), bound_text(spec.high));
    else if (has_low)
        text += fmt::format(" {} {}", spec.low_open ? ">" : ">=", bound_text(spec.low));
    else if (has_high)
        text += fmt::format(" <= {}", bound_text(spec.high));
    if (!unit_of(spec).empty()) text += fmt::format(" {}", unit_of(spec));
    return text;
}

std::string value_text(const ParamSpec& spec, const ParamValue& value) {
    const std::string_view unit = unit_of(spec);
    const std::string suffix = unit.empty() ? "" : fmt::format(" {}", unit);
    if (const auto* whole = std::get_if<std::uint64_t>(&value)) return fmt::format("{}{}", *whole, suffix);
    if (const auto* real = std::get_if<double>(&value)) return fmt::format("{:g}{}", *real, suffix);
    if (const auto* yes = std::get_if<bool>(&value)) return *yes ? "true" : "false";
    return std::get<std::string>(value);
}

bool in_range(const ParamSpec& spec, const ParamValue& value) {
    if (!holds_kind(spec.kind, value)) return false;
    double v = 0;
    if (const auto* whole = std::get_if<std::uint64_t>(&value)) v = static_cast<double>(*whole);
    else if (const auto* real = std::get_if<double>(&value)) v = *real;
    else return true;  // flags and text have no range
    if (!std::isfinite(v)) return false;
    return (spec.low_open ? v > spec.low : v >= spec.low) && v <= spec.high;
}

PolicyParams::PolicyParams(std::span<const ParamSpec> specs, const ParamValues& given) {
    const auto spec_of = [&](std::string_view key) -> const ParamSpec* {
        for (const ParamSpec& s : specs)
            if (s.key == key) return &s;
        return nullptr;
    };
    for (const auto& [key, value] : given) {
        const ParamSpec* spec = spec_of(key);
        if (!spec) throw std::invalid_argument(fmt::format("'{}' is not a parameter of this policy", key));
        if (!in_range(*spec, value))
            throw std::invalid_argument(fmt::format("parameter '{}': {} is not {}", key, value_text(*spec, value), kind_and_range(*spec)));
        values_.emplace(key, value);
    }
    for (const ParamSpec& spec : specs) {
        if (values_.count(spec.key)) continue;
        if (spec.fallback) values_.emplace(std::string(spec.key), *spec.fallback);
        else if (spec.required()) throw std::invalid_argument(fmt::format("parameter '{}' is required", spec.key));
    }
}

template <typename T>
const T& PolicyParams::get(std::string_view key) const {
    const auto it = values_.find(key);
    if (it == values_.end())
        throw std::logic_error(fmt::format("policy parameter '{}' is not set (its row does not declare it, or it is unset)", key));
    if (const T* value = std::get_if<T>(&it->second)) return *value;
    throw std::logic_error(fmt::format("policy parameter '{}' is read as another kind than its row declares", key));
}

std::uint64_t PolicyParams::count(std::string_view key) const { return get<std::uint64_t>(key); }
double PolicyParams::number(std::string_view key) const { return get<double>(key); }
std::uint64_t PolicyParams::bytes(std::string_view key) const { return get<std::uint64_t>(key); }
bool PolicyParams::flag(std::string_view key) const { return get<bool>(key); }
const std::string& PolicyParams::text(std::string_view key) const { return get<std::string>(key); }

}  // namespace memsim
