#include "sim/scenario/platform_xml_text.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "models/io/pickle_text.h"
#include "models/workload/input_error.h"

namespace memsim::platform_xml {

namespace {

bool starts(const std::string& text, std::size_t at, const char* with) { return text.compare(at, std::strlen(with), with) == 0; }

bool space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

int line_of(const std::string& text, std::size_t at) {
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(std::min(at, text.size())), '\n'));
}

// Past the first `end` after `from` (npos when there is none: the parse reports it).
std::size_t past(const std::string& text, std::size_t from, const char* end) {
    const std::size_t at = text.find(end, from);
    return at == std::string::npos ? at : at + std::strlen(end);
}

// Past the '>' closing a <!DOCTYPE ...> that starts at `at`, its [...] skipped with their
// nesting (rapidxml's parse_doctype).
std::size_t past_doctype(const std::string& text, std::size_t at) {
    int brackets = 0;
    for (std::size_t i = at; i < text.size(); ++i) {
        if (text[i] == '[') ++brackets;
        else if (text[i] == ']' && brackets > 0) --brackets;
        else if (text[i] == '>' && brackets == 0) return i + 1;
    }
    return std::string::npos;
}

// Past what starts at `at` (a '<') when it is no element: comment, CDATA, PI or
// declaration, as rapidxml skips them; `at` itself when it is an element or a closing tag.
std::size_t past_markup(const std::string& text, std::size_t at) {
    if (starts(text, at, "<!--")) return past(text, at + 4, "-->");
    if (starts(text, at, "<![CDATA[")) return past(text, at + 9, "]]>");
    if (starts(text, at, "<?")) return past(text, at + 2, "?>");
    if (starts(text, at, "<!DOCTYPE") && at + 9 < text.size() && space(text[at + 9])) return past_doctype(text, at + 9);
    if (starts(text, at, "<!")) return past(text, at + 2, ">");
    return at;
}

}  // namespace

void fail(const std::string& file, const std::string& elem, const std::string& what) {
    throw InputError(fmt::format("{}: element '{}': {}", file, elem, what));
}

std::string shown(std::string_view text) {
    constexpr std::size_t kMaxShown = 120;
    std::string out;
    std::size_t i = 0;
    while (i < text.size() && out.size() < kMaxShown) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        const bool ok = len > 0 && i + len <= text.size() && pickle_text::valid_utf8(text.substr(i, len)) &&
                        !(len == 1 && (c < 0x20 || c == 0x7F)) && !(c == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0);
        if (!ok) {
            out += fmt::format("\\x{:02x}", c);
            ++i;
            continue;
        }
        out.append(text.substr(i, len));
        i += len;
    }
    if (i < text.size()) out += "...";
    return out;
}

const char* value_problem(std::string_view value) {
    if (!pickle_text::valid_utf8(value)) return "is not valid UTF-8 text";
    for (std::size_t i = 0; i < value.size(); ++i) {
        const auto c = static_cast<unsigned char>(value[i]);
        // C0 controls, DEL and the C1 controls (U+0080 .. U+009F, written C2 80 .. C2 9F).
        if (c < 0x20 || c == 0x7F || (c == 0xC2 && static_cast<unsigned char>(value[i + 1]) < 0xA0))
            return "holds a control character (names and values are printable text)";
        if (c == '<' || c == '&' || c == '"')
            return "holds <, & or \" (memsim passes values on to SimGrid as plain text)";
    }
    return nullptr;
}

void check_text(const std::string& file, const std::string& text) {
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
        throw InputError(fmt::format("{}: line {}: a NUL byte: a platform file is text", file, line_of(text, nul)));
    int depth = 0, elements = 0;
    std::size_t i = 0;
    while ((i = text.find('<', i)) != std::string::npos) {
        if (const std::size_t next = past_markup(text, i); next != i) {
            i = next;
            continue;
        }
        if (starts(text, i, "</")) {
            depth = std::max(0, depth - 1);
            i = past(text, i, ">");
            continue;
        }
        // An element: its name (rapidxml takes any byte but space, /, > and ?, quotes
        // included), then to its '>' outside attribute values, which a quote opens only
        // after '=' (a quote elsewhere is rapidxml's error, where its parse stops); "/>"
        // closes it at once.
        std::size_t j = i + 1;
        while (j < text.size() && !space(text[j]) && text[j] != '/' && text[j] != '>' && text[j] != '?') ++j;
        char quote = 0;
        bool after_equals = false;
        for (; j < text.size(); ++j) {
            const char c = text[j];
            if (quote) {
                quote = c == quote ? 0 : quote;
            } else if ((c == '"' || c == '\'') && after_equals) {
                quote = c;
                after_equals = false;
            } else if (c == '>') {
                break;
            } else if (!space(c)) {
                after_equals = c == '=';
            }
        }
        if (j >= text.size()) return;  // unterminated: the parse reports it
        if (++elements > kMaxXmlElements)
            throw InputError(fmt::format("{}: line {}: more than {} elements (memsim's limit for a platform file, "
                                         "docs/limits.md; a node of 64 GPUs is a few hundred)",
                                         file, line_of(text, i), kMaxXmlElements));
        if (text[j - 1] != '/' && ++depth > kMaxXmlDepth) {
            const std::size_t name_end = text.find_first_of(" \t\r\n/>", i + 1);
            throw InputError(fmt::format("{}: line {}: element '{}' is nested more than {} elements deep (memsim's limit "
                                         "for a platform file, docs/limits.md; a node is 5 deep)",
                                         file, line_of(text, i), shown(text.substr(i + 1, name_end - i - 1)), kMaxXmlDepth));
        }
        i = j + 1;
    }
}

void check_prolog(const std::string& file, const std::string& text) {
    const std::string expected = fmt::format("SimGrid 3.32 reads a platform only after {}", kDoctype);
    std::size_t i = starts(text, 0, "\xEF\xBB\xBF") ? 3 : 0;  // a UTF-8 byte order mark
    while (i < text.size()) {
        if (space(text[i])) {
            ++i;
        } else if (starts(text, i, "<!DOCTYPE")) {
            // <!DOCTYPE platform SYSTEM "..."> (any system literal: SimGrid is given its own).
            std::size_t k = i + 9;
            const auto skip_space = [&] {
                const std::size_t from = k;
                while (k < text.size() && space(text[k])) ++k;
                return k > from;
            };
            const auto word = [&](const char* w) {
                if (!starts(text, k, w)) return false;
                k += std::strlen(w);
                return true;
            };
            bool ok = skip_space() && word("platform") && skip_space() && word("SYSTEM") && skip_space() && k < text.size() &&
                      (text[k] == '"' || text[k] == '\'');
            if (ok) {
                const std::size_t close = text.find(text[k], k + 1);
                ok = close != std::string::npos;
                k = ok ? close + 1 : k;
                skip_space();
                if (ok && k < text.size() && text[k] == '[')
                    fail(file, "!DOCTYPE", "an internal subset ([...]: entity or element declarations) is not supported: "
                                           "SimGrid 3.32 reads none; write " + std::string(kDoctype));
                ok = ok && k < text.size() && text[k] == '>';
            }
            if (!ok) {
                const std::size_t end = text.find('>', i);
                fail(file, "!DOCTYPE", fmt::format("'{}' is not the document type SimGrid reads: write {}",
                                                   shown(text.substr(i, end == std::string::npos ? 60 : end + 1 - i)), kDoctype));
            }
            return;
        } else if (const std::size_t next = starts(text, i, "<") ? past_markup(text, i) : i; next != i && next != std::string::npos) {
            i = next;  // the XML declaration, a comment or a processing instruction
        } else {
            break;  // the root element
        }
    }
    fail(file, "platform", "its document type is missing: " + expected);
}

}  // namespace memsim::platform_xml
