// libFuzzer target: `memsim plan --records`: the records file, then one plan whose
// strategy the first input byte picks, checked by the planners' own validation.
#include "fuzz_support.h"
#include "models/plan/strategies.h"
#include "models/workload/input_error.h"
#include "sim/app/cli/records_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::vector<std::string> names = memsim::plan::strategy_names();
    const std::string& strategy = names[data[0] % names.size()];
    const std::string path =
        memsim::fuzz::write_input(memsim::fuzz::scratch_dir() / "records.json", memsim::fuzz::as_text(data + 1, size - 1));
    try {
        const std::vector<memsim::UsageRecord> records = memsim::cli::read_records(path);
        if (records.size() > 64) return 0;  // planners are quadratic or worse: keep executions fast
        memsim::plan::PlanOptions options;
        options.align = 1 + data[0] / 64;
        (void)memsim::plan::make_plan(strategy, records, options, /*validate=*/true);
    } catch (const memsim::InputError&) {
    }
    return 0;
}
