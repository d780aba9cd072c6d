#include "models/workload/dtr_log_lines.h"

#include <charconv>
#include <set>

#include <fmt/format.h>

#include "models/workload/input_error.h"

namespace memsim {

namespace {

using nlohmann::json;

// A line's JSON; `twice` gets the first key an object holds twice (nlohmann would keep
// the last silently).
json parse_line(const std::string& text, std::optional<std::string>& twice) {
    std::vector<std::set<std::string>> keys;  // per open object
    return json::parse(text, [&](int, json::parse_event_t event, json& parsed) {
        if (event == json::parse_event_t::object_start) keys.emplace_back();
        else if (event == json::parse_event_t::object_end && !keys.empty()) keys.pop_back();
        else if (event == json::parse_event_t::key && !keys.empty() && !keys.back().insert(parsed.get<std::string>()).second &&
                 !twice)
            twice = parsed.get<std::string>();
        return true;
    });
}

}  // namespace

std::string shorten_for_message(const std::string& s) { return s.size() > 120 ? s.substr(0, 117) + "..." : s; }

std::optional<DtrLine> DtrLineReader::next() {
    std::string text;
    while (std::getline(in_, text)) {
        ++number_;
        if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
        DtrLine line{number_, {}};
        std::optional<std::string> twice;
        try {
            line.value = parse_line(text, twice);
        } catch (const json::exception& e) {  // parse_error, and out_of_range for a number like 1e400
            throw InputError(
                fmt::format("{}:{}: malformed JSON line '{}': {}", path_, number_, shorten_for_message(text), e.what()));
        }
        if (twice)
            throw InputError(fmt::format("{}:{}: key \"{}\" is written twice in '{}' (each key once)", path_, number_,
                                         shorten_for_message(*twice), shorten_for_message(text)));
        if (!line.value.is_object())
            throw InputError(fmt::format("{}:{}: expected a JSON object, got '{}'", path_, number_, shorten_for_message(text)));
        return line;
    }
    return std::nullopt;
}

void fail_at_line(const std::string& path, const DtrLine& line, const std::string& what) {
    throw InputError(fmt::format("{}:{}: {}", path, line.number, what));
}

std::string dtr_string_field(const std::string& path, const DtrLine& line, const char* key) {
    const auto it = line.value.find(key);
    if (it == line.value.end()) fail_at_line(path, line, fmt::format("missing field {}", key));
    if (!it->is_string()) fail_at_line(path, line, fmt::format("field {} must be a string, got {}", key, it->dump()));
    return it->get<std::string>();
}

long long dtr_integer_field(const std::string& path, const DtrLine& line, const char* key, long long minimum, long long maximum) {
    const auto fail = [&](const std::string& what) { fail_at_line(path, line, what); };
    const auto it = line.value.find(key);
    if (it == line.value.end()) fail(fmt::format("missing field {}", key));
    const auto too_large = [&](const std::string& text) {
        fail(fmt::format("field {} is {}, more than the largest allowed, {}", key, text, maximum));
    };
    long long v = 0;
    if (it->is_number_unsigned()) {
        if (it->get<std::uint64_t>() > static_cast<std::uint64_t>(maximum)) too_large(it->dump());
        v = static_cast<long long>(it->get<std::uint64_t>());
    } else if (it->is_number_integer()) {
        v = it->get<long long>();
    } else if (it->is_string()) {
        const std::string s = it->get<std::string>();
        const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (s.empty() || end != s.data() + s.size() || (error != std::errc() && error != std::errc::result_out_of_range))
            fail(fmt::format("field {} must be an integer, got \"{}\"", key, shorten_for_message(s)));
        if (error == std::errc::result_out_of_range) {
            if (s[0] == '-') fail(fmt::format("field {} must be >= {}, got {}", key, minimum, shorten_for_message(s)));
            too_large(shorten_for_message(s));
        }
    } else {
        fail(fmt::format("field {} must be an integer, got {}", key, shorten_for_message(it->dump())));
    }
    if (v < minimum) fail(fmt::format("field {} must be >= {}, got {}", key, minimum, v));
    if (v > maximum) too_large(std::to_string(v));
    return v;
}

std::vector<std::string> dtr_string_list(const std::string& path, const DtrLine& line, const char* key) {
    const auto it = line.value.find(key);
    if (it == line.value.end() || !it->is_array()) fail_at_line(path, line, fmt::format("field {} must be a list", key));
    std::vector<std::string> out;
    for (const nlohmann::json& e : *it) {
        if (!e.is_string()) fail_at_line(path, line, fmt::format("field {} must list names, got {}", key, e.dump()));
        out.push_back(e.get<std::string>());
    }
    return out;
}

}  // namespace memsim
