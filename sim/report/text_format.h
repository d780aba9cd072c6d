// Small text helpers shared by the writers: CSV fields, fixed-precision numbers,
// human sizes. Fixed formatting keeps outputs byte-identical for the same input.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace memsim {

// Quotes a CSV field when it holds a comma, quote or line break (RFC 4180); a text field
// a spreadsheet would run as a formula (first character =, +, -, @, tab or carriage
// return, and not a number) gets a leading ' (OWASP's advice on CSV injection).
std::string csv_field(std::string_view text);
// Single-quoted for sh when it holds anything but letters, digits and _-./=:,+@% (paths
// with spaces or quotes survive GNU parallel, bash and a copy from the terminal).
std::string shell_quote(std::string_view text);
// Milliseconds with six decimals (nanosecond resolution), e.g. "12.500000".
std::string format_ms(double ms);
// "1.50 GiB", "12.00 MiB", "512 B".
std::string format_bytes_human(std::uint64_t bytes);
// "3;4;7"
std::string join_ints(std::span<const int> values, char separator);
// Rows as left-aligned columns, each line indented by two spaces and without trailing blanks.
std::string aligned_table(const std::vector<std::vector<std::string>>& rows);
// Writes `text` to `path`, complete or not at all (models/io/atomic_file.h); throws naming the path.
void write_text_file(const std::string& path, const std::string& text);

}  // namespace memsim
