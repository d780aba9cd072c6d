// The default output folder is out/<scenario name>; a name is free text, so it is turned
// into one safe folder name first: "../../x" must not write outside out/.
#pragma once

#include <string>

namespace memsim {

// Letters, digits, '-', '_' and '.' are kept, every other byte becomes '_', and a leading
// '.' becomes '_' (no ".", "..", or hidden folder); an empty name becomes "scenario".
std::string output_folder_name(const std::string& scenario_name);

}  // namespace memsim
