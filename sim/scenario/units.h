// Quantities with units, as scenario files write them: sizes (B, KB, MB, GB, KiB,
// MiB, GiB; a bare integer is bytes), rates ("23.4MB/s", or bytes per time
// "104094472B/4.452s"), times ("3ms", "2s", "12us"). Decimal units are powers of
// 1000, binary ones of 1024. Every parser throws std::invalid_argument with a
// message that names the bad text.
#pragma once

#include <cstdint>
#include <string>

namespace memsim {

std::uint64_t parse_bytes(const std::string& text);
double parse_rate_bytes_per_s(const std::string& text);
double parse_time_ms(const std::string& text);

}  // namespace memsim
