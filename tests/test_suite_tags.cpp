// The suite's own bookkeeping: scripts/test.sh leaves out the tests that read ../shared by
// their [shared] tag (the ctest label `shared`, tests/CMakeLists.txt), so a test named
// "shared: ..." without the tag would run, and fail, without ../shared.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

TEST_CASE("tests: a test is tagged [shared] exactly when its name starts with 'shared: '") {
    const auto& all = Catch::getAllTestCasesSorted(*Catch::getCurrentContext().getConfig());
    int shared = 0;
    for (const Catch::TestCase& test : all) {
        const bool named = test.name.rfind("shared: ", 0) == 0;
        const bool tagged = std::find(test.tags.begin(), test.tags.end(), "shared") != test.tags.end();
        INFO(test.name);
        CHECK(named == tagged);
        shared += tagged ? 1 : 0;
    }
    CHECK(shared > 0);
}
