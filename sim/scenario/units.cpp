#include "sim/scenario/units.h"

#include <cctype>
#include <cmath>
#include <map>
#include <stdexcept>

namespace memsim {

namespace {

std::string trim(const std::string& s) {
    std::size_t b = 0, e = s.size();
    while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
    while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
    return s.substr(b, e - b);
}

// Splits "23.4MB" into 23.4 and "MB" (spaces between allowed).
std::pair<double, std::string> split_number(const std::string& text, const char* what) {
    const std::string s = trim(text);
    std::size_t used = 0;
    double value = 0;
    try {
        value = std::stod(s, &used);
    } catch (const std::exception&) {
        throw std::invalid_argument("'" + text + "' is not a " + what + " (expected a number followed by a unit)");
    }
    if (!std::isfinite(value) || value < 0)
        throw std::invalid_argument("'" + text + "' is not a " + what + " (must be a finite number >= 0)");
    return {value, trim(s.substr(used))};
}

double byte_unit(const std::string& unit, const std::string& text) {
    static const std::map<std::string, double> units = {
        {"", 1.0},      {"B", 1.0},        {"KB", 1e3},       {"MB", 1e6},       {"GB", 1e9},
        {"TB", 1e12},   {"KiB", 1024.0},   {"MiB", 1048576.0}, {"GiB", 1073741824.0},
        {"TiB", 1099511627776.0}};
    auto it = units.find(unit);
    if (it == units.end())
        throw std::invalid_argument("'" + text + "': unknown size unit '" + unit +
                                    "' (use B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)");
    return it->second;
}

double time_unit_ms(const std::string& unit, const std::string& text) {
    static const std::map<std::string, double> units = {{"ns", 1e-6}, {"us", 1e-3}, {"ms", 1.0}, {"s", 1e3},
                                                        {"min", 6e4}};
    auto it = units.find(unit);
    if (it == units.end())
        throw std::invalid_argument("'" + text + "': " + (unit.empty() ? std::string("missing time unit")
                                                                       : "unknown time unit '" + unit + "'") +
                                    " (use ns, us, ms, s, min)");
    return it->second;
}

}  // namespace

std::uint64_t parse_bytes(const std::string& text) {
    auto [value, unit] = split_number(text, "size");
    const double bytes = value * byte_unit(unit, text);
    if (bytes > 1.8e19) throw std::invalid_argument("'" + text + "' is too large a size");
    const double rounded = std::round(bytes);
    if (std::fabs(bytes - rounded) > 1e-6 * std::max(1.0, bytes))
        throw std::invalid_argument("'" + text + "' is not a whole number of bytes");
    return static_cast<std::uint64_t>(rounded);
}

double parse_rate_bytes_per_s(const std::string& text) {
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos)
        throw std::invalid_argument("'" + text + "' is not a rate (expected e.g. 23.4MB/s or 104094472B/4.452s)");
    const std::string amount = text.substr(0, slash);
    const std::string per = trim(text.substr(slash + 1));
    auto [value, unit] = split_number(amount, "rate");
    const double bytes = value * byte_unit(unit, text);
    // "/s" means per one unit; "/4.452s" means per that duration.
    double seconds = 0;
    if (!per.empty() && (std::isdigit(static_cast<unsigned char>(per[0])) || per[0] == '.')) {
        auto [t, tunit] = split_number(per, "duration");
        seconds = t * time_unit_ms(tunit, text) / 1e3;
    } else {
        seconds = time_unit_ms(per, text) / 1e3;
    }
    if (seconds <= 0) throw std::invalid_argument("'" + text + "': the duration of a rate must be > 0");
    const double rate = bytes / seconds;
    if (rate <= 0) throw std::invalid_argument("'" + text + "': a rate must be > 0");
    return rate;
}

double parse_time_ms(const std::string& text) {
    auto [value, unit] = split_number(text, "duration");
    return value * time_unit_ms(unit, text);
}

}  // namespace memsim
