// Output files are complete or absent: each is written to a temporary name in its own
// folder, checked, closed and renamed over the final name. A write error (full disk,
// file size limit, no permission) throws OutputError naming the file and the OS reason;
// the temporary is removed and an older file of that name is left as it was.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace memsim {

class OutputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

void write_file_atomically(const std::string& path, std::string_view text);

}  // namespace memsim
