#include "sim/scenario/set_origin.h"

#include <fmt/format.h>

namespace memsim {

std::string override_key(const std::string& assignment) {
    const auto eq = assignment.find('=');
    return eq == std::string::npos ? std::string() : assignment.substr(0, eq);
}

std::string key_origin(const std::string& file, const std::vector<std::string>& overrides, const std::string& key) {
    const auto under = [](const std::string& inner, const std::string& outer) {
        return inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 && inner[outer.size()] == '.';
    };
    for (auto it = overrides.rbegin(); it != overrides.rend(); ++it) {
        const std::string set = override_key(*it);
        if (!set.empty() && (set == key || under(key, set) || under(set, key))) return fmt::format("--set '{}'", *it);
    }
    return file;
}

}  // namespace memsim
