"""Memory rules for one partition: maximum memory and the hardware page table, AIX VMM tunables,
paging space, pinned memory (000 §3.1; rules-catalogue MEM-*).
"""
