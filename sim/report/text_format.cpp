#include "sim/report/text_format.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "models/io/atomic_file.h"

namespace memsim {

namespace {

// A decimal number as memsim writes them (-1, 2.5, 1e-07): left as it is in a CSV cell.
bool is_number(std::string_view text) {
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    const std::size_t digits_from = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    bool digits = i > digits_from;
    if (i < text.size() && text[i] == '.') {
        const std::size_t from = ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
        digits = digits || i > from;
    }
    if (!digits) return false;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
        const std::size_t from = i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
        if (i == from) return false;
    }
    return i == text.size();
}

}  // namespace

std::string csv_field(std::string_view text) {
    // OWASP's advice on CSV injection: a text cell that a spreadsheet would read as a
    // formula (=, +, -, @, tab, carriage return first) gets a leading ' ; numbers stay.
    std::string neutral;
    if (!text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos && !is_number(text)) {
        neutral = "'" + std::string(text);
        text = neutral;
    }
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

std::string shell_quote(std::string_view text) {
    if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") ==
                             std::string_view::npos)
        return std::string(text);
    std::string out = "'";
    for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string format_ms(double ms) {
    if (ms == 0.0) ms = 0.0;  // no "-0.000000"
    return fmt::format("{:.6f}", ms);
}

std::string format_bytes_human(std::uint64_t bytes) {
    const double b = static_cast<double>(bytes);
    if (bytes >= (1ULL << 30)) return fmt::format("{:.2f} GiB", b / (1ULL << 30));
    if (bytes >= (1ULL << 20)) return fmt::format("{:.2f} MiB", b / (1ULL << 20));
    if (bytes >= (1ULL << 10)) return fmt::format("{:.2f} KiB", b / (1ULL << 10));
    return fmt::format("{} B", bytes);
}

std::string join_ints(std::span<const int> values, char separator) {
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (i > 0) out += separator;
        out += std::to_string(values[i]);
    }
    return out;
}

void write_text_file(const std::string& path, const std::string& text) { write_file_atomically(path, text); }

std::string aligned_table(const std::vector<std::vector<std::string>>& rows) {
    std::vector<std::size_t> width;
    for (const auto& row : rows)
        for (std::size_t i = 0; i < row.size(); ++i) {
            if (width.size() <= i) width.push_back(0);
            width[i] = std::max(width[i], row[i].size());
        }
    std::string out;
    for (const auto& row : rows) {
        std::string line = " ";
        for (std::size_t i = 0; i < row.size(); ++i) line += fmt::format(" {:<{}}", row[i], width[i]);
        line.erase(line.find_last_not_of(' ') + 1);
        out += line + "\n";
    }
    return out;
}

}  // namespace memsim
