"""Rules on what was measured rather than configured: the sizing of a partition from its nmon
recording, the recording's time series (run queue, paging, network errors, SEA traffic), and
network tests (throughput, latency).
"""
