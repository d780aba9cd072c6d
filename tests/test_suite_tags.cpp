// The suite's own bookkeeping: scripts/test.sh leaves out the tests that read ../shared by
// their [shared] tag (the ctest label `shared`, tests/CMakeLists.txt). The tag is the one
// mark: names carry no "shared: " prefix. Reading ../shared from an untagged test fails
// at the read (support/shared_tag.h); this checks the folder that holds such tests.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "shared_tag.h"

TEST_CASE("tests: every test in tests/shared/ is tagged [shared], and the tag is the only mark") {
    const auto& all = Catch::getAllTestCasesSorted(*Catch::getCurrentContext().getConfig());
    int shared = 0;
    for (const Catch::TestCase& test : all) {
        const bool in_shared_folder = std::string(test.lineInfo.file).find("/tests/shared/") != std::string::npos;
        const bool tagged = std::find(test.tags.begin(), test.tags.end(), "shared") != test.tags.end();
        INFO(test.name << " (" << test.lineInfo.file << ")");
        if (in_shared_folder) CHECK(tagged);
        CHECK(test.name.rfind("shared: ", 0) != 0);
        shared += tagged ? 1 : 0;
    }
    CHECK(shared > 60);
}

TEST_CASE("tests: a test that reads ../shared without the [shared] tag fails at the read", "[!shouldfail]") {
    memsim::test::require_shared_tag();
}
