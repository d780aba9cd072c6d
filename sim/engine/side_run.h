// A simulation whose only answer is a number, run in a forked child: SimGrid's clock
// never restarts within a process, so a run after another starts at a later absolute
// time and its times differ from a lone run's in the last bits. The engine's measuring
// runs (the no-prefetch peak) go to a child so the run the user asked for stays
// byte-identical to running it alone.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

namespace memsim {

// `measure` in a fork of this process; none if the fork or the child failed (the caller
// then runs it here, where an error surfaces with its message).
std::optional<std::uint64_t> measure_in_child(const std::function<std::uint64_t()>& measure);

}  // namespace memsim
