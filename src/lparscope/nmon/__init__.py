"""nmon / topas_nmon recordings: a fast, tolerant reader into typed tables, and their export.

    >>> from lparscope.nmon import read_nmon
    >>> rec = read_nmon("aixlpar_160210_1723.nmon.gz", tz="Europe/Paris")
    >>> rec.tables["LPAR"].column("PhysicalCPU")      # float64, one value per snapshot
    >>> rec.bbbp_outputs[0]                             # ("lparstat -i", 314, "Node Name ...")
"""

from .export import export
from .model import NmonRecording, NmonTable
from .reader import is_njmon, is_nmon, read_nmon
from .state import ReadStopped, ReadTooLong, TooManySections

__all__ = ["NmonRecording", "NmonTable", "ReadStopped", "ReadTooLong", "TooManySections", "export", "is_njmon", "is_nmon",
           "read_nmon"]
