#include "models/io/json_input.h"

#include <set>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "models/workload/input_error.h"

namespace memsim {

namespace {

struct Refused : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace

nlohmann::json parse_json_input(const std::string& text, const std::string& label, int max_depth) {
    using nlohmann::json;
    std::vector<std::set<std::string>> keys;  // per open object; arrays push an unused entry
    try {
        return json::parse(text, [&](int depth, json::parse_event_t event, json& parsed) {
            if (depth > max_depth) throw Refused(fmt::format("nested deeper than {} levels", max_depth));
            if (event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) keys.emplace_back();
            else if ((event == json::parse_event_t::object_end || event == json::parse_event_t::array_end) && !keys.empty())
                keys.pop_back();
            else if (event == json::parse_event_t::key && !keys.empty() && !keys.back().insert(parsed.get<std::string>()).second)
                throw Refused(fmt::format("key \"{}\" is written twice in one object (each key once)",
                                          parsed.get<std::string>().substr(0, 80)));
            return true;
        });
    } catch (const Refused& e) {
        throw InputError(fmt::format("{}: {}", label, e.what()));
    } catch (const json::exception& e) {  // parse_error, and out_of_range for a number like 1e400
        throw InputError(fmt::format("{}: not valid JSON: {}", label, e.what()));
    }
}

}  // namespace memsim
