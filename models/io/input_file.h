// Every file memsim reads is checked to be what it claims before it is opened: a
// regular, non-empty file. A directory, a FIFO (which would block the read forever), a
// device such as /dev/null or /dev/zero, or an empty file is refused with an error
// naming the path.
#pragma once

#include <optional>
#include <string>

namespace memsim {

// Throws InputError "PATH: cannot open WHAT: <reason>".
void check_input_file(const std::string& path, const std::string& what);

// The same check without throwing: the reason the file is unusable, or nullopt when it is fine.
std::optional<std::string> input_file_problem(const std::string& path);

}  // namespace memsim
