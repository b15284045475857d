// ThreadedTraceSource: the consumer sees what the inner source gives, kernels, CTAs and
// errors, in order, whatever the limits on what is held ahead.
#include "traces/threaded_trace_source.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "traces/vector_trace_source.hpp"

namespace zng::trace {
namespace {

// Kernel k (named "k<k>") has k + 1 CTAs; CTA c of kernel k has one warp of c + 1 bytes,
// each byte 10 * k + c, so every CTA is recognisable.
std::unique_ptr<VectorTraceSource> kernels(int n) {
    TraceHeader h;
    h.workload = "three kernels";
    auto src = std::make_unique<VectorTraceSource>(h, std::vector<KernelTrace>{}, "the inner trace");
    for (int k = 0; k < n; ++k) {
        KernelInfo info;
        info.name = "k" + std::to_string(k);
        info.grid = {static_cast<uint32_t>(k + 1), 1, 1};
        info.block = {32, 1, 1};
        KernelTrace& kt = src->add_kernel(info);
        for (int c = 0; c <= k; ++c) {
            CtaTrace cta;
            cta.cta_id = static_cast<uint64_t>(c);
            cta.warps.push_back(std::vector<uint8_t>(static_cast<size_t>(c + 1), static_cast<uint8_t>(10 * k + c)));
            cta.records = 1;
            kt.ctas.push_back(cta);
        }
    }
    return src;
}

// Gives the inner source's kernels, then throws at CTA `at` of kernel `kernel`.
class FailingSource final : public TraceSource {
public:
    FailingSource(int kernel, int at) : inner_(kernels(3)), kernel_(kernel), at_(at) {}
    const TraceHeader& header() const override { return inner_->header(); }
    bool next_kernel(KernelInfo& k) override {
        ++kernels_seen_;
        ctas_seen_ = 0;
        return inner_->next_kernel(k);
    }
    bool next_cta(CtaTrace& cta) override {
        if (kernels_seen_ - 1 == kernel_ && ctas_seen_++ == at_) throw TraceError("bad record in kernel 1");
        return inner_->next_cta(cta);
    }
    std::string describe() const override { return "failing"; }

private:
    std::unique_ptr<VectorTraceSource> inner_;
    int kernel_, at_, kernels_seen_ = 0, ctas_seen_ = 0;
};

// Everything a consumer reading to the end sees, as text: "k<k>:" per kernel and
// "<id>=<first byte>x<bytes>" per CTA.
std::string drain(TraceSource& src) {
    std::string out;
    KernelInfo k;
    CtaTrace cta;
    while (src.next_kernel(k)) {
        out += k.name + ":";
        while (src.next_cta(cta))
            out += std::to_string(cta.cta_id) + "=" + std::to_string(cta.warps.at(0).at(0)) + "x" +
                   std::to_string(cta.warps[0].size()) + " ";
    }
    return out;
}

TEST(ThreadedTraceSource, GivesTheInnerSourcesKernelsAndCtasUnderEveryLimit) {
    const std::string expected = "k0:0=0x1 k1:0=10x1 1=11x2 k2:0=20x1 1=21x2 2=22x3 k3:0=30x1 1=31x2 2=32x3 3=33x4 ";
    EXPECT_EQ(drain(*kernels(4)), expected);
    for (const ThreadedSourceLimits limits :
         {ThreadedSourceLimits{}, ThreadedSourceLimits{1, 1}, ThreadedSourceLimits{2, 1000}, ThreadedSourceLimits{0, 0}}) {
        ThreadedTraceSource src(kernels(4), limits);
        EXPECT_EQ(src.header().workload, "three kernels");
        EXPECT_EQ(src.describe(), "the inner trace");
        EXPECT_EQ(drain(src), expected);
        KernelInfo k;
        CtaTrace cta;
        EXPECT_FALSE(src.next_kernel(k));  // stays at the end
        EXPECT_FALSE(src.next_cta(cta));
    }
}

TEST(ThreadedTraceSource, AnErrorIsThrownWhereTheInnerSourceMetIt) {
    for (const ThreadedSourceLimits limits : {ThreadedSourceLimits{}, ThreadedSourceLimits{1, 1}}) {
        ThreadedTraceSource src(std::make_unique<FailingSource>(1, 1), limits);
        KernelInfo k;
        CtaTrace cta;
        ASSERT_TRUE(src.next_kernel(k));
        ASSERT_TRUE(src.next_cta(cta));
        EXPECT_FALSE(src.next_cta(cta));
        ASSERT_TRUE(src.next_kernel(k));
        EXPECT_EQ(k.name, "k1");
        ASSERT_TRUE(src.next_cta(cta));  // CTA 0 of kernel 1, then the error
        EXPECT_EQ(cta.warps.at(0).at(0), 10);
        EXPECT_THROW(src.next_cta(cta), TraceError);
        EXPECT_THROW(src.next_kernel(k), TraceError);  // and again on any later call
    }
}

TEST(ThreadedTraceSource, AConsumerMovingOnEarlyFindsTheNextKernelsCtas) {
    ThreadedTraceSource src(kernels(3), ThreadedSourceLimits{1, 1});
    KernelInfo k;
    CtaTrace cta;
    ASSERT_TRUE(src.next_kernel(k));
    ASSERT_TRUE(src.next_kernel(k));
    ASSERT_TRUE(src.next_cta(cta));  // kernel 1's first of two
    ASSERT_TRUE(src.next_kernel(k));
    EXPECT_EQ(k.name, "k2");
    ASSERT_TRUE(src.next_cta(cta));
    EXPECT_EQ(cta.warps.at(0).at(0), 20);
    EXPECT_EQ(cta.warps[0].size(), 1u);
}

TEST(ThreadedTraceSource, LeavingBeforeTheEndStopsTheWorker) {
    ThreadedTraceSource src(kernels(20), ThreadedSourceLimits{2, 1000});
    KernelInfo k;
    ASSERT_TRUE(src.next_kernel(k));
    // Destroyed with 200 CTAs unread and the worker waiting for room: it must not hang.
}

}  // namespace
}  // namespace zng::trace
