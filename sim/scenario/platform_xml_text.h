// The platform file as text (platform_xml.h), checked before and around the XML parse:
// Boost's parser (rapidxml) recurses once per nested element, so a file nested tens of
// thousands deep would overflow the stack; its depth is measured here first, by a scan
// that skips comments, CDATA, processing instructions and declarations as rapidxml does.
// Boost also drops the document type, which SimGrid's parser needs in one form only.
#pragma once

#include <string>
#include <string_view>

namespace memsim::platform_xml {

// Elements nested deeper than this are refused before the parse (docs/limits.md); a
// platform memsim reads is 5 deep (platform > zone > host > disk > prop).
inline constexpr int kMaxXmlDepth = 32;
// Elements in all, counted by the same scan: the parsed tree takes some 50 bytes of
// memory per byte of markup, so its size is bounded before it is built. A DGX-like
// node of 64 GPUs is a few hundred elements.
inline constexpr int kMaxXmlElements = 10000;
// Hosts and routers in the zone: SimGrid's Full and Floyd zones hold a table of N x N
// routes (Floyd also runs N^3 steps), so 10^5 routers took 8 GB before SimGrid ran.
inline constexpr int kMaxNetpoints = 256;

// The document type SimGrid 3.32 reads (SimGrid is given it with memsim's copy of the file).
inline constexpr const char* kDoctype = R"(<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">)";

// Throws InputError "FILE: element 'ELEM': WHAT".
[[noreturn]] void fail(const std::string& file, const std::string& elem, const std::string& what);

// `text` as a message can show it: at most 120 characters, each byte that is not
// printable UTF-8 (a control byte, an invalid sequence) written \xNN.
std::string shown(std::string_view text);

// Printable, valid UTF-8 with none of < & " (memsim writes values back as XML for
// SimGrid): nullopt, or what is wrong with it.
const char* value_problem(std::string_view value);

// Before the parse: no NUL byte, elements nested at most kMaxXmlDepth deep, at most
// kMaxXmlElements of them.
void check_text(const std::string& file, const std::string& text);

// After the parse: the prolog (before the root element) holds SimGrid's document type
// with no internal subset.
void check_prolog(const std::string& file, const std::string& text);

}  // namespace memsim::platform_xml
