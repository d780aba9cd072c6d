// Control characters in YAML text. YAML allows no C0 control character but tab, line
// feed and carriage return, and no DEL, in a stream; yaml-cpp 0.7 does not refuse them
// and misreads some (the key written "a<NUL>b" in a flow map comes back as "a\bb"). So
// text is checked before yaml-cpp sees it: files and --set values by load_yaml_text,
// texts memsim re-reads (sweep values) where they are re-read.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace memsim {

// The offset of the first byte YAML refuses as a control character, if any.
[[nodiscard]] inline std::optional<std::size_t> first_yaml_control_byte(std::string_view text) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) return i;
    }
    return std::nullopt;
}

}  // namespace memsim
