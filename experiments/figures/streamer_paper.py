"""Values seed 002 (SSDStreamer: an SSD-based caching system for large-scale machine
learning) states in its text, each quoting its sentence, for the report's SSDStreamer
section. Reductions are fractions: 0.332 is "33.2% below"."""

from figures.paper import Stated

SST_TOTAL_BELOW_MD = Stated(0.332, "reduction", "SST reduces the total execution time by 33.2% and 37.8% compared to "
                                                "the M+D and Alluxio (ALX), which represent the state-of-the-art "
                                                "multilevel caching organizations.")
SST_DISK_BELOW_D = Stated(0.823, "reduction", "SST effectively reduces the overhead of disk access by 82.3% on "
                                              "average compared to D.")
_USERIO_PREF = ("SST reduces the overhead of disk access by 72.2% and 76.4% on average compared to USERIO and PREF, "
                "respectively.")
SST_DISK_BELOW_USERIO = Stated(0.722, "reduction", _USERIO_PREF)
SST_DISK_BELOW_PREF = Stated(0.764, "reduction", _USERIO_PREF)
