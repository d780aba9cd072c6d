// The batches ctest runs (support/batch_main.cpp): each named case in a forked child; a
// failed or crashed case fails its batch and is named, with its exit status or signal;
// any name selects exactly its case, whatever characters Catch's test specs give a
// meaning. The probes are hidden ([.]): only these tests run them.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "file_support.h"

using namespace memsim::test;

TEST_CASE("batch probe: a failing check", "[.][batch_probe]") { CHECK(1 + 1 == 3); }

TEST_CASE("batch probe: an abort", "[.][batch_probe]") { std::abort(); }

TEST_CASE("batch probe: a name with a comma, [brackets], ~ and \"quotes\", passes", "[.][batch_probe]") { CHECK(true); }

namespace {

Outcome run_batch(const std::string& names) {
    const std::filesystem::path dir = fresh_dir("batch_runner");
    std::ofstream(dir / "names.txt") << names;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe");
    const std::string cmd = self.string() + " --memsim-batch " + (dir / "names.txt").string() + " --warn NoTests >" +
                            (dir / "out").string() + " 2>&1";
    const int status = std::system(cmd.c_str());
    Outcome o;
    o.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    o.out = read_file(dir / "out");
    return o;
}

}  // namespace

TEST_CASE("batch runner: every case runs, and a failed or crashed one fails the batch, named with how it ended") {
    const Outcome o = run_batch(
        "batch probe: a failing check\n"
        "batch probe: an abort\n"
        "batch probe: a name with a comma, [brackets], ~ and \"quotes\", passes\n");
    INFO(o.out);
    CHECK(o.code == 1);
    CHECK(o.out.find("memsim batch: 1 of 3 cases passed\n") != std::string::npos);
    CHECK(o.out.find("memsim batch: FAILED: batch probe: a failing check (exit 1)\n") != std::string::npos);
    CHECK(o.out.find("memsim batch: FAILED: batch probe: an abort (killed by signal Aborted)\n") != std::string::npos);
    CHECK(o.out.find("memsim batch: [3/3] passed") != std::string::npos);
    // The failing check's own report, from Catch in the child.
    CHECK(o.out.find("1 + 1 == 3") != std::string::npos);
}

TEST_CASE("batch runner: a name that selects no case fails, and passing cases pass the batch") {
    const Outcome missing = run_batch("batch probe: no such case\n");
    INFO(missing.out);
    CHECK(missing.code == 1);
    CHECK(missing.out.find("memsim batch: FAILED: batch probe: no such case (exit 2)") != std::string::npos);
    const Outcome passing = run_batch("batch probe: a name with a comma, [brackets], ~ and \"quotes\", passes\n");
    INFO(passing.out);
    CHECK(passing.code == 0);
    CHECK(passing.out.find("memsim batch: 1 of 1 cases passed\n") != std::string::npos);
}
