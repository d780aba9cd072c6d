// The test binary's main: Catch2's, plus the two modes ctest uses (tests/CMakeLists.txt).
//
// A test case needs a process of its own: SimGrid keeps one engine per process and never
// resets its clock (docs/simgrid.md, "One engine per process"). Starting that process
// costs more than most test cases: the dynamic loader and the static constructors of
// SimGrid's libraries (ns-3's among them) took about 50 ms of CPU each time, 180 ms
// under the sanitizers, more than 400 of the cases themselves. So ctest runs the cases of
// a test file in batches: one process starts, and forks a child per case, which begins
// with the libraries loaded and relocated and no engine yet (docs/performance.md, "One
// process per batch, a fork per case").
//
//   memsim_tests --memsim-schedule INDIVIDUAL OUT.cmake BATCH_DIR SPEC [KIND LABELS]
//       writes the ctest script of the cases SPEC selects (batch_schedule.h)
//   memsim_tests --memsim-batch NAMES [Catch options]
//       runs each case named in the file NAMES (one per line) in a forked child
//   memsim_tests [Catch options]   Catch2's own command line, every case in this process
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <string>
#include <vector>

#include "batch_schedule.h"
#include "chromium_browser.h"
#include "file_support.h"

namespace {

// A test spec that selects exactly `name`: every character Catch's spec parser reads as
// syntax (a comma separates specs, brackets open tags, a backslash escapes) escaped.
std::string spec_of(const std::string& name) {
    std::string spec;
    for (char c : name) {
        if (c == '\\' || c == ',' || c == '[' || c == ']' || c == '"' || c == '~') spec += '\\';
        spec += c;
    }
    return spec;
}

// Runs the session's cases and removes this process's scratch folder when they passed
// (each forked case has a pid, so a folder, of its own); a failed case's files stay for
// whoever reads the failure, and the folder is named.
int run_and_tidy(Catch::Session& session) {
    const int failed = session.run();
    const Catch::ConfigData& config = session.configData();
    if (config.listTests || config.listTestNamesOnly || config.listTags || config.listReporters)
        return failed;  // a listing's status is its count, and it made no files
    const std::filesystem::path scratch = memsim::test::scratch_root();
    std::error_code ignored;
    if (failed == 0) std::filesystem::remove_all(scratch, ignored);
    else if (std::filesystem::exists(scratch, ignored))
        std::cerr << "memsim_tests: the failed cases' scratch files are in " << scratch.string() << "\n";
    return failed;
}

// How a child ended, in words; "" when it passed.
std::string failure_of(int status) {
    if (WIFEXITED(status)) return WEXITSTATUS(status) == 0 ? "" : "exit " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return std::string("killed by signal ") + strsignal(WTERMSIG(status));
    return "ended with wait status " + std::to_string(status);
}

// True when a case named in `names` is tagged [chromium]: it renders pages in headless
// Chromium, and the batch's cases share one browser (support/chromium_browser.h).
bool renders_pages(Catch::Session& session, const std::vector<std::string>& names) {
    for (const Catch::TestCase& test : Catch::getAllTestCasesSorted(session.config()))
        if (std::find(names.begin(), names.end(), test.name) != names.end() &&
            std::find(test.tags.begin(), test.tags.end(), "chromium") != test.tags.end())
            return true;
    return false;
}

int run_batch(Catch::Session& session, const char* names_file) {
    if (!std::ifstream(names_file)) {
        std::cerr << "memsim_tests: cannot read the batch file " << names_file << "\n";
        return 2;
    }
    const std::vector<std::string> names = memsim::test::read_names(names_file);
    // Started before the first fork, so that every case's child inherits it; where it
    // cannot start (no Chromium), each case says why for itself.
    if (renders_pages(session, names) && std::filesystem::exists(memsim::test::kChromium)) {
        try {
            memsim::test::Browser::start_for_children();
        } catch (const std::exception& e) {
            std::cerr << "memsim_tests: no browser for the batch's cases: " << e.what() << "\n";
        }
    }
    std::vector<std::string> failures;
    for (std::size_t i = 0; i < names.size(); ++i) {
        std::cout << "memsim batch: [" << i + 1 << "/" << names.size() << "] " << names[i] << std::endl;
        std::fflush(stderr);
        const auto start = std::chrono::steady_clock::now();
        const pid_t child = fork();
        if (child < 0) {
            std::cerr << "memsim_tests: fork failed: " << std::strerror(errno) << "\n";
            return 2;
        }
        if (child == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);  // ctest's timeout kills the batch: its case too
            Catch::ConfigData config = session.configData();
            config.testsOrTags = {spec_of(names[i])};
            session.useConfigData(config);
            // exit, not _exit: the case's process ends as a process of its own would, with
            // the sanitizers' leak check and the static destructors.
            std::exit(run_and_tidy(session));
        }
        int status = 0;
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const std::string failure = failure_of(status);
        std::cout << "memsim batch: [" << i + 1 << "/" << names.size() << "] "
                  << (failure.empty() ? "passed" : "FAILED (" + failure + ")") << " in " << std::fixed << std::setprecision(2)
                  << seconds << " s" << std::defaultfloat << std::endl;
        if (!failure.empty()) failures.push_back(names[i] + " (" + failure + ")");
    }
    std::cout << "memsim batch: " << names.size() - failures.size() << " of " << names.size() << " cases passed\n";
    for (const std::string& f : failures) std::cout << "memsim batch: FAILED: " << f << "\n";
    return failures.empty() ? 0 : 1;
}

int write_schedule(Catch::Session& session, int argc, char** argv) {
    Catch::ConfigData config = session.configData();
    config.testsOrTags = {argv[5]};
    session.useConfigData(config);
    std::vector<memsim::test::ScheduledCase> cases;
    for (const Catch::TestCase& test :
         Catch::filterTests(Catch::getAllTestCasesSorted(session.config()), session.config().testSpec(), session.config()))
        if (!test.isHidden()) cases.push_back({test.lineInfo.file, test.name});  // [.]: run only by name
    return memsim::test::write_ctest_batches(cases, argv[2], argv[3], argv[4], argc >= 8 ? argv[6] : "",
                                             argc >= 8 ? argv[7] : "");
}

}  // namespace

int main(int argc, char** argv) {
    Catch::Session session;
    if (argc >= 6 && std::strcmp(argv[1], "--memsim-schedule") == 0) {
        if (session.applyCommandLine(1, argv) != 0) return 2;
        return write_schedule(session, argc, argv);
    }
    if (argc >= 3 && std::strcmp(argv[1], "--memsim-batch") == 0) {
        // Catch reads the options after the file (--warn NoTests: a name that selects no
        // case fails); argv[0] stands in front of them.
        std::vector<char*> rest{argv[0]};
        rest.insert(rest.end(), argv + 3, argv + argc);
        if (session.applyCommandLine(static_cast<int>(rest.size()), rest.data()) != 0) return 2;
        return run_batch(session, argv[2]);
    }
    if (const int bad = session.applyCommandLine(argc, argv); bad != 0) return bad;
    return run_and_tidy(session);
}
