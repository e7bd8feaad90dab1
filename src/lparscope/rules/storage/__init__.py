"""Storage rules (000 §3.6; 001): disk drivers and queue depths, Fibre Channel adapters and NPIV,
MPIO paths, shared storage pools, LUN IOPS, blocked-I/O buffers, NFS client mounts.
"""
