// Headless Chromium for the Gantt and plot tests: render a page (its DOM after its
// scripts ran, or a screenshot) in the process's browser (support/chromium_browser.h)
// and read the screenshot's pixels back. scripts/setup.sh installs
// Chromium; where /usr/bin/chromium is missing, each Chromium test (tagged [chromium])
// starts with SKIP_WITHOUT_CHROMIUM(): it says so loudly and ends without running, and
// ctest reports it skipped (tests/CMakeLists.txt, SKIP_REGULAR_EXPRESSION). A test that
// renders a page without the guard fails instead.
#pragma once

#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "chromium_browser.h"

namespace memsim::test {

// The line ctest's SKIP_REGULAR_EXPRESSION looks for (tests/CMakeLists.txt).
inline const char* const kSkippedMark = "memsim test skipped:";

// True (after a loud message) when Chromium is missing.
inline bool chromium_missing() {
    if (std::filesystem::exists(kChromium)) return false;
    const std::string why = fmt::format("{} {} is missing, so this Chromium test did not run "
                                        "(apt-get install -y chromium; scripts/setup.sh installs it)",
                                        kSkippedMark, kChromium);
    std::cout << "\n" << std::string(76, '#') << "\n#  " << why << "\n" << std::string(76, '#') << "\n";
    WARN(why);
    return true;
}

#define SKIP_WITHOUT_CHROMIUM()                        \
    do {                                               \
        if (::memsim::test::chromium_missing()) return; \
    } while (false)

inline std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The file:// URL of `page` (its absolute path, percent-encoded) with `hash` appended.
inline std::string file_url(const std::filesystem::path& page, const std::string& hash = "") {
    std::string url = "file://";
    for (unsigned char c : std::filesystem::absolute(page).lexically_normal().string()) {
        if (std::isalnum(c) || std::strchr("/-._~", c) != nullptr) url += static_cast<char>(c);
        else url += fmt::format("%{:02X}", c);
    }
    return url + hash;
}

// "W,H" as two numbers of pixels.
inline std::pair<int, int> window_size(const std::string& window) {
    const std::size_t comma = window.find(',');
    REQUIRE(comma != std::string::npos);
    return {std::stoi(window.substr(0, comma)), std::stoi(window.substr(comma + 1))};
}

// Renders `page` in the process's headless Chromium (support/chromium_browser.h) in a
// viewport of `window` ("W,H") pixels, after the page's scripts ran; the page's uncaught
// exceptions and console errors are reported with the case's next failure.
inline Browser::Page render_page(const std::filesystem::path& page, const std::string& window, const std::string& hash,
                                 bool screenshot) {
    if (!std::filesystem::exists(kChromium))
        FAIL(kChromium << " is missing and this test does not start with SKIP_WITHOUT_CHROMIUM() "
                          "(apt-get install -y chromium; scripts/setup.sh installs it)");
    REQUIRE(std::filesystem::exists(page));
    const auto [width, height] = window_size(window);
    Browser::Page rendered;
    try {
        Browser& browser = Browser::shared();
        rendered = screenshot ? browser.render_png(file_url(page, hash), width, height)
                              : browser.render_dom(file_url(page, hash), width, height);
    } catch (const std::exception& e) {
        FAIL("headless Chromium could not render " << file_url(page, hash) << ": " << e.what());
    }
    if (!rendered.page_errors.empty()) UNSCOPED_INFO("the page's errors:\n" << rendered.page_errors);
    return rendered;
}

// The DOM of `page` (with `hash` in its URL) as --dump-dom prints it.
inline std::string dump_dom(const std::filesystem::path& page, const std::string& window = "1600,900",
                            const std::string& hash = "") {
    return render_page(page, window, hash, false).dom;
}

// A PNG of `page`'s viewport, written to `png`.
inline void screenshot(const std::filesystem::path& page, const std::filesystem::path& png,
                       const std::string& window = "1600,900") {
    std::ofstream(png, std::ios::binary) << render_page(page, window, "", true).png;
}

inline int count_matches(const std::string& text, const std::regex& pattern) {
    return static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), pattern), std::sregex_iterator()));
}

inline std::uint32_t big_endian(const std::string& bytes, std::size_t at) {
    return (std::uint32_t(std::uint8_t(bytes[at])) << 24) | (std::uint32_t(std::uint8_t(bytes[at + 1])) << 16) |
           (std::uint32_t(std::uint8_t(bytes[at + 2])) << 8) | std::uint32_t(std::uint8_t(bytes[at + 3]));
}

struct PixelStats {
    std::uint32_t width = 0, height = 0;
    std::size_t distinct_colors = 0;
    double non_white_share = 0;
    std::map<std::uint32_t, std::size_t> pixels_of_color;  // 0xRRGGBB -> how many pixels
    std::size_t count(std::uint32_t rgb) const {
        auto it = pixels_of_color.find(rgb);
        return it == pixels_of_color.end() ? 0 : it->second;
    }
};

// A minimal PNG decoder (8-bit RGB/RGBA, not interlaced: what Chromium writes); zlib is
// loaded at run time so the test binary needs no extra link dependency.
inline PixelStats png_pixel_stats(const std::string& png) {
    REQUIRE(png.size() > 33);
    REQUIRE(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    PixelStats stats;
    stats.width = big_endian(png, 16);
    stats.height = big_endian(png, 20);
    const std::uint32_t width = stats.width, height = stats.height;
    const int bit_depth = std::uint8_t(png[24]), color_type = std::uint8_t(png[25]), interlace = std::uint8_t(png[28]);
    REQUIRE(bit_depth == 8);
    REQUIRE((color_type == 2 || color_type == 6));
    REQUIRE(interlace == 0);
    const std::size_t channels = color_type == 6 ? 4 : 3;
    std::string idat;
    for (std::size_t at = 8; at + 8 <= png.size();) {
        const std::uint32_t length = big_endian(png, at);
        if (png.compare(at + 4, 4, "IDAT") == 0) idat += png.substr(at + 8, length);
        at += 12 + length;
    }
    void* zlib = dlopen("libz.so.1", RTLD_NOW);
    REQUIRE(zlib != nullptr);
    using Uncompress = int (*)(unsigned char*, unsigned long*, const unsigned char*, unsigned long);
    auto uncompress = reinterpret_cast<Uncompress>(dlsym(zlib, "uncompress"));
    REQUIRE(uncompress != nullptr);
    const std::size_t stride = width * channels;
    std::vector<unsigned char> raw(height * (stride + 1));
    unsigned long raw_size = raw.size();
    REQUIRE(uncompress(raw.data(), &raw_size, reinterpret_cast<const unsigned char*>(idat.data()), idat.size()) == 0);
    REQUIRE(raw_size == raw.size());

    std::vector<unsigned char> previous(stride, 0), row(stride);
    std::size_t non_white = 0;
    for (std::uint32_t y = 0; y < height; ++y) {
        const unsigned char filter = raw[y * (stride + 1)];
        const unsigned char* in = &raw[y * (stride + 1) + 1];
        for (std::size_t i = 0; i < stride; ++i) {
            const int a = i >= channels ? row[i - channels] : 0, b = previous[i],
                      c = i >= channels ? previous[i - channels] : 0;
            int predictor = 0;
            switch (filter) {
                case 0: predictor = 0; break;
                case 1: predictor = a; break;
                case 2: predictor = b; break;
                case 3: predictor = (a + b) / 2; break;
                case 4: {
                    const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
                    predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
                    break;
                }
                default: FAIL("bad PNG filter " << int(filter));
            }
            row[i] = static_cast<unsigned char>(in[i] + predictor);
        }
        for (std::size_t x = 0; x < width; ++x) {
            const unsigned char* p = &row[x * channels];
            ++stats.pixels_of_color[(std::uint32_t(p[0]) << 16) | (std::uint32_t(p[1]) << 8) | p[2]];
            if (p[0] < 250 || p[1] < 250 || p[2] < 250) ++non_white;
        }
        previous = row;
    }
    stats.distinct_colors = stats.pixels_of_color.size();
    stats.non_white_share = double(non_white) / (double(width) * height);
    return stats;
}

// A copy of `page` with `script` run after the page's own scripts; the script writes what it
// found into <pre id="probe">, one "key value" line each; returns the DOM Chromium dumps.
inline std::string run_probe(const std::filesystem::path& page, const std::string& script, const std::filesystem::path& work,
                             const std::string& window = "1600,900", const std::string& hash = "") {
    std::string html = slurp(page);
    const std::size_t body = html.rfind("</body>");
    REQUIRE(body != std::string::npos);
    html.insert(body, "<script>\n" + script + "\n</script>\n");
    const std::filesystem::path probe = work / ("probe_" + page.filename().string());
    std::ofstream(probe, std::ios::binary) << html;
    return dump_dom(probe, window, hash);
}

// The value of the probe line `key` ("" when absent).
inline std::string probe_value(const std::string& dom, const std::string& key) {
    const std::size_t from = dom.find("<pre id=\"probe\">");
    if (from == std::string::npos) return "";
    std::istringstream in(dom.substr(from + 16, dom.find("</pre>", from) - from - 16));
    for (std::string line; std::getline(in, line);)
        if (line.rfind(key + " ", 0) == 0) return line.substr(key.size() + 1);
    return "";
}

// JavaScript for run_probe: `report(key, value)` appends a line to <pre id="probe">;
// `textOverlaps(root)` lists pairs of visible <text> elements under `root` whose boxes
// overlap by more than half a pixel each way ("a | b" per pair).
inline const char* const kProbeHelpers = R"JS(
const probeLines = [];
function report(key, value) {
  probeLines.push(key + " " + value);
  let pre = document.getElementById("probe");
  if (!pre) { pre = document.createElement("pre"); pre.id = "probe"; document.body.appendChild(pre); }
  pre.textContent = probeLines.join("\n");
}
function textOverlaps(root) {
  const boxes = [];
  root.querySelectorAll("text").forEach(t => {
    const r = t.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && getComputedStyle(t).display !== "none") boxes.push([r, t.textContent]);
  });
  const found = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i][0], b = boxes[j][0];
      if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5)
        found.push(boxes[i][1] + " | " + boxes[j][1]);
    }
  return found;
}
)JS";

}  // namespace memsim::test
