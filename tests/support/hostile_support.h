// Helpers for the hostile-input tests: write a file, copy the shipped example profile,
// run memsim under a shell (for ulimit), read a results row.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "file_support.h"

namespace memsim::test {

inline std::string write_text(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
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
