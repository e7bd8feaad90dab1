"""Active Memory Expansion rules (000 §3.2): the expanded-memory deficit, the amepat report's
advice, workloads that compress badly, the AME tunables.
"""
