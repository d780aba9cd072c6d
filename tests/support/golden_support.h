// Golden files: outputs pinned byte for byte under tests/golden/. A change of behaviour
// is a reviewed diff: `scripts/update_golden.sh` reruns the suite with
// MEMSIM_UPDATE_GOLDEN=1, which rewrites the files instead of comparing, and `git diff
// tests/golden` then shows what changed.
#pragma once

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "file_support.h"
#include "sim/report/events_csv.h"
#include "sim/app/run/simulation.h"

namespace memsim::test {

inline bool updating_golden() { return std::getenv("MEMSIM_UPDATE_GOLDEN") != nullptr; }

inline std::filesystem::path golden_path(const std::string& relative) {
    return std::filesystem::path(MEMSIM_GOLDEN_DIR) / relative;
}

// Compares `actual` with tests/golden/<relative>; on a difference, names the first line
// that differs (the files can be long).
inline void check_golden(const std::string& relative, const std::string& actual) {
    const std::filesystem::path path = golden_path(relative);
    if (updating_golden()) {
        std::filesystem::create_directories(path.parent_path());
        std::ofstream(path, std::ios::binary) << actual;
        return;
    }
    INFO("golden file " << path.string() << " (scripts/update_golden.sh rewrites it when a change is intended)");
    REQUIRE(std::filesystem::exists(path));
    const std::string expected = read_file(path);
    if (expected == actual) {
        SUCCEED();
        return;
    }
    std::istringstream want(expected), got(actual);
    std::string want_line, got_line;
    int line = 1;
    while (true) {
        const bool more_want = static_cast<bool>(std::getline(want, want_line));
        const bool more_got = static_cast<bool>(std::getline(got, got_line));
        if (!more_want && !more_got) break;
        if (!more_want || !more_got || want_line != got_line) {
            FAIL_CHECK("first difference at line " << line << "\n  golden: " << (more_want ? want_line : "<end of file>")
                                                   << "\n  actual: " << (more_got ? got_line : "<end of file>"));
            return;
        }
        ++line;
    }
    FAIL_CHECK("the files differ only in their line endings");
}

// summary.json as `memsim run` writes its summary part, and events.csv, for a run made in
// the test process: tests/golden/<name>/summary.json and events.csv.
inline void check_golden_run(const std::string& name, const RunResult& r) {
    check_golden(name + "/summary.json", to_json(r.summary).dump(2) + "\n");
    check_golden(name + "/events.csv", events_csv(r.log));
}

// The SHA-256 of a file, as sha256sum prints it (hex).
inline std::string sha256_of(const std::filesystem::path& file) {
    const std::filesystem::path digest = fresh_dir("sha256") / "digest";
    const std::string cmd = "sha256sum '" + file.string() + "' > '" + digest.string() + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    const std::string line = read_file(digest);
    REQUIRE(line.size() >= 64);
    return line.substr(0, 64);
}

}  // namespace memsim::test
