#include "sim/scenario/data_parallel_section.h"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "models/parallel/collective_algorithms.h"
#include "sim/scenario/units.h"

namespace memsim {

std::optional<DataParallelSpec> parse_data_parallel(const YAML::Node& n, const Parser& p) {
    if (!n) return std::nullopt;
    if (!n.IsMap())
        p.fail("policy.data_parallel", "must be a map, e.g. {zero: 1, bucket: 25MiB, offload: none} (docs/parallel.md)");
    DataParallelSpec s;
    if (n["zero"]) {
        s.zero = p.scalar<int>(n["zero"], "policy.data_parallel.zero", "a whole number");
        if (!zero_stage(s.zero))
            p.fail("policy.data_parallel.zero", fmt::format("{} is not a ZeRO stage (0, 1, 2 or 3)", s.zero));
    }
    if (const YAML::Node b = n["bucket"]) {
        if (b.IsScalar() && b.as<std::string>() == "whole") s.bucket_bytes.reset();
        else {
            s.bucket_bytes = p.with_units(b, "policy.data_parallel.bucket", parse_bytes);
            if (*s.bucket_bytes == 0)
                p.fail("policy.data_parallel.bucket", "0 B: give a size (PyTorch DDP's default is 25MiB) or 'whole'");
        }
    }
    if (n["offload"]) {
        const std::string offload = p.text(n["offload"], "policy.data_parallel.offload");
        if (offload == "optimizer") {
            // ZeRO-Offload moves each rank's optimizer partition: there is one only when the
            // optimizer state is sharded (DeepSpeed's offload_optimizer needs stage 1 or more).
            if (s.zero < 1)
                p.fail("policy.data_parallel.offload",
                       "'optimizer' needs policy.data_parallel.zero 1, 2 or 3 (ZeRO-Offload "
                       "moves each rank's partition of the optimizer state to the host)");
            s.offload_optimizer = true;
        } else if (offload != "none")
            p.fail("policy.data_parallel.offload", fmt::format("'{}' is not one of: none, optimizer", offload));
    }
    if (n["algorithm"]) {
        s.algorithm = p.text(n["algorithm"], "policy.data_parallel.algorithm");
        if (!collective_algorithm(s.algorithm)) {
            std::vector<std::string> names;
            for (const CollectiveAlgorithm& a : collective_algorithms()) names.emplace_back(a.name);
            p.fail("policy.data_parallel.algorithm", fmt::format("'{}' is not one of: {}", s.algorithm, fmt::join(names, ", ")));
        }
    }
    return s;
}

}  // namespace memsim
