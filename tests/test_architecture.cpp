// The layers' promises (docs/architecture.md), checked on the sources themselves: data
// flows one way, models -> engine and scenario -> report -> app, so a layer includes only
// from itself and the layers below it (the linker checks the same on the objects:
// memsim_layer_check_<layer> in CMakeLists.txt); the engine forks no process; no source
// file grows past 400 lines.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

const fs::path kRoot = MEMSIM_SOURCE_DIR;

std::vector<fs::path> sources_under(const std::string& folder) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(kRoot / folder)) {
        const std::string ext = entry.path().extension().string();
        if (entry.is_regular_file() && (ext == ".h" || ext == ".cpp")) files.push_back(entry.path());
    }
    return files;
}

std::string text_of(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// The project paths a file includes ("sim/engine/clock.h"), by their first folder.
std::vector<std::string> project_includes(const fs::path& file) {
    static const std::regex include(R"re(#include\s+"([^"]+)")re");
    std::vector<std::string> found;
    const std::string text = text_of(file);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), include); it != std::sregex_iterator(); ++it)
        found.push_back((*it)[1]);
    return found;
}

bool allowed(const std::string& included, const std::vector<std::string>& prefixes) {
    if (included.find('/') == std::string::npos) return true;  // a header beside the file
    for (const std::string& p : prefixes)
        if (included.rfind(p, 0) == 0) return true;
    return false;
}

}  // namespace

// Each layer's folder and the layers it may include from, below it; the same table as
// the libraries' DEPENDS in CMakeLists.txt.
const std::map<std::string, std::vector<std::string>> kLayers = {
    {"models", {"models/"}},
    {"sim/engine", {"models/", "sim/engine/"}},
    {"sim/scenario", {"models/", "sim/scenario/"}},
    {"sim/report", {"models/", "sim/engine/", "sim/scenario/", "sim/report/"}},
    {"sim/app", {"models/", "sim/engine/", "sim/scenario/", "sim/report/", "sim/app/"}},
    // The Python module (python/CMakeLists.txt links memsim_app only): the top.
    {"python", {"models/", "sim/engine/", "sim/scenario/", "sim/report/", "sim/app/", "python/"}},
};

TEST_CASE("architecture: each layer includes only from itself and the layers below it") {
    int checked = 0;
    for (const auto& [folder, prefixes] : kLayers) {
        for (const fs::path& file : sources_under(folder)) {
            for (const std::string& inc : project_includes(file)) {
                INFO(fs::relative(file, kRoot).string() << " includes " << inc);
                CHECK(allowed(inc, prefixes));
                ++checked;
            }
        }
    }
    CHECK(checked > 500);  // the walk saw the sources
}

TEST_CASE("architecture: sim/ holds only the four layers and the top level is the design card's") {
    std::set<std::string> under_sim;
    for (const auto& entry : fs::directory_iterator(kRoot / "sim")) under_sim.insert(entry.path().filename().string());
    CHECK(under_sim == std::set<std::string>{"app", "engine", "report", "scenario"});
    for (const std::string old : {"engine", "app", "report"}) {
        INFO(old);
        CHECK_FALSE(fs::exists(kRoot / old));
    }
}

TEST_CASE("architecture: no engine file forks a process, the run layer does") {
    static const std::regex fork_call(R"(\b(fork|vfork|posix_spawn|popen)\s*\()");
    int files = 0;
    for (const fs::path& file : sources_under("sim/engine")) {
        INFO(fs::relative(file, kRoot).string());
        CHECK_FALSE(std::regex_search(text_of(file), fork_call));
        ++files;
    }
    CHECK(files > 20);
    // The one place memsim forks is the run layer's child process helper.
    CHECK(std::regex_search(text_of(kRoot / "sim/app/run/child_process.cpp"), fork_call));
}

TEST_CASE("architecture: no source file is over 400 lines") {
    for (const auto& [folder, below] : kLayers) {
        for (const fs::path& file : sources_under(folder)) {
            std::ifstream in(file);
            int lines = 0;
            for (std::string line; std::getline(in, line);) ++lines;
            INFO(fs::relative(file, kRoot).string() << ": " << lines << " lines");
            CHECK(lines <= 400);
        }
    }
}

TEST_CASE("architecture: every file and folder docs/architecture.md names exists") {
    // Paths in the page's text and its diagram: a word with a folder and a file
    // extension or a trailing slash; recipes' placeholders (<name>, *) are templates.
    static const std::regex path(R"re(\b((?:models|sim|tests|docs|scripts|cmake|python)/[A-Za-z0-9_./<>*{},]*))re");
    const std::string page = text_of(kRoot / "docs/architecture.md");
    int named = 0;
    for (auto it = std::sregex_iterator(page.begin(), page.end(), path); it != std::sregex_iterator(); ++it) {
        std::string p = (*it)[1];
        while (!p.empty() && (p.back() == '.' || p.back() == ',')) p.pop_back();
        if (p.find_first_of("<>*{}") != std::string::npos) continue;
        INFO(p);
        CHECK(fs::exists(kRoot / p));
        ++named;
    }
    CHECK(named > 40);
}

TEST_CASE("architecture: one source file knows where the source tree is") {
    // MEMSIM_SOURCE_DIR is defined for sim/scenario/source_tree.cpp and the tests only
    // (CMakeLists.txt); any other program file that names it would not compile, or
    // would depend on where it was built.
    std::vector<std::string> naming;
    for (const std::string folder : {"models", "sim", "python", "fuzz", "bench"})
        for (const fs::path& file : sources_under(folder))
            if (text_of(file).find("MEMSIM_SOURCE_DIR") != std::string::npos)
                naming.push_back(fs::relative(file, kRoot).string());
    CHECK(naming == std::vector<std::string>{"sim/scenario/source_tree.cpp"});
    // The define itself: once per build file, on that file (the tests' own in tests/).
    for (const std::string cmake : {"CMakeLists.txt", "fuzz/CMakeLists.txt", "tests/CMakeLists.txt"}) {
        const std::string text = text_of(kRoot / cmake);
        std::size_t defines = 0;
        for (std::size_t at = text.find("MEMSIM_SOURCE_DIR="); at != std::string::npos;
             at = text.find("MEMSIM_SOURCE_DIR=", at + 1))
            ++defines;
        INFO(cmake);
        CHECK(defines == 1);
        if (cmake != "tests/CMakeLists.txt")
            CHECK(text.find("set_source_files_properties(${CMAKE_SOURCE_DIR}/sim/scenario/source_tree.cpp") != std::string::npos);
    }
}
