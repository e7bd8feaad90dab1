"""Network rules (000 §3.7-§3.8; 001; 002; 003): Shared Ethernet Adapters, link aggregation,
physical and virtual Ethernet adapters, TCP/IP options. ``devices`` and ``link_speed`` read the
model's Ethernet devices the same way for every rule here.
"""
