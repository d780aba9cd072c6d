// Shared by the optimal planner's tests: the CPU limit of a CBC solve whose proof a test
// checks. It is only against a hang: with 20 s, uniform_linear_9 at 3 B stopped unproven
// in the sanitizer build on a 2-core machine whose page faults cost 11 us (the case took
// 72 s there, 8 s in the plain build), and a proof must not depend on the machine's speed.
#pragma once

namespace memsim::test {

inline constexpr double kProofLimitS = 600;

}  // namespace memsim::test
