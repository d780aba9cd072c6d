// scripts/check_format.sh (CI): the lines a commit adds or edits must follow
// .clang-format, the lines written before are left as they are. Run on a scratch git
// repository holding the project's .clang-format and the script.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "file_support.h"

namespace fs = std::filesystem;
using memsim::test::fresh_dir;
using memsim::test::read_file;

namespace {

// Runs a shell command in `dir`; returns its exit code, its output in `out`.
int shell_in(const fs::path& dir, const std::string& command, std::string& out) {
    const std::string cmd = "cd '" + dir.string() + "' && (" + command + ") >out.txt 2>&1";
    const int status = std::system(cmd.c_str());
    out = read_file(dir / "out.txt");
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void write(const fs::path& file, const std::string& text) { std::ofstream(file) << text; }

}  // namespace

TEST_CASE("format check: a changed line off the style fails, lines written before pass as they are") {
    const fs::path repo = fresh_dir("format_check");
    fs::create_directories(repo / "scripts");
    fs::copy_file(fs::path(MEMSIM_SOURCE_DIR) / ".clang-format", repo / ".clang-format");
    fs::copy_file(fs::path(MEMSIM_SOURCE_DIR) / "scripts/check_format.sh", repo / "scripts/check_format.sh");
    write(repo / ".gitignore", "out.txt\n");
    const std::string commit = "git add -A && git -c user.name=t -c user.email=t@t commit -qm c";
    std::string out;
    // Written before the check: off the style, and never reformatted.
    write(repo / "a.cpp", "int   old( ){return 1;}\n");
    REQUIRE(shell_in(repo, "git init -q && " + commit, out) == 0);
    write(repo / "a.cpp", "int   old( ){return 1;}\nint added() { return 2; }\n");
    REQUIRE(shell_in(repo, commit, out) == 0);
    CHECK(shell_in(repo, "scripts/check_format.sh", out) == 0);
    CHECK(out == "check_format: the C++ lines changed since HEAD~1 are formatted (.clang-format)\n");
    // An edit off the style (uncommitted edits count): the fix is shown, the check fails.
    write(repo / "a.cpp", "int   old( ){return 1;}\nint added() { return 2; }\nint   edited( ){return 3;}\n");
    CHECK(shell_in(repo, "scripts/check_format.sh", out) == 1);
    CHECK(out.find("-int   edited( ){return 3;}\n+int edited() { return 3; }\n") != std::string::npos);
    CHECK(out.find("old() {") == std::string::npos);
    CHECK(out.find("apply with: git clang-format HEAD~1") != std::string::npos);
    // A base that is no commit is an error, not a pass.
    CHECK(shell_in(repo, "scripts/check_format.sh no_such_commit", out) == 1);
    CHECK(out == "check_format: 'no_such_commit' is not a commit\n");
}
