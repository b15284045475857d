// A progress line on stderr for long command steps (trace gen, trace info): rewritten in
// place at most twice a second, shown only on a terminal so that logs and tests stay
// clean. ZNGSIM_PROGRESS=1 forces it (and =0 silences it), for recording and testing.
#pragma once
#include <chrono>
#include <string>

namespace zng::cli {

class ProgressLine {
public:
    // Whether a progress line is wanted: ZNGSIM_PROGRESS when set, else stderr is a tty.
    static bool wanted();

    explicit ProgressLine(bool enabled) : enabled_(enabled), last_(std::chrono::steady_clock::now()) {}
    // A line left unfinished (the step failed) is ended, so the error starts a line.
    ~ProgressLine();
    ProgressLine(const ProgressLine&) = delete;
    ProgressLine& operator=(const ProgressLine&) = delete;
    bool enabled() const { return enabled_; }
    // True when half a second has passed since the last line (cheap enough per CTA).
    bool due() const { return enabled_ && std::chrono::steady_clock::now() - last_ >= std::chrono::milliseconds(500); }
    // Rewrites the line with `text`.
    void show(const std::string& text);
    // The last state, then a newline.
    void finish(const std::string& text);
    // Seconds since the line was made.
    double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

private:
    bool enabled_;
    bool open_ = false;  // a line is shown and not ended
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_;
};

}  // namespace zng::cli
