"""The terminal summary of many hosts and frames: one top action for the same change on many hosts,
hosts and frames ordered by their findings (so what a cut leaves out has fewer), singular counts,
long frame labels shortened (whole in JSON), a frame's own findings counted under it."""

from __future__ import annotations

import json
from typing import Any

from lparscope.report.json_report import build_report  # noqa: F401  (the fixture's report is one)
from lparscope.report.triage import SEVERITIES, by_frame, natural_key, short_label, top_actions
from test_terminal import _large, render, report  # noqa: F401  (report: the example estate's, a fixture)

LONG = ("unnamed system (/collected/site-a/hmc/ziutus_9131-52A_lshwres_r_io_rsubtype_slot.txt"
        " and 9 more files)")


def _rank(counts: dict[str, int]) -> tuple[int, ...]:
    return tuple(-(counts.get(s) or 0) for s in SEVERITIES)


def test_the_same_action_on_many_hosts_is_one_entry(report: dict) -> None:
    big = _large(report, 125)
    acts = top_actions(big, 10)
    first = acts[0]
    assert first["severity"] == "critical" and first["rules"] == ["WPAR-KERNEL-QDEPTH-MISMATCH"]
    assert len(first["hosts"]) == 125 and first["hosts"][:3] == ["aix4-0", "aix4-1", "aix4-2"]
    shapes = [(tuple(a["rules"]), a["subject"], a["title"], a["change"]) for a in acts]
    assert len(shapes) == len(set(shapes)) == 10  # ten different actions, none repeated for another host
    lines = render(big)
    top = lines[lines.index("Top actions") + 1:lines.index("Hosts")]
    assert top[0].startswith(" 1. CRITICAL WPAR-KERNEL-QDEPTH-MISMATCH on 125 hosts (aix4-0, aix4-1, aix4-2, ")
    assert "... +119 more): hdisk3" in top[0]
    assert top[1].strip() == first["change"]
    # the command made the same by writing the host as <host>, else one host's, said so
    one = top_actions(report, 10)
    assert all(a["hosts"] == [a["host"]] for a in one)  # the example's actions are each on one host


def test_command_is_one_for_all_hosts_or_one_hosts_example() -> None:
    def finding(host: str, frame: str) -> dict[str, Any]:
        return {"rule_id": "CPU-X", "severity": "warning", "host": host, "subject": "partition", "title": "t",
                "values": {"current": "1", "suggested": "2"},
                "fix": {"hmc": [f"chhwres -m {frame} -r proc -o a -p {host} --procunits 1"]}}

    same_frame = top_actions({"findings": [finding("b2", "f1"), finding("b10", "f1")]})
    assert same_frame[0]["hosts"] == ["b2", "b10"]
    assert same_frame[0]["command"] == "chhwres -m f1 -r proc -o a -p <host> --procunits 1"
    assert same_frame[0]["command_host"] is None
    frames = top_actions({"findings": [finding("b2", "f1"), finding("b10", "f2")]})
    assert frames[0]["command"] == "chhwres -m f1 -r proc -o a -p b2 --procunits 1"
    assert frames[0]["command_host"] == "b2"
    lines = render({"findings": [finding("b2", "f1"), finding("b10", "f2")], "hosts": []})
    assert "      on b2: chhwres -m f1 -r proc -o a -p b2 --procunits 1" in lines


def test_hosts_table_lists_the_most_findings_first_and_the_cut_leaves_fewer(report: dict) -> None:
    big = _large(report, 125)
    lines = render(big)
    table = lines[lines.index("Hosts") + 2:]
    rows = [x.split()[0] for x in table[:table.index(next(x for x in table if "more hosts" in x))]]
    assert len(rows) == 25
    counts = {h["name"]: h.get("counts") or {} for h in big["hosts"]}
    ranks = [_rank(counts[n]) for n in rows]
    assert ranks == sorted(ranks)
    hidden = [_rank(c) for n, c in counts.items() if n not in rows]
    assert min(hidden) >= ranks[-1]  # no host left out has more severe findings than one shown
    assert rows[0].startswith("aix4-")  # the hosts with a critical finding lead
    # a small estate's table is in the same order
    small = render(report)
    names = [x.split()[0] for x in small[small.index("Hosts") + 2:small.index("Hosts") + 2 + len(report["hosts"])]]
    assert [_rank(counts.get(f"{n}-0") or {}) for n in names] == sorted(_rank(counts.get(f"{n}-0") or {}) for n in names)


def test_counts_of_one_are_singular(report: dict) -> None:
    lines = render(report, hosts=["aix1"])
    summary = next(x for x in lines if x.startswith("findings: "))
    assert "(1 host, partition or frame concerned)" in summary
    many = next(x for x in render(report) if x.startswith("findings: "))
    assert "hosts, partitions or frames concerned)" in many


def _frames_report(report: dict, frames: int) -> dict:
    """The example with its one frame renamed to a long label and ``frames`` empty frames besides."""
    big = json.loads(json.dumps(report))
    old = big["frames"][0]["name"]
    big["frames"][0]["name"] = LONG
    for f in big["findings"]:
        if f["host"] == old:
            f["host"] = LONG
    big["frames"] += [{"name": f"empty{n:02d}", "partitions": []} for n in range(frames)]
    return big


def test_long_frame_labels_are_shortened_in_the_terminal_only(report: dict) -> None:
    big = _frames_report(report, 0)
    big["findings"] = big["findings"] * 3  # enough lines for the roll-up
    lines = render(big)
    assert not any(LONG in x for x in lines)
    label = short_label(LONG)
    assert len(label) <= 50 and label.startswith("unnamed system (ziutus") and label.endswith("9 more files)")
    assert any(x.startswith("  aix1 ") and short_label(LONG) in x for x in lines)  # the Hosts table
    rows = lines[lines.index("Findings by frame") + 1:]
    assert rows[1].startswith(f"  {label}  ")
    assert max(len(x) for x in lines[lines.index("Hosts"):lines.index("Hosts") + 10]) < 150
    assert big["frames"][0]["name"] == LONG  # the report (JSON, HTML, XLSX) keeps it whole


def test_findings_by_frame_counts_the_frames_own_and_lists_most_findings_first(report: dict) -> None:
    big = _frames_report(report, 30)
    rows = by_frame(big, big["findings"])
    assert rows[0]["frame"] == LONG and rows[0]["critical"] == 1
    own = sum(f["host"] == LONG for f in big["findings"])
    assert own >= 1  # FRAME-HPT-TOTAL is reported on the frame's name
    joined = {p.get("host") or p.get("name") for p in big["frames"][0].get("partitions") or []}
    assert sum(rows[0][s] for s in SEVERITIES) == own + sum(f["host"] in joined for f in big["findings"])
    nowhere = next(r for r in rows if r["frame"] == "(no frame data)")
    assert sum(nowhere[s] for s in SEVERITIES) == sum(
        f["host"] not in joined and f["host"] != LONG for f in big["findings"])
    ranks = [(_rank(r), r["frame"] == "(no frame data)", natural_key(r["frame"])) for r in rows]
    assert ranks == sorted(ranks)
    big["findings"] = big["findings"] * 3
    lines = render(big)
    table = lines[lines.index("Findings by frame") + 2:]
    assert table[0].startswith("  " + short_label(LONG))
    assert any("... 12 more frames with fewer or less severe findings (12 with none)" in x for x in table)


def test_html_top_actions_name_the_hosts_of_a_shared_action(report: dict) -> None:
    from lparscope.report.html import render_html

    page = render_html(_large(report, 20))
    top = page.split('<ol class="actions">', 1)[1].split("</ol>", 1)[0]
    assert "<strong>20 hosts</strong> (aix4-0, aix4-1, aix4-2," in top and "… +8 more)" in top
    assert top.count("<li>") == 10
