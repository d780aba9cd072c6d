// The ctest script of the test binary's cases (support/batch_main.cpp): the cases of
// each test file in batches, each batch one ctest test whose process forks a child per
// case; the cases named in a list (the long ones of tests/test_costs.cmake, which
// ctest starts first) one ctest test each, under their own names.
#pragma once

#include <string>
#include <vector>

namespace memsim::test {

struct ScheduledCase {
    std::string file;  // the source file of its TEST_CASE (absolute, as __FILE__ has it)
    std::string name;
};

// The non-empty lines of `path` (a batch's case names, or the names kept alone); an
// unreadable file gives none.
std::vector<std::string> read_names(const std::string& path);

// At most this many cases of one file to a batch: more batches spread over ctest -j's
// slots, fewer start fewer processes.
inline constexpr std::size_t kCasesPerBatch = 12;

// Writes `out_cmake` (add_test and set_tests_properties lines) and the batches' name
// files under `batch_dir` (emptied first). `individual` is a file of case names, one
// per line, that get a ctest test of their own. A batch is named "cases in FILE", or
// "KIND cases in FILE" when `kind` is given; `labels` ("a,b", may be empty) are the
// ctest labels of every test written. Returns main's exit code.
int write_ctest_batches(const std::vector<ScheduledCase>& cases, const std::string& individual, const std::string& out_cmake,
                        const std::string& batch_dir, const std::string& kind = "", const std::string& labels = "");

}  // namespace memsim::test
