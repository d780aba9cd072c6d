#include "sim/scenario/output_name.h"

namespace memsim {

std::string output_folder_name(const std::string& scenario_name) {
    std::string out;
    out.reserve(scenario_name.size());
    for (char c : scenario_name) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
                          c == '_' || c == '.';
        out += keep ? c : '_';
    }
    if (out.empty()) return "scenario";
    if (out[0] == '.') out[0] = '_';
    return out;
}

}  // namespace memsim
