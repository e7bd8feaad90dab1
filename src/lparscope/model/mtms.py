"""The frame a host runs on, named the way the HMC accepts it without its name: ``tttt-mmm*sssssss``.

Every HMC command's ``-m`` takes the managed system's user-defined name or its machine type, model
and serial in the form ``tttt-mmm*ssssssss`` (HMC Manual Reference Pages, CHHWRES(1) and
CHSYSCFG(1), option ``-m``; the form is required when two managed systems share a name). A host's
own outputs never say the frame's HMC name, but they often say its type-model and serial: prtconf
(``System Model: IBM,9009-42A``, ``Machine Serial Number``), ``lsattr -El sys0`` (``modelname``,
``systemid``), an nmon header (``AAA,MachineType,IBM,9009-42A``, ``AAA,SerialNumber``), a
virtual adapter's location code (``U9009.42A.7812C4X-V3-C11``). With both, a fix names the frame
so instead of the ``<managed-system>`` placeholder. The ``*`` is quoted in command texts
(:func:`lparscope.model.change.hmc_word`): a shell would take it for a pattern.
"""

from __future__ import annotations

import re

from .estate import Estate, Host
from .frame_join import _serial_tail, host_facts, same_serial

_TYPE_MODEL = re.compile(r"(?:IBM[,\s]+)?(?P<type>[0-9A-Z]{4})-(?P<model>[0-9A-Z]{3})$", re.I)
_LOCATION = re.compile(r"^U(?P<type>[0-9A-Z]{4})\.(?P<model>[0-9A-Z]{3})\.", re.I)


def host_type_model(h: Host) -> str | None:
    """The frame's machine type and model (``9009-42A``) as the host's own outputs say it."""
    said = []
    if h.system is not None:
        said.append(getattr(h.system.record, "model", None))
    sys0 = h.devices.get("sys0")
    if sys0 is not None:
        said.append(sys0.attr("modelname"))
    said.append((getattr(h.nmon, "header", None) or {}).get("MachineType"))
    for text in said:
        m = _TYPE_MODEL.match((text or "").strip())
        if m:
            return f"{m.group('type')}-{m.group('model')}".upper()
    for mapping in [*h.vscsi_mappings, *h.npiv_mappings, *h.net_mappings]:
        m = _LOCATION.match(getattr(mapping, "physloc", None) or "")
        if m:
            return f"{m.group('type')}-{m.group('model')}".upper()
    return None


def host_mtms(h: Host | None) -> str | None:
    """``9009-42A*7812C4X``: the frame of ``h`` as HMC commands may name it, when its outputs say
    both its type-model and its serial (the serial's last 7 characters: sys0's systemid carries a
    plant code in front); else None."""
    if h is None:
        return None
    type_model = host_type_model(h)
    serial = host_facts(h).serial
    if not type_model or not serial:
        return None
    return f"{type_model}*{_serial_tail(serial)}"


def frame_of_host(estate: Estate, h: Host | None) -> str | None:
    """How HMC commands name the frame of a host its HMC data does not list: the named frame of
    the data with the host's frame serial, else its type-model and serial (:func:`host_mtms`)."""
    if h is None:
        return None
    serial = host_facts(h).serial
    if serial:
        for fr in estate.frames.values():
            if getattr(fr, "named", False) and same_serial(getattr(fr, "serial", None), serial):
                return str(fr.name)
    return host_mtms(h)
