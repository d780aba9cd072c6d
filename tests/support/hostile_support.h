// Helpers for the hostile-input tests: write a file, copy the shipped example profile,
// run memsim under a shell (for ulimit), read a results row, wait for another process.
#pragma once

#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "file_support.h"

namespace memsim::test {

inline std::string write_text(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

// Polls `ready` every 20 ms for up to 2 minutes (a loaded machine); whether it came true.
template <typename Ready>
bool wait_until(Ready ready) {
    for (int i = 0; i < 6000; ++i) {
        if (ready()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

// A private copy of examples/mlp (the project's own profile) to damage.
inline std::filesystem::path copy_example_profile(const std::string& name) {
    const std::filesystem::path dir = fresh_dir(name) / "mlp";
    std::filesystem::copy(std::filesystem::path(MEMSIM_SOURCE_DIR) / "examples/mlp", dir);
    return dir;
}

// Runs `bash -c 'PREFIX memsim ARGS'`, e.g. PREFIX "trap '' XFSZ; ulimit -f 4;" so that writes
// past 4 KiB fail with EFBIG (a full disk, as far as the writer can tell).
inline Outcome run_memsim_with(const std::string& prefix, const std::string& args) {
    const std::filesystem::path dir = fresh_dir("memsim_io_with");
    const std::string inner = prefix + " exec " + MEMSIM_BINARY + " " + args + " >" + (dir / "out").string() + " 2>" +
                              (dir / "err").string();
    std::string quoted = "'";
    for (char c : inner) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    quoted += "'";
    const int status = std::system(("bash -c " + quoted).c_str());
    Outcome o;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    o.out = read_file(dir / "out");
    o.err = read_file(dir / "err");
    return o;
}

}  // namespace memsim::test
