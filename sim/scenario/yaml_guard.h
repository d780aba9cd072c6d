// A YAML document is a tree of shared nodes: an alias (*x) points back at an anchored
// node (&x), so nine short lines can stand for a billion nodes ("billion laughs") and an
// alias inside its own anchor makes a cycle. yaml-cpp also keeps both values of a
// duplicated map key (lookups see the first, iteration the last). Scenarios are checked
// here before anything walks them.
#pragma once

#include <cstddef>
#include <string>

#include <yaml-cpp/yaml.h>

namespace memsim {

// Limits of a scenario after aliases are expanded; a real scenario (sweeps included) is a
// few hundred nodes a few levels deep.
inline constexpr std::size_t kMaxYamlNodes = 100000;
inline constexpr std::size_t kMaxYamlDepth = 64;

// Throws InputError naming `label` and the dotted key when `root` holds a cyclic alias,
// expands past kMaxYamlNodes nodes or kMaxYamlDepth levels, repeats a map key, uses a
// list or map as a map key, or holds text that is not valid UTF-8.
void check_yaml_tree(const YAML::Node& root, const std::string& label);

}  // namespace memsim
