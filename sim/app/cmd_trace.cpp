// zngsim trace info|dump|gen|import
#include <fmt/format.h>

#include <atomic>
#include <condition_variable>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>
#include <nlohmann/json.hpp>

#include "sim/app/cli_common.hpp"
#include "sim/app/progress_line.hpp"
#include "sim/app/trace_inputs.hpp"
#include "traces/importers/importers.hpp"
#include "traces/trace_summary.hpp"
#include "traces/workloads/workload_registry.hpp"

namespace zng::cli {
namespace {

std::string mib(uint64_t bytes) { return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20)); }

// Passes a trace through, showing how far a reading pass (trace info) has got.
class ProgressTraceSource final : public trace::TraceSource {
public:
    ProgressTraceSource(trace::TraceSource& inner, ProgressLine& line) : inner_(inner), line_(line) {}
    const trace::TraceHeader& header() const override { return inner_.header(); }
    bool next_kernel(trace::KernelInfo& k) override {
        const bool more = inner_.next_kernel(k);
        if (more) ++kernels_;
        return more;
    }
    bool next_cta(trace::CtaTrace& cta) override {
        const bool more = inner_.next_cta(cta);
        if (more) ++ctas_;
        if (line_.due()) line_.show(text());
        return more;
    }
    std::string describe() const override { return inner_.describe(); }
    std::string text() const {
        return fmt::format("trace info: kernel {}, {} CTAs read, {:.0f} s", kernels_, ctas_, line_.elapsed());
    }

private:
    trace::TraceSource& inner_;
    ProgressLine& line_;
    uint64_t kernels_ = 0, ctas_ = 0;
};

// Shows the size of the trace being written (the writer's <path>.partial) from a thread
// of its own while the generator runs, since generation has no other place to report.
class WriteProgress {
public:
    WriteProgress(ProgressLine& line, std::string partial, std::string what)
        : line_(line), partial_(std::move(partial)), what_(std::move(what)) {
        if (line_.enabled()) thread_ = std::thread([this] { loop(); });
    }
    ~WriteProgress() {
        {
            std::lock_guard<std::mutex> g(m_);
            stop_ = true;
        }
        cv_.notify_all();
        if (thread_.joinable()) thread_.join();
    }
    std::string text() const {
        std::error_code ec;
        const auto size = std::filesystem::file_size(partial_, ec);
        return fmt::format("{}: {} written, {:.0f} s", what_, ec ? std::string("nothing yet") : mib(size),
                           line_.elapsed());
    }

private:
    void loop() {
        std::unique_lock<std::mutex> g(m_);
        while (!cv_.wait_for(g, std::chrono::milliseconds(500), [this] { return stop_; })) line_.show(text());
    }
    ProgressLine& line_;
    std::string partial_, what_;
    std::mutex m_;
    std::condition_variable cv_;
    bool stop_ = false;
    std::thread thread_;
};

int trace_info(int argc, char** argv) {
    po::options_description desc("zngsim trace info options");
    desc.add_options()("help,h", "this help")("file", po::value<std::string>()->required(), "trace to summarise")(
        "format", po::value<std::string>()->default_value("ztr"), "input format: ztr, accelsim or macsim")(
        "json", "print the summary as JSON");
    po::positional_options_description pos;
    pos.add("file", 1);
    po::variables_map vm;
    if (!parse(argc, argv, desc, vm, "usage: zngsim trace info FILE [--format ztr|accelsim|macsim] [--json]", &pos))
        return kExitOk;
    require_input(vm["file"].as<std::string>(), "FILE");
    auto src = open_trace_input(vm["file"].as<std::string>(), vm["format"].as<std::string>());
    ProgressLine line(ProgressLine::wanted());
    ProgressTraceSource counted(*src, line);
    trace::TraceSummary s = trace::summarize(counted);
    line.finish(counted.text());
    if (vm.count("json"))
        std::cout << trace::summary_to_json(s).dump(2) << "\n";
    else
        trace::print_summary(s, std::cout);
    return kExitOk;
}

int trace_dump(int argc, char** argv) {
    po::options_description desc("zngsim trace dump options");
    desc.add_options()("help,h", "this help")("file", po::value<std::string>()->required(), "trace to print")(
        "format", po::value<std::string>()->default_value("ztr"), "input format: ztr, accelsim or macsim")(
        "max", po::value<uint64_t>()->default_value(0), "stop after this many records (0 = all)");
    po::positional_options_description pos;
    pos.add("file", 1);
    po::variables_map vm;
    if (!parse(argc, argv, desc, vm, "usage: zngsim trace dump FILE [--max N]", &pos)) return kExitOk;
    require_input(vm["file"].as<std::string>(), "FILE");
    auto src = open_trace_input(vm["file"].as<std::string>(), vm["format"].as<std::string>());
    trace::dump_trace(*src, std::cout, vm["max"].as<uint64_t>());
    return kExitOk;
}

int trace_gen(int argc, char** argv) {
    po::options_description desc("zngsim trace gen options");
    desc.add_options()("help,h", "this help")("workload,w", po::value<std::string>()->required(),
                                               "built-in workload (zngsim workloads lists them)")(
        "output,o", po::value<std::string>()->required(), "trace file to write (.ztr)");
    add_workload_options(desc);
    po::variables_map vm;
    if (!parse(argc, argv, desc, vm, "usage: zngsim trace gen --workload NAME [options] -o FILE")) return kExitOk;
    workloads::WorkloadOptions opt = workload_options_from(vm);
    std::string name = vm["workload"].as<std::string>();
    std::string out = vm["output"].as<std::string>();
    require_output_file(out, "--output");
    workloads::check_program_options_apply({name}, opt);
    auto t0 = std::chrono::steady_clock::now();
    ProgressLine line(ProgressLine::wanted());
    {
        WriteProgress progress(line, out + ".partial", "trace gen " + name);
        workloads::generate_workload(name, opt, out);
    }
    std::error_code ec;
    line.finish(fmt::format("trace gen {}: {} written, {:.0f} s", name, mib(std::filesystem::file_size(out, ec)),
                            line.elapsed()));
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cerr << fmt::format("wrote {} ({} preset) in {:.2f} s\n", out, opt.preset, s);
    return kExitOk;
}

int trace_import(int argc, char** argv) {
    po::options_description desc("zngsim trace import options");
    desc.add_options()("help,h", "this help")("from", po::value<std::string>()->required(),
                                               "source format: accelsim or macsim")(
        "input", po::value<std::string>()->required(),
        "trace directory, or kernelslist.g (accelsim) / kernel_config.txt (macsim)")(
        "output,o", po::value<std::string>()->required(), "trace file to write (.ztr)");
    po::positional_options_description pos;
    pos.add("input", 1);
    po::variables_map vm;
    if (!parse(argc, argv, desc, vm, "usage: zngsim trace import --from accelsim|macsim PATH -o FILE", &pos))
        return kExitOk;
    require_input(vm["input"].as<std::string>(), "--input");
    require_output_file(vm["output"].as<std::string>(), "--output");
    importers::ImportReport report;
    importers::import_trace(importers::parse_format(vm["from"].as<std::string>()), vm["input"].as<std::string>(),
                            vm["output"].as<std::string>(), &report);
    print_import_report(report, std::cerr);
    std::cerr << "wrote " << vm["output"].as<std::string>() << "\n";
    return kExitOk;
}

}  // namespace

int cmd_trace(int argc, char** argv) {
    const char* usage =
        "usage: zngsim trace <info|dump|gen|import> ...\n"
        "  info FILE     kernels, warps, instructions, loads/stores, read ratio (128 B lines), footprint\n"
        "  dump FILE     every record as text\n"
        "  gen           write the trace of a built-in workload\n"
        "  import        convert an Accel-Sim or MacSim trace to a zngsim trace";
    if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h") {
        std::cout << usage << "\n";
        return argc < 2 ? kExitUsage : kExitOk;
    }
    std::string sub = argv[1];
    if (sub == "info") return trace_info(argc - 1, argv + 1);
    if (sub == "dump") return trace_dump(argc - 1, argv + 1);
    if (sub == "gen") return trace_gen(argc - 1, argv + 1);
    if (sub == "import") return trace_import(argc - 1, argv + 1);
    throw UsageError("unknown trace command '" + sub + "'");
}

int cmd_workloads(int argc, char** argv) {
    po::options_description desc("zngsim workloads options");
    desc.add_options()("help,h", "this help")("json", "print the list, with each workload's program options, as JSON");
    po::variables_map vm;
    if (!parse(argc, argv, desc, vm, "usage: zngsim workloads [--json]   (lists the built-in workloads)"))
        return kExitOk;
    if (vm.count("json")) {
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const auto& w : workloads::list_workloads()) {
            nlohmann::ordered_json options = nlohmann::ordered_json::array();
            for (const auto& p : w.program_options)
                options.push_back({{"name", p.name}, {"description", p.description}, {"type", "integer"},
                                   {"min", p.min}, {"max", p.max}, {"default", p.default_text}});
            list.push_back({{"name", w.name}, {"suite", w.suite}, {"description", w.description},
                            {"paper_read_ratio", w.paper_read_ratio}, {"paper_kernels", w.paper_kernels},
                            {"program_options", options}});
        }
        std::cout << list.dump(1) << "\n";
        return kExitOk;
    }
    std::cout << fmt::format("{:<8} {:<10} {:>10} {:>8}  {}\n", "name", "suite", "read ratio", "kernels",
                             "description");
    for (const auto& w : workloads::list_workloads())
        std::cout << fmt::format("{:<8} {:<10} {:>10.2f} {:>8}  {}\n", w.name, w.suite, w.paper_read_ratio,
                                 w.paper_kernels, w.description);
    std::cout << "\nread ratio and kernels: the paper's Table II. Multi-application runs: --workload a,b or a-b.\n"
                 "\nOptions of the original programs (zngsim run / trace gen --NAME VALUE, integers):\n";
    for (const auto& w : workloads::list_workloads())
        for (const auto& p : w.program_options)
            std::cout << fmt::format("  {:<6} --{:<10} {} ({}..{})\n  {:<6}   {:<10} default: {}\n", w.name, p.name,
                                     p.description, p.min, p.max, "", "", p.default_text);
    return kExitOk;
}

}  // namespace zng::cli
