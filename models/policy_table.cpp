#include "models/policy_table.h"

#include <algorithm>
#include <cctype>
#include <numeric>

#include <fmt/format.h>

namespace memsim {

namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

}  // namespace

std::string usage_of(std::string_view name, std::span<const ParamSpec> params) {
    std::vector<std::string> required;
    for (const ParamSpec& p : params)
        if (p.required()) required.push_back(fmt::format("{}: {}", p.key, placeholder(p.kind)));
    if (required.empty()) return std::string(name);
    if (params.size() == 1) return fmt::format("{}: {}", name, placeholder(params.front().kind));
    return fmt::format("{}: {{{}}}", name, fmt::join(required, ", "));
}

std::string closest_name(std::string_view name, const std::vector<std::string>& names) {
    // Case is ignored: 'DTR' and 'Async' mean 'dtr' and 'async' (names are lower case).
    const auto lower = [](std::string_view text) {
        std::string out(text);
        for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return out;
    };
    const std::string wanted = lower(name);
    std::string best;
    std::size_t best_distance = std::max<std::size_t>(2, name.size() / 3) + 1;
    for (const std::string& candidate : names) {
        const std::size_t d = edit_distance(wanted, lower(candidate));
        if (d < best_distance) {
            best_distance = d;
            best = candidate;
        }
    }
    return best;
}

std::string unknown_name_message(std::string_view what, std::string_view name, const std::vector<std::string>& names) {
    const std::string closest = closest_name(name, names);
    return fmt::format("unknown {} '{}' (valid: {}{})", what, name, fmt::join(names, ", "),
                       closest.empty() ? "" : fmt::format("; did you mean '{}'?", closest));
}

}  // namespace memsim
