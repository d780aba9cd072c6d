// libFuzzer target: the scenario loader with --set overrides, then the resolved scenario
// as `memsim run` records it. Lines "#set KEY=VALUE" at the start of the input are
// overrides; the rest is the scenario. Relative paths resolve against the source tree,
// so examples/mlp and configs/*.yaml exist.
#include <vector>

#include "fuzz_support.h"
#include "models/workload/input_error.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/source_tree.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string_view text = memsim::fuzz::as_text(data, size);
    std::vector<std::string> sets;
    while (text.substr(0, 5) == "#set ") {
        const std::size_t end = text.find('\n');
        sets.emplace_back(text.substr(5, end == std::string_view::npos ? std::string_view::npos : end - 5));
        text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
    }
    try {
        const memsim::Scenario s = memsim::parse_scenario(std::string(text), "fuzz.yaml", sets, memsim::source_tree());
        (void)memsim::yaml_to_json(s.resolved).dump();
    } catch (const memsim::InputError&) {
    }
    return 0;
}
