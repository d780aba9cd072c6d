#include "sim/scenario/scenario.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "models/io/input_file.h"
#include "models/workload/input_error.h"
#include "sim/scenario/output_name.h"
#include "sim/scenario/units.h"
#include "sim/scenario/value_limits.h"
#include "sim/scenario/yaml_guard.h"

namespace memsim {

namespace fs = std::filesystem;

namespace {

enum class Kind { Map, String, Int, Float, Bool, Size, Rate, Time, Path, Prefetch, Sweep, PlatformRef };

struct Field {
    std::string key;
    Kind kind;
    std::vector<Field> children = {};
    std::vector<std::string> choices = {};
};

const Field& schema() {
    static const Field root{"", Kind::Map, {
        {"name", Kind::String},
        {"description", Kind::String},
        {"workload", Kind::Map, {
            {"profile", Kind::Path}, {"batch", Kind::Int}, {"forward_end", Kind::Int}, {"costs", Kind::String},
            {"dtr_log", Kind::Path}, {"synthetic", Kind::String},
            {"n", Kind::Float}, {"layers", Kind::Float}, {"width", Kind::Float}, {"seed", Kind::Float},
            {"input", Kind::Float}, {"classes", Kind::Float}}},
        {"platform", Kind::PlatformRef, {
            {"name", Kind::String},
            {"gpu", Kind::Map, {{"speed_scale", Kind::Float}}},
            {"disk", Kind::Map, {
                {"bandwidth", Kind::Rate}, {"read_bandwidth", Kind::Rate}, {"write_bandwidth", Kind::Rate},
                {"latency", Kind::Time}, {"read_latency", Kind::Time}, {"write_latency", Kind::Time}}},
            {"memory", Kind::Map, {{"budget", Kind::Size}, {"budget_ratio", Kind::Float}}}}},
        {"policy", Kind::Map, {
            {"allocator", Kind::String},
            {"semantics", Kind::String, {}, {"simulated", "reference", "dtr"}},
            {"hybrid", Kind::Bool},
            {"swap", Kind::Map, {
                {"mode", Kind::String, {}, {"none", "sync", "semi_sync", "async"}},
                {"select", Kind::String, {}, {"feature_maps", "budget", "fixed_buffer"}},
                {"prefetch", Kind::Prefetch, {{"lead_ops", Kind::Int}, {"lead_ms", Kind::Time}}}}},
            {"recompute", Kind::Map, {
                {"heuristic", Kind::String}, {"planner", Kind::String, {}, {"msps_on_demand", "capuchin", "sublinear"}},
                {"seed", Kind::Int}, {"max_overhead", Kind::Float},
                {"a", Kind::Float}, {"b", Kind::Float}, {"c", Kind::Float}, {"d", Kind::Float}}}}},
        {"output", Kind::Map, {
            {"dir", Kind::String}, {"events", Kind::Bool}, {"gantt", Kind::Bool}, {"trace", Kind::Bool}}},
        {"sweep", Kind::Sweep},
    }};
    return root;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

class Parser {
public:
    Parser(std::string label, std::string base_dir) : label_(std::move(label)), base_dir_(std::move(base_dir)) {}

    [[noreturn]] void fail(const std::string& key, const std::string& what) const {
        throw InputError(fmt::format("{}: {}: {}", label_, key.empty() ? "(top level)" : key, what));
    }

    // Unknown keys anywhere are errors, with the closest valid key suggested.
    void check_keys(const YAML::Node& node, const Field& field, const std::string& path) const {
        if (field.kind == Kind::Sweep) {
            if (!node.IsMap()) fail(path, "must map dotted keys to lists of values");
            for (const auto& kv : node) {
                const std::string key = kv.first.as<std::string>();
                if (!kv.second.IsSequence() || kv.second.size() == 0)
                    fail(path + "." + key, "must be a non-empty list of values");
                check_dotted_key(key, path);
            }
            return;
        }
        if (field.kind == Kind::Prefetch && node.IsScalar()) return;
        if (field.kind == Kind::PlatformRef && node.IsScalar()) return;
        if (field.kind != Kind::Map && field.kind != Kind::Prefetch && field.kind != Kind::PlatformRef) {
            if (!node.IsScalar()) fail(path, "expected a single value, not a list or a map");
            return;
        }
        if (node.IsNull()) return;
        if (!node.IsMap()) fail(path, "expected a map of keys");
        for (const auto& kv : node) {
            const std::string key = kv.first.as<std::string>();
            const std::string sub = path.empty() ? key : path + "." + key;
            auto it = std::find_if(field.children.begin(), field.children.end(), [&](const Field& f) { return f.key == key; });
            if (it == field.children.end()) {
                std::vector<std::string> names;
                for (const Field& f : field.children) names.push_back(f.key);
                fail(sub, fmt::format("unknown key '{}'{}", key, suggestion(key, names)));
            }
            check_keys(kv.second, *it, sub);
        }
    }

    void check_dotted_key(const std::string& dotted, const std::string& where) const {
        const Field* field = &schema();
        std::string path;
        std::stringstream ss(dotted);
        std::string part;
        while (std::getline(ss, part, '.')) {
            if (!path.empty() && field->children.empty() && field->kind != Kind::Map && field->kind != Kind::Sweep)
                fail(where.empty() ? dotted : where + "." + dotted,
                     fmt::format("'{}' is a single value, not a map", path));
            path = path.empty() ? part : path + "." + part;
            auto it = std::find_if(field->children.begin(), field->children.end(), [&](const Field& f) { return f.key == part; });
            if (it == field->children.end() || field->kind == Kind::Sweep) {
                std::vector<std::string> names;
                for (const Field& f : field->children) names.push_back(f.key);
                fail(where.empty() ? dotted : where + "." + dotted,
                     fmt::format("unknown key '{}'{}", path, suggestion(part, names)));
            }
            field = &*it;
        }
    }

    static std::string suggestion(const std::string& key, const std::vector<std::string>& names) {
        const std::string best = closest_match(key, names);
        return best.empty() ? fmt::format(" (valid: {})", fmt::join(names, ", "))
                            : fmt::format(" (did you mean '{}'?)", best);
    }

    template <typename T>
    T scalar(const YAML::Node& node, const std::string& key, const char* what) const {
        try {
            return node.as<T>();
        } catch (const YAML::Exception&) {
            fail(key, fmt::format("'{}' is not {}", node.as<std::string>(), what));
        }
    }

    std::string text(const YAML::Node& node, const std::string& key) const { return scalar<std::string>(node, key, "a string"); }

    template <typename F>
    auto with_units(const YAML::Node& node, const std::string& key, F parse) const {
        try {
            return parse(text(node, key));
        } catch (const std::invalid_argument& e) {
            fail(key, e.what());
        }
    }

    std::string choice(const YAML::Node& node, const std::string& key, const std::vector<std::string>& choices) const {
        const std::string value = text(node, key);
        if (std::find(choices.begin(), choices.end(), value) == choices.end())
            fail(key, fmt::format("unknown value '{}'{}", value, suggestion(value, choices)));
        return value;
    }

    std::string path(const YAML::Node& node, const std::string& key) const {
        const std::string p = text(node, key);
        if (p.empty()) fail(key, "empty path");
        return resolve_path(p, key);
    }

    // Relative paths: the working directory first, then the scenario's folder, then the
    // memsim source tree (so shipped scenarios run from anywhere).
    std::string resolve_path(const std::string& p, const std::string& key) const {
        const fs::path given(p);
        if (given.is_absolute()) return p;
        const std::vector<fs::path> tries = {given, fs::path(base_dir_) / given, fs::path(MEMSIM_SOURCE_DIR) / given};
        std::error_code error;  // a name too long for the OS is "does not exist", not library text
        for (const fs::path& t : tries)
            if (fs::exists(t, error)) return t.lexically_normal().string();
        fail(key, fmt::format("'{}' does not exist (looked in the working directory, {} and {})", p, base_dir_,
                              MEMSIM_SOURCE_DIR));
    }

    const std::string& label() const { return label_; }
    const std::string& base_dir() const { return base_dir_; }

private:
    std::string label_;
    std::string base_dir_;
};

YAML::Node load_yaml_file(const std::string& path, const std::string& what) {
    check_input_file(path, what);
    std::ifstream in(path);
    if (!in) throw InputError(fmt::format("{}: cannot open {}", path, what));
    try {
        return YAML::Load(in);
    } catch (const YAML::Exception& e) {
        throw InputError(fmt::format("{}: invalid YAML at line {}: {}", path, e.mark.line + 1, e.msg));
    }
}

// `platform: configs/phone.yaml` is replaced by that file's contents.
void inline_platform_file(YAML::Node& root, const Parser& p) {
    if (!root["platform"] || !root["platform"].IsScalar()) return;
    const std::string file = p.resolve_path(root["platform"].as<std::string>(), "platform");
    YAML::Node platform = load_yaml_file(file, "platform file");
    if (!platform.IsMap()) throw InputError(fmt::format("{}: a platform file must be a map of keys", file));
    if (!platform["name"]) platform["name"] = fs::path(file).stem().string();
    root["platform"] = platform;
}

WorkloadSpec parse_workload(const YAML::Node& n, const Parser& p) {
    WorkloadSpec w;
    if (!n || !n.IsMap()) p.fail("workload", "missing: give a profile folder + batch, a dtr_log, or a synthetic model");
    const int sources = (n["profile"] ? 1 : 0) + (n["dtr_log"] ? 1 : 0) + (n["synthetic"] ? 1 : 0);
    if (sources != 1) p.fail("workload", "give exactly one of profile, dtr_log, synthetic");
    if (n["profile"]) {
        w.profile = p.path(n["profile"], "workload.profile");
        if (!n["batch"]) p.fail("workload.batch", "missing (the profile's batch size)");
        w.batch = p.scalar<int>(n["batch"], "workload.batch", "an integer");
        if (w.batch <= 0) p.fail("workload.batch", fmt::format("{} must be >= 1", w.batch));
    }
    if (n["dtr_log"]) w.dtr_log = p.path(n["dtr_log"], "workload.dtr_log");
    if (n["synthetic"]) {
        w.synthetic = p.text(n["synthetic"], "workload.synthetic");
        for (const char* key : {"n", "layers", "width", "seed", "batch", "input", "classes"})
            if (n[key]) w.synthetic_params[key] = p.scalar<double>(n[key], std::string("workload.") + key, "a number");
    }
    if (n["forward_end"]) w.forward_end = p.scalar<int>(n["forward_end"], "workload.forward_end", "an integer");
    if (n["costs"]) {
        if (!n["profile"]) p.fail("workload.costs", "applies to profile folders only");
        w.costs = p.choice(n["costs"], "workload.costs", {"measured", "linear_fit"});
    }
    return w;
}

PlatformSpec parse_platform(const YAML::Node& n, const Parser& p) {
    PlatformSpec s;
    if (!n) return s;
    if (n["name"]) s.name = p.text(n["name"], "platform.name");
    if (n["gpu"] && n["gpu"]["speed_scale"]) {
        s.gpu_speed_scale = p.scalar<double>(n["gpu"]["speed_scale"], "platform.gpu.speed_scale", "a number");
        if (!(s.gpu_speed_scale > 0)) p.fail("platform.gpu.speed_scale", "must be > 0");
    }
    if (const YAML::Node d = n["disk"]) {
        if (d["bandwidth"])
            s.disk.read_bytes_per_s = s.disk.write_bytes_per_s =
                p.with_units(d["bandwidth"], "platform.disk.bandwidth", parse_rate_bytes_per_s);
        if (d["read_bandwidth"])
            s.disk.read_bytes_per_s = p.with_units(d["read_bandwidth"], "platform.disk.read_bandwidth", parse_rate_bytes_per_s);
        if (d["write_bandwidth"])
            s.disk.write_bytes_per_s = p.with_units(d["write_bandwidth"], "platform.disk.write_bandwidth", parse_rate_bytes_per_s);
        if (d["latency"])
            s.disk.read_latency_ms = s.disk.write_latency_ms = p.with_units(d["latency"], "platform.disk.latency", parse_time_ms);
        if (d["read_latency"]) s.disk.read_latency_ms = p.with_units(d["read_latency"], "platform.disk.read_latency", parse_time_ms);
        if (d["write_latency"])
            s.disk.write_latency_ms = p.with_units(d["write_latency"], "platform.disk.write_latency", parse_time_ms);
    }
    if (n["memory"] && n["memory"]["budget"]) {
        const YAML::Node b = n["memory"]["budget"];
        if (!(b.IsScalar() && (b.as<std::string>() == "none" || b.as<std::string>() == "unlimited")))
            s.memory_budget = p.with_units(b, "platform.memory.budget", parse_bytes);
    }
    if (n["memory"] && n["memory"]["budget_ratio"]) {
        s.memory_budget_ratio = p.scalar<double>(n["memory"]["budget_ratio"], "platform.memory.budget_ratio", "a number");
        if (!(*s.memory_budget_ratio > 0)) p.fail("platform.memory.budget_ratio", "must be > 0");
        if (s.memory_budget)
            p.fail("platform.memory.budget_ratio", "give either platform.memory.budget or platform.memory.budget_ratio, not both");
    }
    return s;
}

PrefetchSpec parse_prefetch(const YAML::Node& n, const Parser& p) {
    PrefetchSpec s;
    const std::string key = "policy.swap.prefetch";
    if (n.IsScalar()) {
        const std::string v = p.text(n, key);
        if (v == "eager") return s;
        if (v == "just_in_time") {
            s.kind = PrefetchKind::JustInTime;
            return s;
        }
        // "lead_ops:4" / "lead_ms:20ms" written inline (handy in sweeps)
        const auto colon = v.find(':');
        if (colon != std::string::npos) {
            YAML::Node m;
            m[v.substr(0, colon)] = v.substr(colon + 1);
            return parse_prefetch(m, p);
        }
        p.fail(key, fmt::format("unknown value '{}'{}", v,
                                Parser::suggestion(v, {"eager", "just_in_time", "lead_ops: N", "lead_ms: T"})));
    }
    if (n.IsMap() && n.size() == 1 && n["lead_ops"]) {
        s.kind = PrefetchKind::LeadOps;
        s.lead_ops = p.scalar<int>(n["lead_ops"], key + ".lead_ops", "an integer");
        if (s.lead_ops < 0) p.fail(key + ".lead_ops", "must be >= 0");
        return s;
    }
    if (n.IsMap() && n.size() == 1 && n["lead_ms"]) {
        s.kind = PrefetchKind::LeadMs;
        s.lead_ms = p.with_units(n["lead_ms"], key + ".lead_ms", parse_time_ms);
        return s;
    }
    p.fail(key, "expected eager, just_in_time, {lead_ops: N} or {lead_ms: T}");
}

PolicySpec parse_policy(const YAML::Node& n, const Parser& p) {
    PolicySpec s;
    if (!n) return s;
    if (n["allocator"]) s.allocator = p.text(n["allocator"], "policy.allocator");
    if (n["semantics"]) s.semantics = p.choice(n["semantics"], "policy.semantics", {"simulated", "reference", "dtr"});
    if (n["hybrid"]) s.hybrid = p.scalar<bool>(n["hybrid"], "policy.hybrid", "true or false");
    if (const YAML::Node sw = n["swap"]) {
        if (sw["mode"]) s.swap.mode = p.choice(sw["mode"], "policy.swap.mode", {"none", "sync", "semi_sync", "async"});
        if (sw["select"])
            s.swap.select = p.choice(sw["select"], "policy.swap.select", {"feature_maps", "budget", "fixed_buffer"});
        if (sw["prefetch"]) s.swap.prefetch = parse_prefetch(sw["prefetch"], p);
    }
    if (const YAML::Node r = n["recompute"]) {
        if (r["heuristic"]) s.recompute.heuristic = p.text(r["heuristic"], "policy.recompute.heuristic");
        if (r["planner"])
            s.recompute.planner = p.choice(r["planner"], "policy.recompute.planner", {"msps_on_demand", "capuchin", "sublinear"});
        if (r["seed"]) s.recompute.params.seed = p.scalar<std::uint64_t>(r["seed"], "policy.recompute.seed", "an integer >= 0");
        if (r["max_overhead"]) {
            s.recompute.max_overhead = p.scalar<double>(r["max_overhead"], "policy.recompute.max_overhead", "a number");
            if (!(*s.recompute.max_overhead > 0)) p.fail("policy.recompute.max_overhead", "must be > 0");
        }
        for (auto [key, field] : {std::pair{"a", &s.recompute.params.a}, {"b", &s.recompute.params.b},
                                  {"c", &s.recompute.params.c}, {"d", &s.recompute.params.d}})
            if (r[key]) *field = p.scalar<double>(r[key], std::string("policy.recompute.") + key, "a number");
    }
    return s;
}

OutputSpec parse_output(const YAML::Node& n, const Parser& p, const std::string& name) {
    OutputSpec s;
    s.dir = "out/" + output_folder_name(name);
    if (!n) return s;
    if (n["dir"]) s.dir = p.text(n["dir"], "output.dir");
    if (n["events"]) s.events = p.scalar<bool>(n["events"], "output.events", "true or false");
    if (n["gantt"]) s.gantt = p.scalar<bool>(n["gantt"], "output.gantt", "true or false");
    if (n["trace"]) s.trace = p.scalar<bool>(n["trace"], "output.trace", "true or false");
    return s;
}

Scenario build(YAML::Node root, const std::string& label, const std::vector<std::string>& overrides,
               const std::string& base_dir, const std::string& default_name) {
    Parser p(label, base_dir);
    if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
    if (!root.IsMap()) throw InputError(fmt::format("{}: a scenario must be a map of keys", label));
    // A platform file named by --set is inlined before the finer overrides apply.
    for (const std::string& o : overrides)
        if (o.rfind("platform=", 0) == 0) apply_override(root, o, label);
    inline_platform_file(root, p);
    for (const std::string& o : overrides) {
        if (o.rfind("platform=", 0) == 0) continue;
        const std::string key = o.substr(0, o.find('='));
        p.check_dotted_key(key, "");
        apply_override(root, o, label);
    }
    check_yaml_tree(root, label);  // aliases, duplicate keys: before anything walks the tree
    p.check_keys(root, schema(), "");

    Scenario s;
    s.file = label;
    s.name = root["name"] ? p.text(root["name"], "name") : default_name;
    if (root["description"]) s.description = p.text(root["description"], "description");
    s.workload = parse_workload(root["workload"], p);
    s.platform = parse_platform(root["platform"], p);
    s.policy = parse_policy(root["policy"], p);
    s.output = parse_output(root["output"], p, s.name);
    s.resolved = root;
    check_value_limits(s);  // after unit conversion: what SimGrid can run
    return s;
}

}  // namespace

std::string closest_match(const std::string& word, const std::vector<std::string>& choices) {
    std::string best;
    std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
    for (const std::string& c : choices) {
        const std::size_t d = edit_distance(word, c);
        if (d < best_distance) {
            best_distance = d;
            best = c;
        }
    }
    return best;
}

void apply_override(YAML::Node& root, const std::string& assignment, const std::string& label) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw InputError(fmt::format("--set '{}': expected KEY=VALUE with a dotted key (e.g. workload.batch=8)", assignment));
    const std::string key = assignment.substr(0, eq), text = assignment.substr(eq + 1);
    YAML::Node value;
    try {
        value = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        throw InputError(fmt::format("--set '{}': the value is not valid YAML: {}", assignment, e.msg));
    }
    if (value.IsNull() && text.empty()) value = YAML::Node(std::string());
    std::vector<std::string> parts;
    std::stringstream ss(key);
    for (std::string part; std::getline(ss, part, '.');) parts.push_back(part);
    // yaml-cpp nodes are handles: walk down with fresh handles, never reassigning one.
    std::vector<YAML::Node> chain{root};
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        YAML::Node next = chain.back()[parts[i]];
        if (!next.IsMap()) {
            if (next.IsDefined() && !next.IsNull())
                throw InputError(fmt::format("{}: --set {}: '{}' is a single value, not a map", label, key, parts[i]));
            chain.back()[parts[i]] = YAML::Node(YAML::NodeType::Map);
            next = chain.back()[parts[i]];
        }
        chain.push_back(next);
    }
    chain.back()[parts.back()] = value;
}

nlohmann::json yaml_to_json(const YAML::Node& node) {
    if (!node || node.IsNull()) return nullptr;
    if (node.IsMap()) {
        nlohmann::json j = nlohmann::json::object();
        for (const auto& kv : node) j[kv.first.as<std::string>()] = yaml_to_json(kv.second);
        return j;
    }
    if (node.IsSequence()) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& v : node) j.push_back(yaml_to_json(v));
        return j;
    }
    const std::string s = node.as<std::string>();
    if (node.Tag() == "!") return s;  // quoted in the source: keep it a string
    if (s == "true" || s == "false") return s == "true";
    try {
        std::size_t used = 0;
        const long long i = std::stoll(s, &used);
        if (used == s.size()) return i;
        const double d = std::stod(s, &used);
        if (used == s.size()) return d;
    } catch (const std::exception&) {
    }
    return s;
}

Scenario load_scenario(const std::string& path, const std::vector<std::string>& overrides) {
    YAML::Node root = load_yaml_file(path, "scenario");
    const fs::path p(path);
    return build(root, path, overrides, p.parent_path().empty() ? "." : p.parent_path().string(), p.stem().string());
}

Scenario parse_scenario(const std::string& yaml_text, const std::string& label, const std::vector<std::string>& overrides,
                        const std::string& base_dir) {
    YAML::Node root;
    try {
        root = YAML::Load(yaml_text);
    } catch (const YAML::Exception& e) {
        throw InputError(fmt::format("{}: invalid YAML at line {}: {}", label, e.mark.line + 1, e.msg));
    }
    return build(root, label, overrides, base_dir, "scenario");
}

}  // namespace memsim
