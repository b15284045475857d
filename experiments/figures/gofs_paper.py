"""Values seed 001 (GoFS: a GPU-orchestrated file system) states in its text, each
quoting its sentence, for the report's GoFS section."""

from figures.paper import Stated

_SEQ = ("GoFS achieves 5.5GBps/6.5GBps read/write throughput, which is close to the peak raw throughput of our "
        "SSD (6.9-7.5GB/s [2]).")
GOFS_SEQ_READ = Stated(5.5, "GB/s", _SEQ)
GOFS_SEQ_WRITE = Stated(6.5, "GB/s", _SEQ)
_RAND = ("For random read, GoFS achieves 5.1GB/s peak throughput, which is close to the peak raw SSD throughput "
         "(5.4GB/s, as measured on the raw block device without a file system).")
GOFS_RAND_READ = Stated(5.1, "GB/s", _RAND)
RAW_RAND_READ = Stated(5.4, "GB/s", _RAND)
GOFS_RAND_WRITE = Stated(6.1, "GB/s", "For random write, GoFS achieves near-sequential throughput (6.1GB/s).")
_CUFILE = ("For sequential read/write, cuFile has the lowest throughput (0.44GBps/0.48GBps) due to high host stack "
           "overhead.")
CUFILE_SEQ_READ = Stated(0.44, "GB/s", _CUFILE)
CUFILE_SEQ_WRITE = Stated(0.48, "GB/s", _CUFILE)
_FOUR = "With 4 SSDs, GoFS achieves 20.4GBps/22.1GBps sequential read/write throughput."
GOFS_4SSD_SEQ_READ = Stated(20.4, "GB/s", _FOUR)
GOFS_4SSD_SEQ_WRITE = Stated(22.1, "GB/s", _FOUR)
BASIC_SEQ_WRITE = Stated(1.1, "GB/s", "The write throughput of Basic is only 1.1GB/s due to lock contentions among "
                                      "CPU threads.")
BASIC_4SSD = Stated(7.8, "GB/s", "In contrast, Basic can only achieve up to 7.8GB/s throughput with 4 SSDs due to host "
                                 "software overhead.")
_TABLE2 = ("Table 2. Total execution time and speedup vs. Host-Only for dataset preprocessing: GoFS 172.26s "
           "(1.16x), 97.11s (1.96x), 58.80s (3.16x) on 1, 2 and 4 SSDs.")
PREPROCESS_1SSD = Stated(1.16, "x", _TABLE2)
PREPROCESS_2SSD = Stated(1.96, "x", _TABLE2)
PREPROCESS_4SSD = Stated(3.16, "x", _TABLE2)
_FIG11 = ("Even when other baselines perform close to GoFS (e.g., for sequential read/write), they need to occupy at "
          "least 8-16 CPU cores to achieve the best performance.")
BASELINE_CORES_FOR_BEST = Stated(8, "cores", _FIG11)
GOFS_CORE_INDEPENDENT = Stated(1.0, "x", "GoFS is not affected by this parameter since it does not involve the host "
                                         "CPU at all during I/O accesses.")
_FIG12 = "GoFS outperforms Basic, GPUfs, cuFile, and GeminiFS by 6.2/7.5/21.3/2.1x on average."
QUERY_OVER_BASIC = Stated(6.2, "x", _FIG12)
QUERY_OVER_GEMINIFS = Stated(2.1, "x", _FIG12)
QUERY_BATCH_API = Stated(1.41, "x", "For intelligent queries, our ablation study shows that the batch API of GoFS "
                                    "improves the query throughput by 1.41x on average, compared to the case without "
                                    "using the batch API.")
GRAPH_OVER_BASIC = Stated(1.53, "x", "GoFS achieves 1.34-1.76x speedup (1.53x on average) over Basic, since it "
                                     "alleviates host CPU bottleneck and scales the I/O throughput with massive GPU "
                                     "threads.")
GRAPH_OVER_GEMINIFS = Stated(1.2, "x", "Compared to GeminiFS, GoFS is 1.2x faster, as GoFS utilizes more GPU "
                                       "parallelism to improve I/O throughput.")
GRAPH_CUFILE_UNDER_BASIC = Stated(19.8, "x", "cuFile has the worst performance (up to 19.8x slower than Basic and "
                                             "GPUfs) due to the random access pattern with small I/O sizes.")
