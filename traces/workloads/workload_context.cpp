#include "traces/workloads/workload_context.hpp"

#include <string>
#include <utility>

namespace zng::workloads {

WorkloadContext::WorkloadContext(std::string workload, WorkloadOptions options, std::string out_path)
    : workload_(std::move(workload)), options_(std::move(options)), out_path_(std::move(out_path)) {}

WorkloadContext::~WorkloadContext() = default;

trace::TraceWriter& WorkloadContext::writer() {
    if (!writer_) {
        alloc_.freeze();
        // The chosen program options follow the generator's name, as a command line:
        // `trace info` shows "zngsim-gen --root 0" (a default trace stays "zngsim-gen").
        std::string source = "zngsim-gen";
        for (const auto& [name, value] : options_.program) source += " --" + name + " " + std::to_string(value);
        writer_ = std::make_unique<trace::TraceWriter>(out_path_, trace::TraceHeader{workload_, source, alloc_.arrays()});
    }
    return *writer_;
}

bool WorkloadContext::take_launch(int workload_default) {
    if (launches_ >= launch_cap(workload_default)) return false;
    ++launches_;
    return true;
}

void WorkloadContext::finish() {
    if (finished_) return;
    writer().finish();
    finished_ = true;
}

}  // namespace zng::workloads
