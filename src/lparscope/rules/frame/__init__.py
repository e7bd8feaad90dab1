"""Frame-wide rules over the HMC's view of a managed system (``estate.frames``, see
``model/frame.py``) joined with the partitions' own outputs: processor pools, memory and the
HPT, profiles, VIOS redundancy, SEA pairs, NIB, client <-> VIOS storage mappings.

These rules run only when HMC data (lssyscfg / lshwres / lslparutil / HMC Scanner) is in the
analysis. Where a host-level rule already reports the same partition from the host's own outputs,
the frame rule stays quiet on it and says so in its rationale.
"""
