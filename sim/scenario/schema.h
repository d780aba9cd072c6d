// The shape of a scenario file: every key, its kind, and for a policy choice the names
// its table allows (read from the policy tables, so a name is written once, in its row).
#pragma once

#include <string>
#include <vector>

namespace memsim {

enum class Kind { Map, String, Int, Float, Bool, Size, Rate, Time, Path, Prefetch, Sweep, PlatformRef };

struct Field {
    std::string key;
    Kind kind;
    std::vector<Field> children = {};
    std::vector<std::string> choices = {};
};

const Field& schema();

// The valid names of each policy family, from its table.
std::vector<std::string> semantics_names();
std::vector<std::string> swap_mode_names();
std::vector<std::string> swap_selection_names();
std::vector<std::string> prefetch_usages();  // "eager", "lead_ops: N", ...

// Every policy key and its choices, one block per family, with each row's one-line
// summary where the table has one (for `memsim run --help`).
std::string policy_choices_help();

}  // namespace memsim
