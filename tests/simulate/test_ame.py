"""AME model: factor <-> true memory <-> CPU from amepat's modeled table (000 §3.2.2, numbers
of Example 3-2), and recommendations that contradict each other across runs (000 §3.2.9)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from lparscope.simulate.ame import AmeCurve, host_ame, oscillation
from lparscope.sources import amepat

REPORT = """Command Invoked : amepat -e 1.20:2.0:0.1 -O proc=P7 5
Total Samples Collected : 3
System Configuration:
---------------------
Partition Name : lpar7
True Memory : 8.00 GB
Active Memory Expansion : Enabled
Target Expanded Memory Size : 8.00 GB
Target Memory Expansion factor : 1.00
System Resource Statistics: Average Min Max
--------------------------- ----------- ----------- -----------
CPU Util (Phys. Processors) 1.41 [ 35%] 1.38 [ 35%] 1.46 [ 36%]
True Memory In-Use (MB) 5880 [ 72%] 5880 [ 72%] 5881 [ 72%]
Active Memory Expansion Modeled Statistics :
-------------------------------------------
Modeled Expanded Memory Size : 8.00 GB
Expansion Modeled True Modeled CPU Usage
Factor Memory Size Memory Gain Estimate
--------- ------------- ------------------ -----------
1.00 8.00 GB 0.00 KB [ 0%] 0.00 [ 0%] << CURRENT CONFIG
1.28 6.25 GB 1.75 GB [ 28%] 0.41 [ 10%]
1.40 5.75 GB 2.25 GB [ 39%] 1.16 [ 29%]
1.53 5.25 GB 2.75 GB [ 52%] 1.92 [ 48%]
1.78 4.50 GB 3.50 GB [ 78%] 3.02 [ 75%]
2.00 4.00 GB 4.00 GB [100%] 3.02 [ 75%]
Active Memory Expansion Recommendation:
---------------------------------------
The recommended AME configuration for this workload is to configure the LPAR
with a memory size of 6.25 GB and to configure a memory expansion factor
of 1.28. This will result in a memory gain of 28%.
"""


def report() -> object:
    (r,) = amepat.parse(REPORT).records
    return r


def test_factor_true_memory_and_cpu_follow_the_modeled_table() -> None:
    c = AmeCurve.of(report())
    assert c is not None and c.expanded_mb == 8192
    assert c.at_factor(1.28) == {"factor": 1.28, "true_memory_mb": 6400.0, "ame_cpu": 0.41, "modeled": True}
    mid = c.at_factor(1.34)  # half-way between 1.28 (0.41) and 1.40 (1.16)
    assert mid["ame_cpu"] == pytest.approx(0.785, abs=1e-3)
    assert c.at_true_memory(4096)["factor"] == 2.0 and c.at_true_memory(4096)["ame_cpu"] == 3.02
    assert c.at_factor(3.0)["ame_cpu"] is None and not c.at_factor(3.0)["modeled"]  # never extrapolated
    assert c.for_cpu(1.2)["factor"] == 1.4 and c.for_cpu(0.1)["factor"] == 1.0
    assert c.knee()["factor"] == 1.28  # most memory saved per AME core


def test_host_model_carries_the_recommendation() -> None:
    m = host_ame([report()])
    assert m is not None and m["recommended"]["factor"] == 1.28 and m["true_memory_in_use_mb"] == 5880
    assert m["across_runs"]["oscillating"] is False and "fewer than three" in m["across_runs"]["verdict"]


@pytest.mark.parametrize("factors, flag", [([8.00, 2.29, 8.00], True), ([1.78, 8.00], False),
                                            ([8.0, 2.29, 8.0, 1.6, 1.5], True), ([1.6, 1.5, 1.5], False)])
def test_contradicting_recommendations_mean_an_oversized_lpar(factors: list[float], flag: bool) -> None:
    o = oscillation(factors)
    assert o["oscillating"] is flag
    if flag:
        assert "oversized" in o["verdict"] and "3.2.9" in o["source"]


def test_runs_read_in_order_from_several_reports() -> None:
    runs = [SimpleNamespace(recommended_expansion_factor=f, modeled=[], resource_stats={}, true_memory_mb=8192)
            for f in (8.0, 2.29, 8.0)]
    m = host_ame(runs)
    assert m is not None and m["runs"] == 3 and m["across_runs"]["oscillating"]
