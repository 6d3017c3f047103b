"""The load bench's table: each scenario against its targets, CPU as a multiple of the floor.

Used by bench/load/run.py; no Django, no HTTP. A target is a dict with any of: "ratio" (server CPU
per request at most this many times the floor's, measured in the same seconds), "p95" and "p99"
(milliseconds, at the scenario's clients), "bytes" (per answer on the wire, compressed), and
"queries" (per request, at most).
"""

from __future__ import annotations

LIMITS = (  # key in a target, key in a result, how the target reads, unit in a miss
    ("ratio", "ratio", "≤ {:.1f}x floor", "x"),
    ("p95", "p95", "p95 ≤ {} ms", " ms"),
    ("p99", "p99", "p99 ≤ {} ms", " ms"),
    ("bytes", "bytes", "≤ {:,} B", " B"),
    ("queries", "queries", "{} queries", ""),
)


def describe(targets: dict) -> str:
    parts = [text.format(targets[key]) for key, _, text, _ in LIMITS if key in targets]
    return ", ".join(parts) or "(the reference)"


def misses(result: dict, targets: dict) -> list[str]:
    """What the result missed, in words; empty when every target is met."""
    missed = []
    for key, field, _, unit in LIMITS:
        if key in targets and result[field] > targets[key]:
            small = key in ("ratio", "queries")
            value = f"{result[field]:.2f}" if small else f"{result[field]:,.0f}"
            missed.append(f"{key} {value}{unit}")
    if result["failures"]:
        missed.append(f"{result['failures']} failed")
    if not result["requests"]:
        missed.append("no requests")
    return missed


HEADER = ("scenario", "clients", "requests", "req/s", "p50 ms", "p95 ms", "p99 ms",
          "CPU ms/req (median)", "floor ms", "x floor", "queries/req", "bytes/req (gzip)", "target",
          "met")  # fmt: skip


def row(r: dict) -> tuple[str, ...]:
    verdict = "✓" if not r["missed"] else "✗ " + ", ".join(r["missed"])
    cpu = f"{r['cpu_ms']:.2f} ({r['cpu_median_ms']:.2f})"
    return (r["scenario"], str(r["clients"]), f"{r['requests']:,}", f"{r['rps']:.0f}",
            f"{r['p50']:.0f}", f"{r['p95']:.0f}", f"{r['p99']:.0f}", cpu,
            f"{r['floor_ms']:.2f}", f"{r['ratio']:.2f}x", f"{r['queries']:.2f}",
            f"{r['bytes']:,.0f}", describe(r["targets"]), verdict)  # fmt: skip


def table(results: list[dict]) -> str:
    """A Markdown table (it reads as plain text too), one row per scenario."""
    lines = [" | ".join(HEADER), " | ".join("---" for _ in HEADER)]
    lines += [" | ".join(row(r)) for r in results]
    return "\n".join(lines)


def cores(results: list[dict], cpu_count: int) -> str:
    """Where the machine's CPU went during each scenario, in cores (CPU seconds per second)."""
    lines = [f"Where the {cpu_count} cores went (CPU seconds per second of each run):"]
    for r in results:
        shares = ", ".join(f"{who} {used:.2f}" for who, used in r["cores"].items())
        lines.append(f"  {r['scenario']}: {shares}")
    return "\n".join(lines)


def per_core(results: list[dict]) -> str:
    """Requests per second one core serves at each scenario's cost, for the capacity model."""
    lines = ["Per core at these costs (gunicorn workers' CPU, whole processes; PostgreSQL's own):"]
    for r in results:
        if r["process_ms"]:
            lines.append(
                f"  {r['scenario']}: {1000 / r['process_ms']:.0f}/s per web core "
                f"({r['process_ms']:.2f} ms/req, {r['metered_share']:.0%} of it inside requests), "
                f"PostgreSQL {r['pg_ms']:.2f} ms/req"
            )
    return "\n".join(lines)
