// Text and names for the pickle reader (models/io/pickle.h): UTF-8 checks, protocol 0's
// raw-unicode-escape strings.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace memsim::pickle_text {

// Well-formed UTF-8 without surrogates (what a JSON output can hold).
bool valid_utf8(std::string_view s);

// Protocol 0's UNICODE argument (raw-unicode-escape): latin-1 bytes, with \uXXXX and
// \UXXXXXXXX for the rest, as UTF-8. nullopt: an escape that is not a character.
std::optional<std::string> raw_unicode_escape(std::string_view s);

}  // namespace memsim::pickle_text
