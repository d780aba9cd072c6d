#include "models/io/pickle_text.h"

#include <charconv>
#include <cstdint>

#include "models/io/pickle.h"

namespace memsim {

const char* py_kind_name(PyValue::Kind kind) {
    switch (kind) {
        case PyValue::Kind::None: return "None";
        case PyValue::Kind::Bool: return "bool";
        case PyValue::Kind::Int: return "int";
        case PyValue::Kind::Float: return "float";
        case PyValue::Kind::Str: return "str";
        case PyValue::Kind::Bytes: return "bytes";
        case PyValue::Kind::List: return "list";
        case PyValue::Kind::Tuple: return "tuple";
        case PyValue::Kind::Dict: return "dict";
    }
    return "?";
}

PyValue PyValue::of_bool(bool b) {
    PyValue v;
    v.kind = Kind::Bool;
    v.word_.b = b;
    return v;
}

PyValue PyValue::of_int(std::int64_t i) {
    PyValue v;
    v.kind = Kind::Int;
    v.word_.i = i;
    return v;
}

PyValue PyValue::of_float(double d) {
    PyValue v;
    v.kind = Kind::Float;
    v.word_.d = d;
    return v;
}

PyValue PyValue::of_text(Kind k, const std::string* text) {
    PyValue v;
    v.kind = k;
    v.word_.s = text;
    return v;
}

PyValue PyValue::of_container(Kind k, PyContainer* container) {
    PyValue v;
    v.kind = k;
    v.word_.c = container;
    return v;
}

const std::string& PyValue::text() const {
    static const std::string kEmpty;
    return kind == Kind::Str || kind == Kind::Bytes ? *word_.s : kEmpty;
}

const std::vector<PyValue>& PyValue::items() const {
    static const std::vector<PyValue> kNone;
    return kind == Kind::List || kind == Kind::Tuple ? word_.c->items : kNone;
}

const std::vector<std::pair<PyValue, PyValue>>& PyValue::entries() const {
    static const std::vector<std::pair<PyValue, PyValue>> kNone;
    return kind == Kind::Dict ? word_.c->entries : kNone;
}

const PyValue* PyValue::get(std::string_view key) const {
    for (const auto& [k, v] : entries())
        if (k.kind == Kind::Str && k.text() == key) return &v;
    return nullptr;
}

namespace pickle_text {

bool valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t extra = 0;
        std::uint32_t cp = 0;
        if ((c >> 5) == 6) extra = 1, cp = c & 0x1f;
        else if ((c >> 4) == 14) extra = 2, cp = c & 0x0f;
        else if ((c >> 3) == 30) extra = 3, cp = c & 0x07;
        else return false;
        if (s.size() - i <= extra) return false;
        for (std::size_t k = 1; k <= extra; ++k) {
            const auto cc = static_cast<unsigned char>(s[i + k]);
            if ((cc >> 6) != 2) return false;
            cp = (cp << 6) | (cc & 0x3f);
        }
        const std::uint32_t lowest[] = {0, 0x80, 0x800, 0x10000};
        if (cp < lowest[extra] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
        i += extra + 1;
    }
    return true;
}

namespace {

void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xc0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xe0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    } else {
        out.push_back(static_cast<char>(0xf0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3f)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3f)));
    }
}

}  // namespace

std::optional<std::string> raw_unicode_escape(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        const std::size_t digits = c == '\\' && i + 1 < s.size() ? (s[i + 1] == 'u' ? 4 : s[i + 1] == 'U' ? 8 : 0) : 0;
        std::uint32_t cp = 0;
        const char* hex = s.data() + i + 2;
        if (digits && i + 2 + digits <= s.size() && std::from_chars(hex, hex + digits, cp, 16).ptr == hex + digits) {
            if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return std::nullopt;
            append_utf8(out, cp);
            i += 1 + digits;
        } else {
            append_utf8(out, c);
        }
    }
    return out;
}

}  // namespace pickle_text

}  // namespace memsim
