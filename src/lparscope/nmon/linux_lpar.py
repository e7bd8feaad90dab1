"""The LPAR section of nmon for Linux on Power, given the column names of AIX's.

nmon for Linux on a shared-processor PowerVM partition writes its own LPAR section, from
``/proc/ppc64/lparcfg``::

    LPAR,Shared CPU LPAR Stats lnx01,PhysicalCPU,capped,shared_processor_mode,system_potential_processors,
         system_active_processors,pool_capacity,MinEntCap,partition_entitled_capacity,
         partition_max_entitled_capacity,MinProcs,Logical CPU,partition_active_processors,
         partition_potential_processors,capacity_weight,unallocated_capacity_weight,BoundThrds,MinMem,
         unallocated_capacity,pool_idle_time,smt_mode
    LPAR,T0001,0.412345,0,1,20,20,2000,0.10,0.50,4.00,1,32,4,8,128,0,0,4096,0,17.52,8

Sizing, the rules, the charts and the store read an LPAR section by AIX's names (``entitled``,
``virtualCPUs``, ``logicalCPUs``, ``poolCPUs``, ``Capped``, ``SharedCPU``, ``weight``, as the
njmon reader gives them too). :func:`add_aix_names` adds those columns, computed from the
Linux ones, after the ones read (which stay, as read, for the export):

- the entitlement is already in processors (nmon divides lparcfg's hundredths by 100);
- ``pool_capacity`` is lparcfg's value, in hundredths of a processor (the kernel's lparcfg
  prints the pool's active processors times 100): ``poolCPUs`` is it divided by 100;
- nmon writes the section only for a shared-processor partition: ``SharedCPU`` is 1.
"""

from __future__ import annotations

import numpy as np

from .model import NmonRecording

# AIX name -> (Linux name, divisor)
_AIX_NAMES = {
    "entitled": ("partition_entitled_capacity", 1.0),
    "virtualCPUs": ("partition_active_processors", 1.0),
    "logicalCPUs": ("Logical CPU", 1.0),
    "poolCPUs": ("pool_capacity", 100.0),
    "Capped": ("capped", 1.0),
    "weight": ("capacity_weight", 1.0),
}


def add_aix_names(rec: NmonRecording) -> None:
    """Give a Linux LPAR section (one with ``partition_entitled_capacity``) AIX's column names."""
    lpar = rec.tables.get("LPAR")
    if lpar is None or "partition_entitled_capacity" not in lpar.columns or "entitled" in lpar.columns:
        return
    names, columns = [], []
    for aix, (linux, divisor) in _AIX_NAMES.items():
        if linux in lpar.columns and aix not in lpar.columns:
            names.append(aix)
            columns.append(lpar.values[:, lpar.columns.index(linux)] / divisor)
    if "SharedCPU" not in lpar.columns:
        names.append("SharedCPU")
        columns.append(np.ones(len(lpar)))
    lpar.values = np.asfortranarray(np.column_stack([lpar.values, *columns]))
    lpar.columns = [*lpar.columns, *names]
