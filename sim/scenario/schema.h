// The shape of a scenario file: every key and its kind. The policy section is built from
// the policy families (policy_families.h): each family's key is a choice whose rows
// with parameters, and those parameters, come from its table, so a name or a parameter
// is written once, in its row.
#pragma once

#include <string>
#include <vector>

namespace memsim {

// Choice: a policy family's key (a row name, NAME:VALUE, {NAME: VALUE} or {NAME: {KEY:
// VALUE}}; its children are the rows that take parameters, checked by the policy
// parser). RowParams: one row's parameters (a value, or a map of them). List: a list of
// maps, each with the children's keys (platform.disks).
enum class Kind { Map, String, Int, Float, Bool, Size, Rate, Time, Path, Choice, RowParams, Sweep, PlatformRef, List };

struct Field {
    std::string key;
    Kind kind;
    std::vector<Field> children = {};
};

const Field& schema();

// The dotted keys whose values are paths (Kind::Path: workload.dtr_log, platform.file, ...).
const std::vector<std::string>& path_keys();

// Every policy key and its choices, one block per family, with each row's one-line
// summary and its parameters (for `memsim run --help`).
std::string policy_choices_help();

}  // namespace memsim
