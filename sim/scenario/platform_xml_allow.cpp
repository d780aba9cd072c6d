#include "sim/scenario/platform_xml_allow.h"

#include <algorithm>
#include <set>
#include <vector>

#include <boost/property_tree/ptree.hpp>
#include <fmt/format.h>

#include "sim/scenario/platform_xml_text.h"

namespace memsim::platform_xml {

namespace {

namespace pt = boost::property_tree;

struct Allowed {
    const char* tag;
    std::vector<const char*> attributes;
    std::vector<const char*> children;
};

// The list (docs/tiers.md, "A platform file"): what the reader (platform_xml.cpp) reads.
// A disk's props are its latencies; no other <prop> means anything to memsim.
const std::vector<Allowed>& allowed() {
    static const std::vector<Allowed> list = {
        {"platform", {"version"}, {"zone"}},
        {"zone", {"id", "routing"}, {"host", "router", "link", "route"}},
        {"host", {"id", "speed"}, {"disk"}},
        {"disk", {"id", "read_bw", "write_bw"}, {"prop"}},
        {"prop", {"id", "value"}, {}},
        {"router", {"id"}, {}},
        {"link", {"id", "bandwidth", "latency", "sharing_policy"}, {}},
        {"route", {"src", "dst", "symmetrical"}, {"link_ctn"}},
        {"link_ctn", {"id", "direction"}, {}},
    };
    return list;
}

const Allowed& rule(const std::string& tag) {
    const auto& list = allowed();
    return *std::find_if(list.begin(), list.end(), [&](const Allowed& a) { return tag == a.tag; });
}

std::string joined(const std::vector<const char*>& names) {
    std::string out;
    for (const char* n : names) out += (out.empty() ? "" : ", ") + std::string(n);
    return out.empty() ? "none" : out;
}

bool has(const std::vector<const char*>& names, const std::string& name) {
    return std::any_of(names.begin(), names.end(), [&](const char* n) { return name == n; });
}

const pt::ptree& attributes(const pt::ptree& node) {
    static const pt::ptree none;
    const auto a = node.get_child_optional("<xmlattr>");
    return a ? *a : none;
}

// How an element is named in messages: its tag and its id (or a route's ends).
std::string label(const std::string& tag, const pt::ptree& node) {
    const auto attr = [&](const char* name) { return node.get_optional<std::string>(std::string("<xmlattr>.") + name); };
    if (tag == "route")
        return fmt::format("route src=\"{}\" dst=\"{}\"", shown(attr("src").value_or("")), shown(attr("dst").value_or("")));
    if (const auto id = attr("id"); id && tag != "prop") return fmt::format("{} id=\"{}\"", tag, shown(*id));
    return tag;
}

void check_element(const std::string& file, const std::string& tag, const pt::ptree& node, const std::string& where) {
    const Allowed& a = rule(tag);
    const std::string elem = label(tag, node) + where;
    if (node.data().find_first_not_of(" \t\r\n") != std::string::npos)
        fail(file, elem, fmt::format("holds the text '{}': a platform element holds elements only", shown(node.data())));
    std::set<std::string> seen;
    for (const auto& [name, value] : attributes(node)) {
        if (!has(a.attributes, name))
            fail(file, elem, fmt::format("attribute {}=\"{}\" is not supported: memsim does not model it (a <{}> may have: {})",
                                         shown(name), shown(value.data()), tag, joined(a.attributes)));
        if (!seen.insert(name).second) fail(file, elem, fmt::format("attribute {} is given twice", name));
        if (const char* problem = value_problem(value.data()))
            fail(file, elem, fmt::format("{}=\"{}\" {}", name, shown(value.data()), problem));
    }
    if (tag == "prop") {
        const std::string id = node.get<std::string>("<xmlattr>.id", "");
        if (id != "read_latency" && id != "write_latency")
            fail(file, elem, fmt::format("<prop id=\"{}\"> is not supported: a disk's props are read_latency and write_latency "
                                         "(SimGrid's props mean nothing to memsim)", shown(id)));
    }
    for (const auto& [child, sub] : node) {
        if (child == "<xmlattr>") continue;
        if (tag == "platform" && child == "config")
            fail(file, "config", "not supported: memsim configures SimGrid itself (exact max-min sharing, docs/simgrid.md)");
        if (!has(a.children, child))
            fail(file, fmt::format("{}' in '{}", shown(child), elem),
                 fmt::format("not supported: memsim does not model it (a <{}> may hold: {}; docs/tiers.md)", tag, joined(a.children)));
        // One level of context: the parent, and its own parent's name (the zone is the platform's only child).
        check_element(file, child, sub, tag == "platform" ? "" : "' in '" + label(tag, node));
    }
}

std::string escaped_attributes(const pt::ptree& node) {
    std::string out;
    for (const auto& [name, value] : attributes(node)) out += fmt::format(" {}=\"{}\"", name, value.data());
    return out;
}

void write_element(std::string& out, const std::string& tag, const pt::ptree& node, int indent) {
    out += fmt::format("{:{}}<{}{}", "", indent, tag, escaped_attributes(node));
    bool open = false;
    for (const auto& [child, sub] : node) {
        if (child == "<xmlattr>") continue;
        if (!open) out += ">\n";
        open = true;
        write_element(out, child, sub, indent + 2);
    }
    out += open ? fmt::format("{:{}}</{}>\n", "", indent, tag) : "/>\n";
}

}  // namespace

void check_allowed(const std::string& file, const pt::ptree& tree) {
    if (tree.empty()) fail(file, "platform", "missing: the file's root element must be <platform version=\"4.1\">");
    if (tree.size() != 1 || tree.front().first != "platform") {
        for (const auto& [tag, node] : tree)
            if (tag != "platform") fail(file, shown(tag), "not supported: the file's root element must be <platform version=\"4.1\">");
        fail(file, "platform", "given more than once: a file holds one <platform>");
    }
    check_element(file, "platform", tree.front().second, "");
}

std::string write_platform(const pt::ptree& tree) {
    // Values hold no <, & or " (check_allowed), so they are written as they were read.
    std::string out = fmt::format("<?xml version=\"1.0\"?>\n{}\n", kDoctype);
    write_element(out, "platform", tree.get_child("platform"), 0);
    return out;
}

}  // namespace memsim::platform_xml
