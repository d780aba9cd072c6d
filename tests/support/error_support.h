// The message of the InputError a piece of test code throws: tests of bad input compare
// it with the text a user would read.
#pragma once

#include <string>

#include <catch2/catch.hpp>

#include "models/workload/input_error.h"

namespace memsim::test {

// The message of the InputError `f` throws (fails the test when nothing is thrown).
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    FAIL("no InputError thrown");
    return {};
}

}  // namespace memsim::test
