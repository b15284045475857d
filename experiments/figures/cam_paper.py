"""Values seed 000 (CAM: GPU-initiated, CPU-managed SSD management) states in its text,
each quoting its sentence, for the report's CAM section."""

from figures.paper import Stated

CAM_12SSD_4K_READ = Stated(20.0, "GB/s", "When configured with 12 SSDs and an access granularity of 4096, CAM is "
                                         "capable of achieving 20GB/s throughput.")
# "Figure 8a shows CAM achieves similar read throughput to that of SPDK and BaM": the
# ratio to CAM is 1 for both.
SPDK_OF_CAM_4K_READ = Stated(1.0, "x", "Figure 8a shows CAM achieves similar read throughput to that of SPDK and "
                                       "BaM.")
BAM_OF_CAM_4K_READ = Stated(1.0, "x", "Figure 8a shows CAM achieves similar read throughput to that of SPDK and "
                                      "BaM.")
GDS_12SSD = Stated(0.8, "GB/s", "For example, GDS achieves a throughput of only 0.8 GB/s with 12 SSDs, whereas CAM "
                                "can attain nearly 20 GB/s.")
ONE_THREAD_4_SSDS = Stated(0.75, "x", "The I/O throughput using one thread to control 4 SSDs is 75% of the "
                                     "throughput using one thread to control one SSD.")
ONE_THREAD_2_SSDS = Stated(1.0, "x", "We observe that when using a thread to control 2 SSDs, the I/O throughput is "
                                     "similar to that of one thread managing 1 SSD.")
SPDK_SCATTERED_4K = Stated(1.3, "GB/s", "When accessing is in 4KB granularity, it can only achieve 1.3GB/s "
                                        "bandwidth, which is 93.5% lower than the CAM's achieved bandwidth.")
# Fig. 4 (II-C): "When the number of SSDs exceeds five, the BaM system engages nearly all
# available GPU streaming multiprocessors to initiate NVMe commands": a share of 1.
BAM_SMS_BEYOND_5_SSDS = Stated(1.0, "share of SMs", "When the number of SSDs exceeds five, the BaM system engages "
                                                    "nearly all available GPU streaming multiprocessors to initiate "
                                                    "NVMe commands.")
# IV-B: "as CAM employs CPU resources exclusively to orchestrate the SSDs, it does not
# engage any GPU SMs": every SM is left to computation, a share of 1.
CAM_SMS_LEFT_FREE = Stated(1.0, "share of SMs", "Additionally, as CAM employs CPU resources exclusively to orchestrate "
                                                "the SSDs, it does not engage any GPU SMs.")
# Fig. 9 (IV-C): CAM's GNN training over GIDS (BaM), the largest speed-up (section I).
GNN_SPEEDUP_MAX = Stated(1.84, "x", "In the GNN application, our approach has consistently outperformed "
                                    "state-of-the-art implementations across various models and datasets, "
                                    "achieving up to 1.84x training speed.")
# Fig. 10b-c (IV-E): GEMM, CAM over BaM, the largest speed-up (section I).
GEMM_SPEEDUP_MAX = Stated(1.84, "x", "CAM also outperforms up to 1.50x and 1.84x compared to baselines in sort and "
                                     "GEMM workloads.")
# Fig. 10a (IV-D): merge sort, CAM over the baselines (SPDK, POSIX), the largest
# speed-up (section I), and CAM against SPDK alone.
SORT_SPEEDUP_MAX = Stated(1.50, "x", "CAM also outperforms up to 1.50x and 1.84x compared to baselines in sort and "
                                     "GEMM workloads.")
SPDK_SORT_OF_CAM = Stated(1.0, "x", "CAM outperforms POSIX I/O and achieves a similar execution time to SPDK.")
