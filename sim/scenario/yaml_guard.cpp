#include "sim/scenario/yaml_guard.h"

#include <algorithm>
#include <set>
#include <vector>

#include <fmt/format.h>

#include "models/workload/input_error.h"

namespace memsim {

namespace {

// RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF.
bool valid_utf8(const std::string& s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        std::size_t extra = 0;
        unsigned low = 0x80, high = 0xBF;  // allowed range of the second byte
        if (c < 0x80) {
            ++i;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            extra = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            extra = 2;
            if (c == 0xE0) low = 0xA0;
            if (c == 0xED) high = 0x9F;
        } else if (c >= 0xF0 && c <= 0xF4) {
            extra = 3;
            if (c == 0xF0) low = 0x90;
            if (c == 0xF4) high = 0x8F;
        } else {
            return false;
        }
        if (i + extra >= s.size()) return false;
        for (std::size_t k = 1; k <= extra; ++k) {
            const auto b = static_cast<unsigned char>(s[i + k]);
            if (k == 1 ? (b < low || b > high) : (b < 0x80 || b > 0xBF)) return false;
        }
        i += extra + 1;
    }
    return true;
}

class TreeCheck {
public:
    explicit TreeCheck(const std::string& label) : label_(label) {}

    void visit(const YAML::Node& node, const std::string& where) {
        if (++nodes_ > kMaxYamlNodes)
            fail(where, fmt::format("the document has more than {} values, counting each alias (*name) as every value "
                                    "it stands for; a scenario, sweeps included, has a few hundred",
                                    kMaxYamlNodes));
        if (std::any_of(path_.begin(), path_.end(), [&](const YAML::Node& up) { return up.is(node); }))
            fail(where, "cyclic alias: a node contains an alias of itself");
        if (path_.size() >= kMaxYamlDepth) fail(where, fmt::format("nested deeper than {} levels", kMaxYamlDepth));
        // Text goes into summary.json (JSON is UTF-8): a bad byte must stop the run here, not after it.
        if (node.IsScalar() && !valid_utf8(node.Scalar())) fail(where, "the value is not valid UTF-8 text");
        if (!node.IsMap() && !node.IsSequence()) return;
        path_.push_back(node);
        if (node.IsMap()) {
            std::set<std::string> keys;
            for (const auto& kv : node) {
                if (!kv.first.IsScalar()) fail(where, "a map key must be a plain name, not a list or a map");
                const std::string key = kv.first.Scalar();
                if (!valid_utf8(key)) fail(where, "a key is not valid UTF-8 text");
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
