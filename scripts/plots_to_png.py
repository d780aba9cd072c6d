#!/usr/bin/env python3
"""PNG copies of SVG plots from one headless Chromium (scripts/plots_to_png.sh runs it).

   scripts/plots_to_png.py CHROMIUM SCALE PROFILE_DIR SVG...

Each SVG becomes the PNG beside it (plot_x.svg -> plot_x.png), rendered at its own size
(the root element's width and height) times SCALE device pixels per SVG pixel. One
Chromium serves every plot over the DevTools protocol on a pipe (--remote-debugging-pipe:
JSON messages ending in a NUL byte, commands on fd 3, answers and events on fd 4): a
Chromium start costs about 2 s of CPU here, the render of one plot a small part of it.
Prints "wrote PNG" per plot; exits 1 with Chromium's own words when a render fails.
"""
import base64
import fcntl
import json
import os
import pathlib
import re
import select
import subprocess
import sys

TIMEOUT_S = 120  # per answer: Chromium gives each in well under a second


class Browser:
    def __init__(self, chromium, profile):
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()

        def child_fds():  # the child's fd 3 reads commands, fd 4 writes answers
            command, answer = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_browser_w, fcntl.F_DUPFD, 10)
            os.dup2(command, 3)
            os.dup2(answer, 4)

        self._err = open(os.path.join(profile, "chromium.err"), "w+")
        self._process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--hide-scrollbars",
             f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self._err, preexec_fn=child_fds, pass_fds=(3, 4))
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next_id = 0
        self._events = []

    def errors(self):
        self._err.seek(0)
        return self._err.read().strip()

    def _read_message(self):
        while b"\0" not in self._buffer:
            if not select.select([self._from_browser], [], [], TIMEOUT_S)[0]:
                raise RuntimeError(f"no answer within {TIMEOUT_S} s")
            chunk = os.read(self._from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed its DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=None):
        """The command's result; events that arrive meanwhile are kept for wait_for_load."""
        self._next_id += 1
        command = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            command["sessionId"] = session
        try:
            os.write(self._to_browser, json.dumps(command).encode() + b"\0")
        except BrokenPipeError:  # it ended before reading: the same as closing its answers
            raise RuntimeError("Chromium closed its DevTools pipe")
        while True:
            message = self._read_message()
            if message.get("id") == self._next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error'].get('message', message['error'])}")
                return message.get("result", {})
            self._events.append(message)

    def wait_for_load(self, loader, session):
        """Until the page of navigation `loader` fired its load event (events of earlier
        pages, about:blank's included, are passed over)."""
        while True:
            for message in self._events:
                params = message.get("params", {})
                if (message.get("method") == "Page.lifecycleEvent" and message.get("sessionId") == session and
                        params.get("name") == "load" and params.get("loaderId") == loader):
                    self._events.clear()
                    return
            self._events.append(self._read_message())

    def close(self):
        try:
            self.send("Browser.close")
        except (RuntimeError, OSError):
            pass
        try:
            self._process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        self._err.close()


def svg_size(path):
    """(width, height) of the root <svg> element, from the file's first 400 bytes."""
    with open(path, "rb") as f:
        head = f.read(400).decode("utf-8", "replace")
    found = re.search(r'<svg[^>]* width="([0-9.]+)" height="([0-9.]+)"', head)
    if not found:
        sys.exit(f"plots_to_png.sh: {path} has no width/height")
    return float(found.group(1)), float(found.group(2))


def main():
    chromium, scale, profile, svgs = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4:]
    sizes = [svg_size(svg) for svg in svgs]  # every plot checked before a browser starts
    browser = Browser(chromium, profile)
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        browser.send("Page.enable", session=session)
        browser.send("Page.setLifecycleEventsEnabled", {"enabled": True}, session=session)
        browser.send("Emulation.setScrollbarsHidden", {"hidden": True}, session=session)
        for svg, (width, height) in zip(svgs, sizes):
            # As --window-size W,H does: a viewport of whole CSS pixels.
            browser.send("Emulation.setDeviceMetricsOverride",
                         {"width": int(width), "height": int(height), "deviceScaleFactor": scale, "mobile": False},
                         session=session)
            navigation = browser.send("Page.navigate", {"url": pathlib.Path(os.path.realpath(svg)).as_uri()}, session=session)
            if navigation.get("errorText"):
                raise RuntimeError(f"{svg}: {navigation['errorText']}")
            browser.wait_for_load(navigation["loaderId"], session)
            shot = browser.send("Page.captureScreenshot", {"format": "png"}, session=session)
            png = os.path.splitext(svg)[0] + ".png"
            with open(png, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
            print(f"wrote {png}", flush=True)
    except RuntimeError as e:
        sys.exit(f"plots_to_png.sh: Chromium could not render the plots: {e}" +
                 (f"\n{browser.errors()}" if browser.errors() else ""))
    finally:
        browser.close()


if __name__ == "__main__":
    main()
