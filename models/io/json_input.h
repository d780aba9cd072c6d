// JSON files memsim reads with nlohmann (records files, summary.json and sweep.json read
// back, trace sidecars) are parsed here, with the same rules as every other input: a key
// written twice in one object is an error (nlohmann would keep the last silently), as is
// nesting deeper than the reader allows; a syntax error or a number beyond a double
// (1e400) is an InputError naming the file.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace memsim {

// Throws InputError "LABEL: not valid JSON: ...", "LABEL: key "K" is written twice in one
// object (each key once)" or "LABEL: nested deeper than N levels".
nlohmann::json parse_json_input(const std::string& text, const std::string& label, int max_depth = 64);

}  // namespace memsim
