#include "sim/scenario/yaml_guard.h"

#include <algorithm>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "models/workload/input_error.h"

namespace memsim {

namespace {

class TreeCheck {
public:
    explicit TreeCheck(const std::string& label) : label_(label) {}

    void visit(const YAML::Node& node, const std::string& where) {
        if (++nodes_ > kMaxYamlNodes)
            fail(where, fmt::format("the document expands to more than {} values (aliases repeating aliases?)", kMaxYamlNodes));
        if (std::any_of(path_.begin(), path_.end(), [&](const YAML::Node& up) { return up.is(node); }))
            fail(where, "cyclic alias: a node contains an alias of itself");
        if (path_.size() >= kMaxYamlDepth) fail(where, fmt::format("nested deeper than {} levels", kMaxYamlDepth));
        if (!node.IsMap() && !node.IsSequence()) return;
        path_.push_back(node);
        if (node.IsMap()) {
            std::set<std::string> keys;
            for (const auto& kv : node) {
                if (!kv.first.IsScalar()) fail(where, "a map key must be a plain name, not a list or a map");
                const std::string key = kv.first.Scalar();
                const std::string sub = where.empty() ? key : where + "." + key;
                if (!keys.insert(key).second) fail(sub, fmt::format("duplicate key '{}'", key));
                visit(kv.second, sub);
            }
        } else {
            std::size_t i = 0;
            for (const auto& item : node) visit(item, fmt::format("{}[{}]", where, i++));
        }
        path_.pop_back();
    }

private:
    [[noreturn]] void fail(const std::string& where, const std::string& what) const {
        throw InputError(fmt::format("{}: {}: {}", label_, where.empty() ? "(top level)" : where, what));
    }

    const std::string& label_;
    std::vector<YAML::Node> path_;
    std::size_t nodes_ = 0;
};

}  // namespace

void check_yaml_tree(const YAML::Node& root, const std::string& label) { TreeCheck(label).visit(root, ""); }

}  // namespace memsim
