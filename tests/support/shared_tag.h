// Tests that read ../shared carry the Catch tag [shared]: scripts/test.sh leaves them out
// by that tag (ctest label `shared`) when ../shared is missing. Every way into ../shared
// from a test (shared_data.h's helpers, a memsim command naming ../shared) asks for the
// tag first, so a test that reads it untagged fails here, with ../shared present, rather
// than on a machine without it.
#pragma once

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

namespace memsim::test {

inline void require_shared_tag() {
    const std::string name = Catch::getResultCapture().getCurrentTestName();
    for (const Catch::TestCase& test : Catch::getAllTestCasesSorted(*Catch::getCurrentContext().getConfig())) {
        if (test.name != name) continue;
        if (std::find(test.tags.begin(), test.tags.end(), "shared") == test.tags.end())
            FAIL("the test '" << name << "' reads ../shared: tag it [shared]");
        return;
    }
}

}  // namespace memsim::test
