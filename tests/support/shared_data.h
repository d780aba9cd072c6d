// The shared data next to the repository (../shared): real profiles and the peer
// reference numbers. Only the tests tagged [shared] use it (scripts/test.sh skips them,
// loudly, when ../shared is missing; shared_tag.h checks the tag).
#pragma once

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "shared_tag.h"

namespace memsim::test {

inline std::string shared_profile(const std::string& model) {
    require_shared_tag();
    return std::string(MEMSIM_SHARED_DIR) + "/profiles/" + model;
}

// The shared DTR log whose file name starts with `prefix` and a dash ("treelstm-6").
inline std::string shared_dtr_log(const std::string& prefix) {
    require_shared_tag();
    for (const auto& entry : std::filesystem::directory_iterator(MEMSIM_SHARED_DIR "/dtr-logs"))
        if (entry.path().filename().string().rfind(prefix + "-", 0) == 0) return entry.path().string();
    FAIL("no DTR log starting with " << prefix);
    return {};
}

// The metrics of ../shared/reference/peer_reference.csv for one model and batch.
inline std::map<std::string, double> peer_reference(const std::string& model, int batch) {
    require_shared_tag();
    std::ifstream in(MEMSIM_SHARED_DIR "/reference/peer_reference.csv");
    REQUIRE(in);
    std::map<std::string, double> out;
    std::string line;
    while (std::getline(in, line)) {
        std::stringstream ss(line);
        std::string m, b, metric, value;
        std::getline(ss, m, ',');
        std::getline(ss, b, ',');
        std::getline(ss, metric, ',');
        std::getline(ss, value, ',');
        if (m == model && b == std::to_string(batch)) out[metric] = std::stod(value);
    }
    REQUIRE(!out.empty());
    return out;
}

}  // namespace memsim::test
