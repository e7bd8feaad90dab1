"""Virtual I/O Server rules (000 §3.5, §3.6.1): processor and memory settings of a VIOS, the
VIOS pairs that serve each client, ioslevel, and the backing devices they export.
"""
