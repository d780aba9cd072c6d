// The shared data next to the repository (../shared): real profiles and the peer
// reference numbers. Only the `shared: ...` tests use it (scripts/test.sh skips them,
// loudly, when ../shared is missing).
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace memsim::test {

inline std::string shared_profile(const std::string& model) {
    return std::string(MEMSIM_SHARED_DIR) + "/profiles/" + model;
}

// The metrics of ../shared/reference/peer_reference.csv for one model and batch.
inline std::map<std::string, double> peer_reference(const std::string& model, int batch) {
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
