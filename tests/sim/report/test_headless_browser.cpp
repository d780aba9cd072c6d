// The browser the page tests share (support/chromium_browser.h): what a page sees of its
// viewport, that one page leaves nothing for the next, and that a page's errors and a
// missing file are reported, not passed over.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "chromium_support.h"
#include "file_support.h"

namespace fs = std::filesystem;
using namespace memsim::test;

namespace {

fs::path write_page(const fs::path& dir, const std::string& name, const std::string& body_script) {
    const fs::path page = dir / name;
    std::ofstream(page) << "<!DOCTYPE html><html><head><meta charset=\"utf-8\"></head><body style=\"margin:0\">\n<script>\n"
                        << kProbeHelpers << body_script << "\n</script>\n</body></html>\n";
    return page;
}

}  // namespace

TEST_CASE("headless browser: a page sees a viewport of the asked size and a screenshot has its pixels", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = fresh_dir("memsim_test_browser_viewport");
    const fs::path page = write_page(dir, "size.html",
                                     "report('size', window.innerWidth + 'x' + window.innerHeight);\n"
                                     "report('hash', location.hash);\n"
                                     "document.body.style.background = '#123456';");
    CHECK(probe_value(dump_dom(page, "900,700"), "size") == "900x700");
    CHECK(probe_value(dump_dom(page, "1600,900"), "size") == "1600x900");
    CHECK(probe_value(dump_dom(page, "640,480", "#t=0,5"), "hash") == "#t=0,5");
    screenshot(page, dir / "size.png", "320,200");
    const PixelStats stats = png_pixel_stats(slurp(dir / "size.png"));
    CHECK(stats.width == 320);
    CHECK(stats.height == 200);
    CHECK(stats.count(0x123456) > 320 * 150);  // the background, but for the probe's text
}

TEST_CASE("headless browser: a page finds nothing that the page before it stored and is read afresh", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = fresh_dir("memsim_test_browser_context");
    const auto store = [&](int version) {
        return write_page(dir, "store.html",
                          fmt::format("report('version', {});\n"
                                      "report('found', localStorage.getItem('memsim') === null ? 'nothing' : 'left over');\n"
                                      "localStorage.setItem('memsim', 'x');",
                                      version));
    };
    const std::string first = dump_dom(store(1));
    CHECK(probe_value(first, "version") == "1");
    CHECK(probe_value(first, "found") == "nothing");
    // The same file, written again (as a test's probe page is): the new one is shown.
    const std::string second = dump_dom(store(2));
    CHECK(probe_value(second, "version") == "2");
    CHECK(probe_value(second, "found") == "nothing");
}

TEST_CASE("headless browser: a page's uncaught error is reported and a missing file is an error naming it", "[chromium]") {
    SKIP_WITHOUT_CHROMIUM();
    const fs::path dir = fresh_dir("memsim_test_browser_errors");
    const fs::path page = write_page(dir, "throws.html", "report('before', 'ran');\nthrow new Error('memsim probe failure');");
    const Browser::Page rendered = Browser::shared().render_dom(file_url(page), 800, 600);
    CHECK(probe_value(rendered.dom, "before") == "ran");
    CHECK(rendered.page_errors.find("Error: memsim probe failure") != std::string::npos);

    const fs::path missing = dir / "no such page.html";
    try {
        Browser::shared().render_dom(file_url(missing), 800, 600);
        FAIL("a missing page rendered");
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        CHECK(what.find("no%20such%20page.html") != std::string::npos);
        CHECK(what.find("net::ERR_FILE_NOT_FOUND") != std::string::npos);
    }
}
