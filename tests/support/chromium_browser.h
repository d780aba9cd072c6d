// One headless Chromium per test process, driven over the DevTools protocol as
// scripts/plots_to_png.py drives one (--remote-debugging-pipe: JSON messages ending in a
// NUL byte, commands on the browser's fd 3, answers and events on its fd 4). Both fds are
// one end of a socket pair, not pipes: a send with MSG_NOSIGNAL makes a browser that
// died an error of the case, where a pipe's SIGPIPE would kill it, and ignoring SIGPIPE
// instead would pass to every program the tests start.
//
// Why: a Chromium start costs about 1-2 s of CPU on the 2-core test machine, a page
// 0.07 s, and the [chromium] cases rendered about 40 pages, one browser each
// (docs/performance.md, "One browser for a batch of Chromium cases").
// A batch (support/batch_main.cpp) whose cases render pages starts the browser before it
// forks them: each case's child inherits it, uses it alone (the batch runs one case at a
// time) and leaves it running for the next. A case run in a process of its own starts
// its own browser on first use, and that process's exit ends it.
//
// Each page is loaded in the browser's one tab (opened before the fork too), as a new
// document whose local and session storage the page before it left empty, in a
// viewport of exactly the asked size: the page sees window.innerWidth x innerHeight =
// width x height, and a screenshot has that many pixels.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace memsim::test {

// Where scripts/setup.sh installs Chromium (Debian's package).
inline const char* const kChromium = "/usr/bin/chromium";

class Browser {
public:
    // The process's browser: started on first use (or before the fork, by
    // start_for_children) and ended when the process that started it ends.
    static Browser& shared();
    // Starts the process's browser now, so that children forked afterwards share it.
    static void start_for_children();

    struct Page {
        std::string dom;          // the document as --dump-dom prints it (render_dom)
        std::string png;          // the screenshot's bytes (render_png)
        std::string page_errors;  // uncaught exceptions and console errors, one per line
    };
    // Loads `url` (file://...[#hash]) in a width x height viewport, waits for its load
    // event, and returns its serialized DOM or a PNG of the viewport. Throws
    // std::runtime_error with Chromium's words when something fails.
    Page render_dom(const std::string& url, int width, int height);
    Page render_png(const std::string& url, int width, int height);

    Browser(const Browser&) = delete;
    Browser& operator=(const Browser&) = delete;
    ~Browser();

private:
    Browser();
    void open_tab();  // the one tab every page is loaded in, with its DevTools session
    Page render(const std::string& url, int width, int height, bool screenshot);
    // The result of `method`; events that arrive meanwhile are kept in events_.
    nlohmann::json send(const std::string& method, const nlohmann::json& params, const std::string& session = "");
    nlohmann::json read_message();
    std::string failure(const std::string& what) const;  // `what`, with the end of Chromium's stderr

    pid_t process_ = -1;
    pid_t owner_ = -1;  // the process that started it: only that one ends it
    int socket_ = -1;   // our end of the socket pair that is the browser's fds 3 and 4
    std::filesystem::path profile_;
    std::string session_;
    std::string buffer_;
    long next_id_ = 0;
    std::vector<nlohmann::json> events_;
};

}  // namespace memsim::test
