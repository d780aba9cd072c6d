// Bad input (a file, a field, a value): reported to the user with a clear message
// and a non-zero exit, never a crash.
#pragma once

#include <stdexcept>
#include <string>

namespace memsim {

class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace memsim
