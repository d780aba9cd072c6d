// Files and processes for tests: read a file whole, a fresh scratch folder, run the
// memsim binary and capture its exit code and output.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "shared_tag.h"

namespace memsim::test {

inline std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// This test process's scratch folder: every fresh_dir is inside it, and the test main
// (tests/support/batch_main.cpp) removes it when the process's cases passed.
inline std::filesystem::path scratch_root() {
    return std::filesystem::temp_directory_path() / ("memsim_test_" + std::to_string(::getpid()));
}

// An empty folder under the temp dir, unique to this test process.
inline std::filesystem::path fresh_dir(const std::string& name) {
    const std::filesystem::path dir = scratch_root() / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

// A file's path in this process's scratch folder (its folder made), for a test that writes
// several files side by side.
inline std::filesystem::path scratch_file(const std::string& name) {
    const std::filesystem::path dir = scratch_root() / "files";
    std::filesystem::create_directories(dir);
    return dir / name;
}

struct Outcome {
    int code = -1;
    std::string out, err;
};

// Runs `memsim ARGS` in the working directory `cwd`.
inline Outcome run_memsim_in(const std::filesystem::path& cwd, const std::string& args) {
    if (args.find("../shared") != std::string::npos) require_shared_tag();
    const std::filesystem::path dir = fresh_dir("memsim_io");
    const std::string cmd = "cd '" + cwd.string() + "' && " + std::string(MEMSIM_BINARY) + " " + args + " >" + (dir / "out").string() +
                            " 2>" + (dir / "err").string();
    const int status = std::system(cmd.c_str());
    Outcome o;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    o.out = read_file(dir / "out");
    o.err = read_file(dir / "err");
    return o;
}

// Runs `memsim ARGS` from the source tree, where ctest runs the tests.
inline Outcome run_memsim(const std::string& args) { return run_memsim_in(std::filesystem::current_path(), args); }

}  // namespace memsim::test
