// Everything one generator run needs: options, the device allocator, and the trace
// writer, which is created (with the arrays in its header) once allocation is done.
#pragma once

#include <memory>
#include <string>

#include "traces/trace.hpp"
#include "traces/workloads/device_allocator.hpp"
#include "traces/workloads/workload_options.hpp"

namespace zng::workloads {

class WorkloadContext {
public:
    WorkloadContext(std::string workload, WorkloadOptions options, std::string out_path);
    ~WorkloadContext();
    WorkloadContext(const WorkloadContext&) = delete;
    WorkloadContext& operator=(const WorkloadContext&) = delete;

    const std::string& workload() const { return workload_; }
    const WorkloadOptions& options() const { return options_; }
    DeviceAllocator& allocator() { return alloc_; }

    // Writer of the trace: the first call writes the header {workload, "zngsim-gen"
    // followed by the chosen program options ("zngsim-gen --root 0"),
    // allocator().arrays()} and freezes the allocator.
    trace::TraceWriter& writer();

    // Launches to emit: options().max_launches when set, else the workload's default.
    int launch_cap(int workload_default) const {
        return options_.max_launches >= 0 ? options_.max_launches : workload_default;
    }
    // Counts a launch against the cap; false when the cap is reached (the generator
    // then stops emitting, although it may keep computing for its functional result).
    bool take_launch(int workload_default);
    int launches() const { return launches_; }

    // Writes the footer; a workload that emitted no kernel still yields a valid trace.
    void finish();

private:
    std::string workload_;
    WorkloadOptions options_;
    std::string out_path_;
    DeviceAllocator alloc_;
    std::unique_ptr<trace::TraceWriter> writer_;
    int launches_ = 0;
    bool finished_ = false;
};

}  // namespace zng::workloads
