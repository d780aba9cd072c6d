#include "sim/scenario/output_name.h"

#include <cstdint>

#include <fmt/format.h>

namespace memsim {

namespace {

bool safe_byte(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

// FNV-1a: stable across builds and platforms, unlike std::hash.
std::uint64_t fnv1a(const std::string& text) {
    std::uint64_t h = 14695981039346656037ULL;
    for (unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
    return h;
}

}  // namespace

std::string output_folder_name(const std::string& scenario_name) {
    std::string out;
    out.reserve(scenario_name.size());
    for (char c : scenario_name) out += safe_byte(c) ? c : '_';
    if (out.empty()) return "scenario";
    if (out[0] == '.') out[0] = '_';
    return out;
}

std::string output_dir_with_overrides(const std::string& dir, const std::vector<std::string>& overrides) {
    static constexpr std::size_t kMaxSuffix = 160;
    std::string suffix;
    for (const std::string& o : overrides) {
        if (o.rfind("output.", 0) == 0) continue;
        suffix += "--";
        for (char c : o) suffix += safe_byte(c) || c == '=' ? c : '_';
    }
    if (suffix.size() > kMaxSuffix) suffix = suffix.substr(0, kMaxSuffix) + fmt::format("-{:016x}", fnv1a(suffix));
    return dir + suffix;
}

}  // namespace memsim
