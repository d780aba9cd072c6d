#include "sim/report/charts/value_axis.h"

#include <stdexcept>
#include <algorithm>
#include <functional>
#include <optional>

#include "sim/scenario/units.h"

namespace memsim {

namespace {

std::optional<double> plain_number(const std::string& text) {
    try {
        std::size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size()) return v;
    } catch (const std::exception&) {
    }
    return std::nullopt;
}

// Every value through one parser, or nothing.
std::optional<std::vector<double>> all_parse(const std::vector<std::string>& values,
                                             const std::function<double(const std::string&)>& parse) {
    std::vector<double> numbers;
    try {
        for (const std::string& v : values) numbers.push_back(parse(v));
    } catch (const std::exception&) {
        return std::nullopt;
    }
    return numbers;
}

}  // namespace

ValueAxis value_axis(const std::vector<std::string>& values) {
    ValueAxis axis;
    const std::vector<std::pair<std::string, std::function<double(const std::string&)>>> kinds = {
        {"", [](const std::string& t) {
             if (auto v = plain_number(t)) return *v;
             throw std::invalid_argument(t);
         }},
        {"B/s", [](const std::string& t) { return parse_rate_bytes_per_s(t); }},
        {"B", [](const std::string& t) { return static_cast<double>(parse_bytes(t)); }},
        {"ms", [](const std::string& t) { return parse_time_ms(t); }},
    };
    if (!values.empty()) {
        for (const auto& [unit, parse] : kinds) {
            if (auto numbers = all_parse(values, parse)) {
                axis.numeric = true;
                axis.positions = *numbers;
                axis.unit = unit;
                const auto [lo, hi] = std::minmax_element(numbers->begin(), numbers->end());
                axis.log_scale = *lo > 0 && *hi / *lo >= 20.0;
                return axis;
            }
        }
    }
    for (std::size_t i = 0; i < values.size(); ++i) axis.positions.push_back(static_cast<double>(i));
    return axis;
}

}  // namespace memsim
