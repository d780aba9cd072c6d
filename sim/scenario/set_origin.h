// Who wrote a key: an error about a value given with --set names the --set, not the
// scenario file the user did not edit.
#pragma once

#include <string>
#include <vector>

namespace memsim {

// "--set 'KEY=VALUE'" of the last override that set `key`, a key above it (a map) or a
// key below it; else `file`.
std::string key_origin(const std::string& file, const std::vector<std::string>& overrides, const std::string& key);

// The key of a "dotted.key=value" override ("" when there is no '=').
std::string override_key(const std::string& assignment);

}  // namespace memsim
