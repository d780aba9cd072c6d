// The default output folder is out/<scenario name>; a name is free text, so it is turned
// into one safe folder name first: "../../x" must not write outside out/. A run with
// --set overrides writes next to it, in a folder named after the overrides, so it never
// overwrites the results of the run without them.
#pragma once

#include <string>
#include <vector>

namespace memsim {

// Letters, digits, '-', '_' and '.' are kept, every other byte becomes '_', and a leading
// '.' becomes '_' (no ".", "..", or hidden folder); an empty name becomes "scenario".
std::string output_folder_name(const std::string& scenario_name);

// `dir` followed by "--KEY=VALUE" per override that can change results (output.* flags
// are left out), each sanitized as above with '=' kept; `dir` itself when there is none.
// A suffix longer than 160 bytes is cut and ends with a hash of the whole, so the folder
// name stays within file-system limits and distinct.
std::string output_dir_with_overrides(const std::string& dir, const std::vector<std::string>& overrides);

}  // namespace memsim
