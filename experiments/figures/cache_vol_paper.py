"""Values seed 004 (HDF5 Cache VOL: caching data on node-local storage) states in its
Tables II and III(a), each quoting the caption or sentence it comes from, for the
report's Cache VOL section."""

from figures.paper import Stated

_TABLE2 = ("Table II: observed write bandwidth for the check-pointing microbenchmark on 8 Theta nodes with 16 "
           "processes per node, 32 iterations of 16 MB x 8 writes per process; \"if the compute / IO ratio is larger "
           "than 1, the data migration is completely hidden behind the compute, resulting an observed write "
           "bandwidth, 4330 MiB/sec, which is close to the pure SSD write bandwidth, 4420 MiB/sec.\"")
WRITE_BW_NO_COMPUTE = Stated(2993.63, "MiB/s", _TABLE2 + " Compute 0 s: 2993.63 MiB/s.")
WRITE_BW_RATIO_1_14 = Stated(4318.86, "MiB/s", _TABLE2 + " Compute 128 s (compute/IO 1.14): 4318.86 MiB/s.")
WRITE_BW_RATIO_2_00 = Stated(4336.00, "MiB/s", _TABLE2 + " Compute 224 s (compute/IO 2.00): 4336.00 MiB/s.")

# Table III(a): 256 GB dataset on a single-GPU ThetaGPU node, read bandwidth (MiB/s) per iteration.
BASELINE_SEQ = [1648.83, 1879.51, 2044.39, 1873.59]
BASELINE_RND = [1194.52, 1300.26, 1261.07, 1285.54]
CACHEVOL_SEQ = [889.16, 2684.45, 3287.66, 3318.28]
CACHEVOL_RND = [759.74, 2956.41, 3372.95, 3389.87]


def _mean(v):
    return sum(v) / len(v)


_TABLE3 = ("Table III(a), 256 GB on a single-gpu ThetaGPU node: \"With Cache VOL, one achieves 1.5 - 2x higher read "
           "bandwidth than the baseline because NVMe has a higher read bandwidth than Lustre for both sequential and "
           "random read.\"")
# Epochs 2-4: the mean of Cache VOL's iterations 2-4 over the mean of the baseline's.
LATER_EPOCHS_SEQ = Stated(round(_mean(CACHEVOL_SEQ[1:]) / _mean(BASELINE_SEQ[1:]), 2), "x",
                          _TABLE3 + " Sequential, iterations 2-4: 3096.80 / 1932.50 MiB/s.")
LATER_EPOCHS_RND = Stated(round(_mean(CACHEVOL_RND[1:]) / _mean(BASELINE_RND[1:]), 2), "x",
                          _TABLE3 + " Random, iterations 2-4: 3239.74 / 1282.29 MiB/s.")
_EPOCH1 = ("Table III(a): \"for Cache VOL, at first iteration, data is read from the parallel file system and cached on "
           "the node-local storage\"; IV-C: \"Except the first epoch which involves loading data from PFS and caching "
           "it to the NLS\".")
FIRST_EPOCH_SEQ = Stated(round(CACHEVOL_SEQ[0] / BASELINE_SEQ[0], 2), "x",
                         _EPOCH1 + " Sequential, iteration 1: 889.16 / 1648.83 MiB/s.")
