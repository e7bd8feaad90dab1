"""WPAR rules (000 §3.9.2): adapters a WPAR cannot take, SDDPCM with Versioned WPARs, NFS where
NameFS would do, kernel queue depth seen from inside a WPAR.
"""
