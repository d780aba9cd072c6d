#include "sim/scenario/sweep_plan.h"

#include <filesystem>
#include <stdexcept>
#include <unordered_set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "models/checked_math.h"
#include "models/workload/input_error.h"
#include "sim/scenario/output_table.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/yaml_control.h"

namespace memsim {

namespace {

// A value as it goes on a command line: scalars as written, lists and maps in flow style.
// A scalar that would not read back as itself (a quoted '@x', '- a', 'a: b') is quoted.
std::string yaml_text(const YAML::Node& value) {
    if (value.IsScalar() && !first_yaml_control_byte(value.Scalar())) {  // else the emitter escapes it
        const std::string& text = value.Scalar();
        try {
            const YAML::Node again = YAML::Load(text);
            if (again.IsScalar() && again.Scalar() == text) return text;
        } catch (const YAML::Exception&) {
        }
    }
    YAML::Emitter out;
    out << YAML::Flow << value;
    return out.c_str();
}

// Counted before anything is built: ten keys of ten values are 10^10 points.
std::size_t count_points(const std::vector<SweepParameter>& parameters, const std::string& file) {
    std::uint64_t count = 1;
    for (const SweepParameter& parameter : parameters) {
        const auto product = checked_mul(count, parameter.values.size());
        if (!product || *product > kMaxSweepPoints)
            throw InputError(fmt::format("{}: sweep: the lists multiply to more than {} points (at sweep.{}); split the "
                                         "sweep into several scenarios",
                                         file, kMaxSweepPoints, parameter.key));
        count = *product;
    }
    return static_cast<std::size_t>(count);
}

}  // namespace

SweepPoints::SweepPoints(const std::vector<SweepParameter>& parameters, std::size_t count) : product_(true), count_(count) {
    for (const SweepParameter& p : parameters) values_.push_back(p.values);
}

SweepPoint SweepPoints::operator[](std::size_t k) const {
    if (!product_) return listed_[k];
    // Point k (0-based) in mixed radix, the first key varying slowest.
    SweepPoint point;
    point.index = static_cast<int>(k) + 1;
    point.values.resize(values_.size());
    for (std::size_t i = values_.size(); i-- > 0;) {
        point.values[i] = values_[i][k % values_[i].size()];
        k /= values_[i].size();
    }
    return point;
}

SweepPoint SweepPoints::at(std::size_t k) const {
    if (k >= size()) throw std::out_of_range(fmt::format("sweep point {} of {}", k, size()));
    return (*this)[k];
}

void SweepPoints::push_back(SweepPoint point) {
    if (product_) {
        std::vector<SweepPoint> all;
        for (std::size_t k = 0; k < count_; ++k) all.push_back((*this)[k]);
        *this = {};
        listed_ = std::move(all);
    }
    listed_.push_back(std::move(point));
}

void SweepPoints::clear() { *this = {}; }

std::string point_name(const SweepPoint& point) { return fmt::format("{:04d}", point.index); }

std::vector<std::string> point_overrides(const SweepPlan& plan, const SweepPoint& point) {
    std::vector<std::string> sets = plan.overrides;
    for (std::size_t i = 0; i < plan.parameters.size(); ++i)
        sets.push_back(plan.parameters[i].key + "=" + point.values.at(i));
    return sets;
}

std::map<std::string, bool> sweep_point_outputs(const OutputSpec& output) {
    std::map<std::string, bool> flags;
    for (const OutputRow& row : output_table())
        if (row.sweep_point) flags[std::string(row.name)] = output.wants(row.name);
    return flags;
}

std::vector<std::string> output_overrides(const SweepPlan& plan) {
    std::vector<std::string> sets;
    for (const OutputRow& row : output_table()) {
        const auto flag = plan.outputs.find(std::string(row.name));
        if (row.sweep_point && flag != plan.outputs.end())
            sets.push_back(fmt::format("{}={}", output_key(row), flag->second ? "true" : "false"));
    }
    return sets;
}

void check_sweep_section(const Scenario& scenario) {
    const YAML::Node sweep = scenario.resolved["sweep"];
    if (!sweep) return;
    std::vector<SweepParameter> parameters;
    for (const auto& entry : sweep) {
        SweepParameter parameter{entry.first.as<std::string>(), {}};
        for (const auto& value : entry.second) parameter.values.push_back(yaml_text(value));
        parameters.push_back(std::move(parameter));
    }
    (void)count_points(parameters, scenario.file);
}

SweepPlan plan_sweep(const std::string& scenario_file, const std::vector<std::string>& overrides) {
    const ScenarioFile file(scenario_file);  // parsed once: each point costs its overrides, not the file
    const Scenario base = file.load(overrides);
    const YAML::Node sweep = base.resolved["sweep"];
    if (!sweep || !sweep.IsMap() || sweep.size() == 0)
        throw InputError(fmt::format("{}: sweep: missing or empty; a sweep maps dotted keys to lists of values, "
                                     "e.g. sweep: {{platform.disk.bandwidth: [5MB/s, 50MB/s]}}",
                                     scenario_file));
    SweepPlan plan;
    plan.scenario_file = std::filesystem::absolute(scenario_file).lexically_normal().string();
    plan.scenario_name = base.name;
    plan.overrides = overrides;
    plan.outputs = sweep_point_outputs(base.output);
    plan.default_dir = base.output.dir;
    for (const auto& entry : sweep) {
        SweepParameter parameter{entry.first.as<std::string>(), {}};
        for (const auto& value : entry.second) parameter.values.push_back(yaml_text(value));
        plan.parameters.push_back(std::move(parameter));
    }
    plan.points = SweepPoints(plan.parameters, count_points(plan.parameters, scenario_file));
    // Check every point now: a bad value should stop the sweep before any process starts.
    for (const SweepPoint& point : plan.points) (void)file.load_point(point_overrides(plan, point));
    return plan;
}

nlohmann::json plan_to_json(const SweepPlan& plan) {
    nlohmann::json parameters = nlohmann::json::array();
    for (const SweepParameter& p : plan.parameters) parameters.push_back({{"key", p.key}, {"values", p.values}});
    nlohmann::json points = nlohmann::json::array();
    for (const SweepPoint& p : plan.points) points.push_back({{"index", p.index}, {"values", p.values}});
    nlohmann::json output = {{"dir", plan.default_dir}};
    for (const auto& [name, on] : plan.outputs) output[name] = on;
    return {{"scenario_file", plan.scenario_file},
            {"scenario_name", plan.scenario_name},
            {"overrides", plan.overrides},
            {"parameters", parameters},
            {"points", points},
            {"output", output}};
}

SweepPlan plan_from_json(const nlohmann::json& json, const std::string& label) {
    try {
        SweepPlan plan;
        plan.scenario_file = json.at("scenario_file").get<std::string>();
        plan.scenario_name = json.at("scenario_name").get<std::string>();
        plan.overrides = json.at("overrides").get<std::vector<std::string>>();
        for (const auto& p : json.at("parameters"))
            plan.parameters.push_back({p.at("key").get<std::string>(), p.at("values").get<std::vector<std::string>>()});
        std::vector<std::unordered_set<std::string>> known;
        for (const SweepParameter& p : plan.parameters) {
            if (p.key.empty() || p.values.empty())
                throw InputError(fmt::format("{}: parameter '{}' has an empty key or no values", label, p.key));
            known.emplace_back(p.values.begin(), p.values.end());
        }
        const auto& points = json.at("points");
        if (!points.is_array() || points.size() > kMaxSweepPoints)
            throw InputError(fmt::format("{}: points: not a list of at most {} points", label, kMaxSweepPoints));
        std::unordered_set<long long> indices;
        for (const auto& p : points) {
            // A point's index names its folder (points/0007): a positive number, each once
            // (memsim numbers a sweep's points 1, 2, ...; a find's keep their run order).
            const auto& index = p.at("index");
            constexpr long long kMaxIndex = 1000000000;
            if (!index.is_number_integer() || index.get<long long>() < 1 || index.get<long long>() > kMaxIndex ||
                !indices.insert(index.get<long long>()).second)
                throw InputError(fmt::format("{}: point {}: index {} is not a positive number up to {} that no other point has",
                                             label, plan.points.size() + 1, index.dump().substr(0, 40), kMaxIndex));
            SweepPoint point{static_cast<int>(index.get<long long>()), p.at("values").get<std::vector<std::string>>()};
            if (point.values.size() != plan.parameters.size())
                throw InputError(fmt::format("{}: point {} has {} values for {} parameters", label, point.index,
                                             point.values.size(), plan.parameters.size()));
            for (std::size_t i = 0; i < point.values.size(); ++i)
                if (!known[i].count(point.values[i]))
                    throw InputError(fmt::format("{}: point {}: {} is not one of the values of parameter {}", label,
                                                 point.index, nlohmann::json(point.values[i]).dump(),
                                                 plan.parameters[i].key));
            plan.points.push_back(std::move(point));
        }
        const auto& output = json.at("output");
        for (const OutputRow& row : output_table())
            if (row.sweep_point) plan.outputs[std::string(row.name)] = output.at(std::string(row.name)).get<bool>();
        plan.default_dir = output.at("dir").get<std::string>();
        return plan;
    } catch (const nlohmann::json::exception& e) {
        throw InputError(fmt::format("{}: not a sweep plan written by memsim sweep: {}", label, e.what()));
    }
}

}  // namespace memsim
