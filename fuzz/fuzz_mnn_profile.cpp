// libFuzzer target: the MNN profile loader. The input is the four files of one batch
// separated by lines "=====" (io_info, tensor_size, resize_info, cost_info), written as
// a profile folder of model "m" at batch 1; a fifth part, if any, is redundent_parent.
// Accepted workloads are replayed and their usage records planned.
#include <vector>

#include "fuzz_support.h"
#include "models/alloc/pool_allocator.h"
#include "models/workload/input_error.h"
#include "models/workload/mnn_profile.h"
#include "models/alloc/replay.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace fs = std::filesystem;
    std::string_view text = memsim::fuzz::as_text(data, size);
    std::vector<std::string_view> parts;
    const std::string_view separator = "\n=====\n";
    while (parts.size() < 4) {
        const std::size_t at = text.find(separator);
        parts.push_back(text.substr(0, at));
        if (at == std::string_view::npos) {
            text = {};
            break;
        }
        text.remove_prefix(at + separator.size());
    }
    const fs::path dir = memsim::fuzz::scratch_dir() / "profile";
    fs::remove_all(dir);
    const char* names[] = {"m.io_info.json", "m.1.tensor_size.json", "m.1.resize_info.json", "m.1.cost_info.json"};
    for (std::size_t i = 0; i < parts.size(); ++i) memsim::fuzz::write_input(dir / names[i], parts[i]);
    if (!text.empty()) memsim::fuzz::write_input(dir / "m.1.redundent_parent.json", text);
    fs::create_directories(dir);
    try {
        const memsim::Workload w = memsim::load_mnn_profile(dir.string(), 1);
        memsim::PoolAllocator pool;
        (void)memsim::replay_peak(w, pool);
        (void)memsim::feature_map_bytes(w);
    } catch (const memsim::InputError&) {
    }
    return 0;
}
