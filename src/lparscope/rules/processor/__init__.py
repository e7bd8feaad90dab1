"""Processor rules for one partition: entitled capacity and virtual processors, sharing mode
and weight, limits, SMT, folding (000 §3.1).
"""
