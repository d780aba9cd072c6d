#include "chromium_browser.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <boost/archive/iterators/binary_from_base64.hpp>
#include <boost/archive/iterators/transform_width.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

extern char** environ;

namespace memsim::test {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kAnswerTimeoutMs = 120'000;  // Chromium answers in well under a second

// A command id no other process sharing the browser uses: a case that died in the middle
// of a command may leave its answer in the socket for the next case, which must not take
// it for its own.
long first_id() { return static_cast<long>(getpid() % 20'000) * 100'000; }

// Boost.Archive's base64 iterators (header-only; Boost is already a dependency), with
// the '=' padding, which they do not read, stripped first.
std::string base64_decode(std::string text) {
    using Decoder = boost::archive::iterators::transform_width<
        boost::archive::iterators::binary_from_base64<std::string::const_iterator>, 8, 6>;
    while (!text.empty() && text.back() == '=') text.pop_back();
    return {Decoder(text.cbegin()), Decoder(text.cend())};
}

// `fd` moved to a descriptor >= 10 (closed on exec), so that the child's dup2 to 3 and 4
// never lands on it.
int high_fd(int fd) {
    const int moved = fcntl(fd, F_DUPFD_CLOEXEC, 10);
    close(fd);
    return moved;
}

std::string text_of(const json& value) { return value.is_string() ? value.get<std::string>() : value.dump(); }

}  // namespace

Browser& Browser::shared() {
    static Browser browser;
    return browser;
}

void Browser::start_for_children() { shared().open_tab(); }

Browser::Browser() : owner_(getpid()), next_id_(first_id()) {
    std::string dir = (fs::temp_directory_path() / "memsim-chromium-XXXXXX").string();
    if (mkdtemp(dir.data()) == nullptr) throw std::runtime_error(fmt::format("mkdtemp {}: {}", dir, std::strerror(errno)));
    profile_ = dir;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        const std::string why = std::strerror(errno);
        fs::remove(profile_);
        throw std::runtime_error("socketpair: " + why);
    }
    socket_ = high_fd(pair[0]);
    const int theirs = high_fd(pair[1]);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    const std::string err = (profile_ / "chromium.err").string();
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, theirs, 3);  // commands in
    posix_spawn_file_actions_adddup2(&actions, theirs, 4);  // answers and events out
    const std::string profile_flag = "--user-data-dir=" + profile_.string();
    std::vector<std::string> args = {kChromium,
                                     "--headless",
                                     "--no-sandbox",
                                     "--disable-gpu",
                                     "--no-first-run",
                                     "--disable-background-networking",
                                     "--disable-component-update",
                                     "--disable-sync",
                                     "--disable-dev-shm-usage",
                                     "--hide-scrollbars",
                                     profile_flag,
                                     "--remote-debugging-pipe",
                                     "about:blank"};
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int spawned = posix_spawn(&process_, kChromium, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(theirs);
    if (spawned != 0) {  // no destructor runs for an object whose constructor threw
        process_ = -1;
        close(socket_);
        std::error_code ignored;
        fs::remove_all(profile_, ignored);
        throw std::runtime_error(fmt::format("cannot start {}: {}", kChromium, std::strerror(spawned)));
    }
}

Browser::~Browser() {
    if (getpid() != owner_) return;  // a forked case's copy: the browser stays for the next case
    if (process_ > 0) {
        try {
            send("Browser.close", json::object());
        } catch (const std::exception&) {
            // it has ended already, or will on the socket's close below
        }
    }
    if (socket_ >= 0) close(socket_);
    if (process_ > 0) {
        int status = 0;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (waitpid(process_, &status, WNOHANG) == 0) {
            if (std::chrono::steady_clock::now() > deadline) {
                kill(process_, SIGKILL);
                waitpid(process_, &status, 0);
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
    std::error_code ignored;
    fs::remove_all(profile_, ignored);
}

std::string Browser::failure(const std::string& what) const {
    std::ifstream in(profile_ / "chromium.err");
    std::stringstream err;
    err << in.rdbuf();
    std::string text = err.str();
    if (text.size() > 4000) text = "..." + text.substr(text.size() - 4000);
    return text.empty() ? what : what + "\nChromium's stderr:\n" + text;
}

json Browser::read_message() {
    for (;;) {
        if (const std::size_t end = buffer_.find('\0'); end != std::string::npos) {
            std::string message = buffer_.substr(0, end);
            buffer_.erase(0, end + 1);
            json parsed = json::parse(message, nullptr, /*allow_exceptions=*/false);
            if (!parsed.is_discarded()) return parsed;
            continue;  // the tail of a message a case that died had half read
        }
        pollfd ready{socket_, POLLIN, 0};
        const int polled = poll(&ready, 1, kAnswerTimeoutMs);
        if (polled < 0 && errno == EINTR) continue;
        if (polled == 0)
            throw std::runtime_error(failure(fmt::format("Chromium gave no answer within {} s", kAnswerTimeoutMs / 1000)));
        char chunk[1 << 16];
        const ssize_t got = read(socket_, chunk, sizeof chunk);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) throw std::runtime_error(failure("Chromium closed its DevTools pipe"));
        buffer_.append(chunk, static_cast<std::size_t>(got));
    }
}

json Browser::send(const std::string& method, const json& params, const std::string& session) {
    const long id = ++next_id_;
    json command = {{"id", id}, {"method", method}, {"params", params}};
    if (!session.empty()) command["sessionId"] = session;
    std::string bytes = command.dump();
    bytes += '\0';
    for (std::size_t sent = 0; sent < bytes.size();) {
        const ssize_t n = ::send(socket_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw std::runtime_error(failure("Chromium closed its DevTools pipe"));
        sent += static_cast<std::size_t>(n);
    }
    for (;;) {
        json message = read_message();
        if (message.contains("id")) {
            if (message["id"] != id) continue;  // an answer to a case that died before reading it
            if (message.contains("error"))
                throw std::runtime_error(failure(method + ": " + text_of(message["error"]["message"])));
            return message.contains("result") ? message["result"] : json::object();
        }
        events_.push_back(std::move(message));
    }
}

Browser::Page Browser::render_dom(const std::string& url, int width, int height) { return render(url, width, height, false); }
Browser::Page Browser::render_png(const std::string& url, int width, int height) { return render(url, width, height, true); }

void Browser::open_tab() {
    if (!session_.empty()) return;
    const std::string target = send("Target.createTarget", {{"url", "about:blank"}})["targetId"];
    session_ = send("Target.attachToTarget", {{"targetId", target}, {"flatten", true}})["sessionId"];
    send("Page.enable", json::object(), session_);
    send("Page.setLifecycleEventsEnabled", {{"enabled", true}}, session_);
    send("Runtime.enable", json::object(), session_);
}

Browser::Page Browser::render(const std::string& url, int width, int height, bool screenshot) {
    open_tab();
    events_.clear();
    Page page;
    send("Emulation.setDeviceMetricsOverride",
         {{"width", width}, {"height", height}, {"deviceScaleFactor", 1}, {"mobile", false}}, session_);
    json navigation = send("Page.navigate", {{"url", url}}, session_);
    if (!navigation.contains("loaderId") && !navigation.contains("errorText")) {
        // The tab showed this page already and only the #hash differs: the navigation
        // stayed in the document (Chromium omits the loader then). A fresh document runs
        // the page's scripts with the new hash.
        send("Page.navigate", {{"url", "about:blank"}}, session_);
        navigation = send("Page.navigate", {{"url", url}}, session_);
    }
    if (navigation.contains("errorText")) throw std::runtime_error(failure(url + ": " + text_of(navigation["errorText"])));
    const std::string loader = navigation.value("loaderId", "");
    // Until the page's load event: its scripts, the probe's included, have run (the pages
    // start no timers). Events of the pages before it are passed over.
    for (std::size_t seen = 0;; ++seen) {
        while (seen >= events_.size()) events_.push_back(read_message());
        const json& event = events_[seen];
        if (event.value("sessionId", "") != session_) continue;
        const std::string method = event.value("method", "");
        const json params = event.contains("params") ? event["params"] : json::object();
        if (method == "Runtime.exceptionThrown") {
            const json& details = params["exceptionDetails"];
            const bool described = details.contains("exception") && details["exception"].contains("description");
            page.page_errors += text_of(described ? details["exception"]["description"]
                                                  : details.value("text", json("exception")));
            page.page_errors += "\n";
        } else if (method == "Runtime.consoleAPICalled" && params.value("type", "") == "error") {
            page.page_errors += "console.error: " + params["args"].dump() + "\n";
        } else if (method == "Page.lifecycleEvent" && params.value("name", "") == "load" &&
                   params.value("loaderId", "") == loader) {
            break;
        }
    }
    if (screenshot) {
        page.png = base64_decode(send("Page.captureScreenshot", {{"format", "png"}}, session_)["data"]);
    } else {
        const int root = send("DOM.getDocument", {{"depth", 0}}, session_)["root"]["nodeId"];
        page.dom = send("DOM.getOuterHTML", {{"nodeId", root}}, session_)["outerHTML"];
    }
    // The next page starts as in a fresh profile: nothing stored by this one (the pages
    // memsim writes store nothing; the tab is reused because a tab of its own cost each
    // page 0.19 s of CPU, a browser context 0.27 s, against 0.07 s).
    send("Runtime.evaluate", {{"expression", "try { localStorage.clear(); sessionStorage.clear(); } catch (e) {}"}}, session_);
    events_.clear();
    return page;
}

}  // namespace memsim::test
