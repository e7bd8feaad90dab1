"""store diff on two collections of the example estate (one planted change), forecast, exports."""

from __future__ import annotations

import json
import math
from pathlib import Path

import duckdb
from typer.testing import CliRunner

from lparscope.cli import app
from lparscope.store.forecast import linear_forecast, t975

runner = CliRunner()


def _diff(store: Path, *args: str) -> dict:
    result = runner.invoke(app, ["store", "diff", *args, "--store", str(store), "--json", "-"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_planted_change_is_the_only_configuration_change(two_collections: Path) -> None:
    out = _diff(two_collections)
    assert len(out["collections"]) == 2
    assert out["config_changes"] == [{
        "scope": "host", "name": "aix1", "attribute": "summary.virtual_processors", "old": "12", "new": "4",
        "seen": "2026-12-01 10:00:00", "collection": out["collections"][1]["collection"]}]


def test_findings_opened_and_closed(two_collections: Path) -> None:
    out = _diff(two_collections, "aix1")
    changes = {(c["change"], c["rule_id"]) for c in out["findings"]}
    # 4 VPs on 0.5 EC is within the range the entitlement allows: that finding closes.
    assert ("closed", "CPU-VP-EC-LIMITS") in changes
    assert all(c["host"] == "aix1" for c in out["findings"])
    assert _diff(two_collections, "aix2")["findings"] == []  # nothing changed there


def test_target_and_since_filter(two_collections: Path) -> None:
    assert _diff(two_collections, "vios1")["config_changes"] == []
    assert len(_diff(two_collections, "p9frame1")["config_changes"]) == 1  # aix1 is on that frame
    assert _diff(two_collections, "--since", "2026-12-02")["config_changes"] == []
    assert len(_diff(two_collections, "--since", "2026-12-01")["config_changes"]) == 1


def test_trends_from_the_series(two_collections: Path) -> None:
    out = _diff(two_collections)
    (day,) = out["partition_trends"]  # one day of aix5, stored once although ingested twice
    assert (day["host"], day["date"], day["samples"]) == ("aix5", "2026-11-02", 288)
    con = duckdb.connect()
    series = next(two_collections.parent.rglob("*.parquet"))
    p95, peak = con.execute(f"SELECT quantile_cont(physc, 0.95), max(physc) FROM '{series}'").fetchone()
    assert math.isclose(day["p95"], round(p95, 4)) and math.isclose(day["peak"], round(peak, 4))
    (pool,) = out["pool_trends"]
    assert (pool["frame"], pool["pool"]) == ("p9frame1", 0)
    assert out["pool_forecasts"][0]["forecast"] is None  # one day: no forecast


def test_linear_forecast_interval() -> None:
    days = [float(d) for d in range(10)]
    exact = linear_forecast(days, [2.0 + 0.1 * d for d in days], horizon=30)
    assert exact is not None
    assert math.isclose(exact.slope_per_day, 0.1) and math.isclose(exact.predicted_peak, 2.0 + 0.1 * 39)
    assert math.isclose(exact.low, exact.high)  # a perfect line has no spread
    noisy = linear_forecast(days, [2.0 + 0.1 * d + (0.3 if d % 2 else -0.3) for d in days], horizon=30)
    assert noisy is not None and noisy.low < noisy.predicted_peak < noisy.high
    assert noisy.high - noisy.low > 2 * 1.96 * noisy.residual_sd  # widens beyond the data
    assert linear_forecast([0.0, 1.0], [1.0, 2.0]) is None
    assert t975(10) == 2.228 and abs(t975(1000) - 1.962) < 0.001


def test_openmetrics_export(two_collections: Path) -> None:
    result = runner.invoke(app, ["store", "export", "--format", "openmetrics", "--store", str(two_collections)])
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.endswith("# EOF\n")
    assert 'lparscope_finding_active{host="aix1",rule_id="CPU-VP-EC-LIMITS"' not in text  # closed now
    assert 'lparscope_sizing_recommended_ec_cores{host="aix5"}' in text
    for line in text.splitlines():
        if not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            float(value)
            assert name.startswith("lparscope_")


def test_openmetrics_escapes_labels() -> None:
    from lparscope.store.export import _labels

    assert _labels(host='a"b\\c\nd') == '{host="a\\"b\\\\c\\nd"}'


def test_table_exports(two_collections: Path, tmp_path: Path) -> None:
    for fmt in ("csv", "parquet"):
        out = tmp_path / f"findings.{fmt}"
        r = runner.invoke(app, ["store", "export", "--format", fmt, "--table", "findings", "-o", str(out),
                                "--store", str(two_collections)])
        assert r.exit_code == 0, r.output
        reader = "read_csv_auto" if fmt == "csv" else "read_parquet"
        n = duckdb.connect().execute(f"SELECT count(*) FROM {reader}('{out}')").fetchone()[0]
        stored = duckdb.connect(str(two_collections), read_only=True)
        assert n == stored.execute("SELECT count(*) FROM findings").fetchone()[0] > 0
        stored.close()
    r = runner.invoke(app, ["store", "export", "--format", "csv", "--table", "nope", "-o", str(tmp_path / "x"),
                            "--store", str(two_collections)])
    assert r.exit_code == 2 and "unknown table" in r.output


def test_missing_store_is_a_clear_error(tmp_path: Path) -> None:
    r = runner.invoke(app, ["store", "diff", "--store", str(tmp_path / "none.duckdb")])
    assert r.exit_code == 2 and "no store here yet" in r.output
