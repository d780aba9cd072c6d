#include "batch_schedule.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include <fmt/format.h>

namespace memsim::test {

namespace {

namespace fs = std::filesystem;

// A CMake bracket argument holding `text` as it is, whatever it contains.
std::string bracket(const std::string& text) {
    std::string eq;
    while (text.find("]" + eq + "]") != std::string::npos) eq += '=';
    return "[" + eq + "[" + text + "]" + eq + "]";
}

std::string relative_to_source(const std::string& file) {
    const fs::path relative = fs::path(file).lexically_relative(MEMSIM_SOURCE_DIR);
    return relative.empty() || *relative.begin() == ".." ? file : relative.string();
}

}  // namespace

std::vector<std::string> read_names(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> names;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) names.push_back(line);
    return names;
}

int write_ctest_batches(const std::vector<ScheduledCase>& cases, const std::string& individual, const std::string& out_cmake,
                        const std::string& batch_dir, const std::string& kind, const std::string& labels) {
    for (const ScheduledCase& c : cases) {
        if (c.name.find('\n') != std::string::npos || c.name != std::string(c.name.c_str())) {
            std::cerr << "memsim_tests: a test name holds a line break or a NUL: " << c.name << "\n";
            return 2;
        }
    }
    const fs::path exe = fs::read_symlink("/proc/self/exe");
    std::string cmake_list = labels;  // "a,b" as CMake's list "a;b"
    std::replace(cmake_list.begin(), cmake_list.end(), ',', ';');
    const std::vector<std::string> alone_list = read_names(individual);
    const std::set<std::string> alone(alone_list.begin(), alone_list.end());
    // The file's cases in the order Catch lists them (declaration order within a file).
    std::map<std::string, std::vector<std::string>> by_file;
    std::vector<std::string> singles;
    for (const ScheduledCase& c : cases) (alone.count(c.name) ? singles : by_file[relative_to_source(c.file)]).push_back(c.name);

    std::error_code ignored;
    fs::remove_all(batch_dir, ignored);
    fs::create_directories(batch_dir);
    std::string script = "# Written by memsim_tests --memsim-schedule (tests/support/batch_schedule.h); do not edit.\n";
    int files = 0;
    const auto add = [&](const std::string& test, const std::vector<std::string>& names) {
        const fs::path list = fs::path(batch_dir) / fmt::format("{}.txt", files++);
        std::ofstream out(list);
        for (const std::string& n : names) out << n << "\n";
        script += fmt::format("add_test({} {} --memsim-batch {} --warn NoTests)\n", bracket(test), bracket(exe.string()),
                              bracket(list.string()));
        // SKIP_REGULAR_EXPRESSION: a case that cannot run here (a Chromium case without
        // Chromium: support/chromium_support.h) prints the mark, and ctest says skipped.
        script += fmt::format("set_tests_properties({} PROPERTIES WORKING_DIRECTORY {} LABELS {} SKIP_REGULAR_EXPRESSION {})\n",
                              bracket(test), bracket(MEMSIM_SOURCE_DIR), bracket(cmake_list), bracket("memsim test skipped:"));
    };
    for (const std::string& name : singles) add(name, {name});
    for (const auto& [file, names] : by_file) {
        const std::size_t parts = (names.size() + kCasesPerBatch - 1) / kCasesPerBatch;
        for (std::size_t p = 0; p < parts; ++p) {
            const auto first = names.begin() + static_cast<std::ptrdiff_t>(p * names.size() / parts);
            const auto last = names.begin() + static_cast<std::ptrdiff_t>((p + 1) * names.size() / parts);
            const std::string prefix = kind.empty() ? "cases in" : kind + " cases in";
            const std::string test = parts == 1 ? fmt::format("{} {}", prefix, file)
                                                : fmt::format("{} {} ({} of {})", prefix, file, p + 1, parts);
            add(test, {first, last});
        }
    }
    std::ofstream(out_cmake) << script;
    std::cout << "memsim_tests: " << cases.size() << " cases in " << files << " ctest tests (" << singles.size() << " alone) -> "
              << out_cmake << "\n";
    return 0;
}

}  // namespace memsim::test
