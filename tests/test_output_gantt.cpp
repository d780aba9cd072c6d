// gantt.html in a real browser: headless Chromium renders the page (a screenshot
// that is not blank) and dumps the DOM after the script ran (each lane, one bar per
// activity for a small log; merged bars for a large one). Chromium is required: when
// /usr/bin/chromium is missing the tests fail and say how to install it.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "sim/output/gantt_html.h"

using namespace memsim;
namespace fs = std::filesystem;

namespace {

const char* const kChromium = "/usr/bin/chromium";

std::string read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

fs::path fresh_dir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

// Runs headless Chromium on `page` with `action` (--dump-dom, or --screenshot=...); returns its stdout.
std::string run_chromium(const fs::path& page, const std::string& action, const fs::path& work) {
    if (!fs::exists(kChromium))
        FAIL(kChromium << " is missing: headless Chromium is required for the Gantt tests "
                          "(apt-get install -y chromium; scripts/setup.sh installs it)");
    const fs::path profile = work / "chromium-profile";
    const fs::path out = work / "chromium.out";
    const std::string command = fmt::format(
        "cd '{}' && timeout 120 {} --headless --no-sandbox --disable-gpu --no-first-run "
        "--disable-background-networking --disable-component-update --disable-sync --hide-scrollbars "
        "--virtual-time-budget=5000 --user-data-dir='{}' --window-size=1600,900 {} 'file://{}' >'{}' 2>'{}'",
        work.string(), kChromium, profile.string(), action, fs::absolute(page).string(), out.string(),
        (work / "chromium.err").string());
    const int status = std::system(command.c_str());
    INFO(read_file(work / "chromium.err"));
    REQUIRE(status == 0);
    return read_file(out);
}

int count_matches(const std::string& text, const std::regex& pattern) {
    return static_cast<int>(std::distance(std::sregex_iterator(text.begin(), text.end(), pattern), std::sregex_iterator()));
}

std::uint32_t big_endian(const std::string& bytes, std::size_t at) {
    return (std::uint32_t(std::uint8_t(bytes[at])) << 24) | (std::uint32_t(std::uint8_t(bytes[at + 1])) << 16) |
           (std::uint32_t(std::uint8_t(bytes[at + 2])) << 8) | std::uint32_t(std::uint8_t(bytes[at + 3]));
}

struct PixelStats {
    std::size_t distinct_colors = 0;
    double non_white_share = 0;
};

// A minimal PNG reader (8-bit RGB/RGBA, not interlaced: what Chromium writes); zlib is
// loaded at run time so the test binary needs no extra link dependency.
PixelStats png_pixel_stats(const std::string& png) {
    REQUIRE(png.size() > 33);
    REQUIRE(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    const std::uint32_t width = big_endian(png, 16), height = big_endian(png, 20);
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
    std::set<std::uint32_t> colors;
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
            colors.insert((std::uint32_t(p[0]) << 16) | (std::uint32_t(p[1]) << 8) | p[2]);
            if (p[0] < 250 || p[1] < 250 || p[2] < 250) ++non_white;
        }
        previous = row;
    }
    return {colors.size(), double(non_white) / (double(width) * height)};
}

EventLog small_log() {
    EventLog log;
    log.add({lane::kCompute, 0.0, 2.0, 0, "conv1", {1, 2}, 4096});
    log.add({lane::kCompute, 2.0, 5.0, 1, "relu1", {2, 3}, 4096});
    log.add({lane::kDiskWrite, 2.0, 4.0, 0, "swap out t2", {2}, 4096});
    log.add({lane::kStall, 5.0, 6.0, 2, "wait for t2", {2}, 0});
    log.add({lane::kDiskRead, 4.5, 6.0, 2, "swap in t2", {2}, 4096});
    log.add({lane::kCompute, 6.0, 8.0, 2, "relu1_grad", {2, 3}, 4096});
    log.add({lane::kRecompute, 8.0, 9.0, 3, "conv1 (again)", {2}, 4096});
    log.add({lane::kCompute, 9.0, 10.0, 3, "conv1_grad", {1, 2}, 4096});
    log.sample(0.0, 8192, 8192);
    log.sample(2.0, 12288, 12288);
    log.sample(4.0, 8192, 8192);
    log.sample(6.0, 12288, 12288);
    log.sample(10.0, 0, 0);
    log.budget_bytes = 16384;
    log.forward_end_ms = 5.0;
    return log;
}

}  // namespace

TEST_CASE("gantt.html in headless Chromium: each lane and one bar per activity") {
    const fs::path dir = fresh_dir("memsim_test_gantt_dom");
    Summary summary;
    summary.scenario = "small";
    summary.time_ms = 10.0;
    write_gantt_html(small_log(), summary, "small <scenario>", (dir / "gantt.html").string());
    const std::string dom = run_chromium(dir / "gantt.html", "--dump-dom", dir);
    INFO(dom.substr(0, 2000));
    for (const char* lane : {"compute", "recompute", "disk_write", "disk_read", "stall"}) {
        CHECK(count_matches(dom, std::regex(fmt::format("<g class=\"lane\" data-lane=\"{}\"", lane))) == 1);
    }
    CHECK(count_matches(dom, std::regex("class=\"bar\"")) == 8);
    CHECK(count_matches(dom, std::regex("class=\"bar\" data-lane=\"compute\"")) == 4);
    CHECK(count_matches(dom, std::regex("class=\"agg\"")) == 0);
    CHECK(count_matches(dom, std::regex("id=\"memory-in-use\"")) == 1);
    CHECK(count_matches(dom, std::regex("id=\"budget\"")) == 1);
    CHECK(count_matches(dom, std::regex("id=\"forward-end\"")) == 1);
    CHECK(dom.find("small &lt;scenario&gt;") != std::string::npos);
}

TEST_CASE("gantt.html in headless Chromium: the screenshot is not blank") {
    const fs::path dir = fresh_dir("memsim_test_gantt_png");
    write_gantt_html(small_log(), Summary{}, "small", (dir / "gantt.html").string());
    run_chromium(dir / "gantt.html", fmt::format("--screenshot='{}'", (dir / "gantt.png").string()), dir);
    REQUIRE(fs::exists(dir / "gantt.png"));
    const PixelStats stats = png_pixel_stats(read_file(dir / "gantt.png"));
    CHECK(stats.distinct_colors >= 8);       // lane colours, text, curve
    CHECK(stats.non_white_share > 0.01);     // something is drawn
    CHECK(stats.non_white_share < 0.9);      // and it is not an error page
}

TEST_CASE("gantt.html stays small for 4k operators and 10k I/Os: sub-pixel bars are merged") {
    EventLog log;
    double t = 0;
    for (int op = 0; op < 4000; ++op) {
        log.add({lane::kCompute, t, t + 0.5, op, fmt::format("op{}", op), {op}, 1000});
        for (int k = 0; k < 5 && op * 5 / 2 + k < 10000 && op % 2 == 0; ++k)
            log.add({k % 2 ? lane::kDiskRead : lane::kDiskWrite, t + 0.1 * k, t + 0.1 * k + 0.08, op,
                     fmt::format("io{}", k), {op}, 512});
        log.sample(t, 1000ULL * (op % 100), 900ULL * (op % 100));
        t += 0.5;
    }
    log.forward_end_ms = t / 2;
    const fs::path dir = fresh_dir("memsim_test_gantt_large");
    write_gantt_html(log, Summary{}, "large", (dir / "gantt.html").string());
    CHECK(fs::file_size(dir / "gantt.html") < 3'000'000);
    const std::string dom = run_chromium(dir / "gantt.html", "--dump-dom", dir);
    const int bars = count_matches(dom, std::regex("class=\"bar\"")), merged = count_matches(dom, std::regex("class=\"agg\""));
    CHECK(merged > 0);
    CHECK(bars + merged < 5000);  // at most a few rectangles per pixel column and lane, not 14k hairlines
    for (const char* lane : {"compute", "disk_write", "disk_read"})
        CHECK(count_matches(dom, std::regex(fmt::format("<g class=\"lane\" data-lane=\"{}\"", lane))) == 1);
}
