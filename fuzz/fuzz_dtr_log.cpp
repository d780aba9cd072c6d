// libFuzzer target: the DTR log reader, then the baseline replay of what it accepted.
#include "fuzz_support.h"
#include "models/alloc/replay.h"
#include "models/workload/dtr_log.h"
#include "models/workload/input_error.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = memsim::fuzz::write_input(memsim::fuzz::scratch_dir() / "input.log", memsim::fuzz::as_text(data, size));
    try {
        const memsim::DtrLog log = memsim::load_dtr_log_detailed(path);
        (void)memsim::dtr_log_baseline_peak(log);
        (void)memsim::usage_records(log.workload);
    } catch (const memsim::InputError&) {
    }
    return 0;
}
