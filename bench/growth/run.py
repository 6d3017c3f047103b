"""The growth bench: how the cost of player-facing pages and tasks grows with the site's history.

    .venv/bin/python bench/growth/run.py [--sizes 10000 100000] [--keep] [--fresh] [--no-rebuild]
    .venv/bin/python bench/growth/run.py --quick     # sizes 500 and 2000: a check, a few minutes

For each size, smallest first: seed the database up to that many finished games
(bench/growth/seed.py, which only adds), then measure (bench/growth/measure.py), each in a process
of its own; then print a markdown table of every figure at each size and the ratio of the
largest to the smallest, marking ratios of 1.3 or more (the target is under 1.3 for all).

The database is DATABASE_URL if set, else `harmonies_growth` (`harmonies_growth_quick` with
--quick); env.py refuses any name without "growth", so the site's `harmonies` and the `test_*`
databases are never touched. Redis database 14 is this bench's. A database that already holds
more finished games than the first size is dropped first (seeding only adds), as is any with
--fresh; at the end it is dropped unless --keep (a failed step leaves it). Results go to
/tmp/harmonies_growth/ (GROWTH_OUT).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.growth import env

HERE = Path(__file__).resolve().parent
TARGET = 1.3


def label(size: int) -> str:
    return f"{size // 1000}k" if size >= 1000 and size % 1000 == 0 else str(size)


def finished_games(url: str) -> int:
    """Finished games in the database, 0 when it or its tables do not exist yet."""
    import psycopg

    try:
        with psycopg.connect(url, connect_timeout=5) as conn:
            row = conn.execute(
                "SELECT count(*) FROM games_game WHERE status = 'finished'"
            ).fetchone()
            return row[0]
    except psycopg.Error:
        return 0


def git_head() -> str:
    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=env.ROOT, capture_output=True, text=True, check=False
        ).stdout.strip()

    dirty = git("status", "--porcelain", "--", ".", ":!bench/growth")
    return git("rev-parse", "--short", "HEAD") + (" (with uncommitted changes)" if dirty else "")


def step(*args: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=env.ROOT, check=True)
    return time.perf_counter() - started


def cell(row: dict | None) -> str:
    """ "wall ms / CPU ms (queries)"."""
    if row is None:
        return "-"
    cpu = f"{row['cpu_ms']:,.1f}" if row.get("cpu_ms") is not None else "-"
    return f"{row['ms']:,.1f} / {cpu} ({row['queries']:,})"


def ratio_cell(first: dict | None, last: dict | None, key: str) -> str:
    if first is None or last is None or not first.get(key) or last.get(key) is None:
        return "-"
    ratio = last[key] / first[key]
    return f"**{ratio:.2f} ✗**" if ratio >= TARGET else f"{ratio:.2f}"


def queries_cell(first: dict | None, last: dict | None) -> str:
    if first is None or last is None or not first["queries"]:
        return "-"
    if first["queries"] == last["queries"]:
        return "="
    return f"x{last['queries'] / first['queries']:.2f}"


def report(sizes: list[int], measured: dict[int, dict], seeded: dict[int, dict], head: str) -> str:
    names = list(dict.fromkeys(name for size in sizes for name in measured[size]))
    first, last = sizes[0], sizes[-1]
    columns = [label(s) for s in sizes]
    lines = [
        f"Growth bench, code at {head}, {time.strftime('%Y-%m-%d %H:%M %Z')}",
        "",
        "| size | games added | seeding s | copying s | copy rate | all of the seed |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for size in sizes:
        s = seeded[size]
        copy = s["copy"]
        seconds = copy["seconds"]
        rate = "-"
        if seconds:
            rate = f"{copy['games'] / seconds:,.0f} games/s, {copy['moves'] / seconds:,.0f} moves/s"
        lines.append(
            f"| {label(size)} | {s['added']:,} | {s['wall']:.0f} | {copy['seconds']:.0f} | {rate}"
            f" | {s['total']:,} games, {s['moves']:,} moves |"
        )
    ratio = f"{label(last)}/{label(first)}"
    lines += [
        "",
        "Each size: wall ms / CPU ms (this process and its PostgreSQL backend) (queries), medians.",
        "",
        f"| what | {' | '.join(columns)} | wall ratio {ratio} | CPU ratio | queries |",
        "| --- |" + " --- |" * (len(sizes) + 3),
    ]
    over = 0
    for name in names:
        rows = [measured[s].get(name) for s in sizes]
        wall = ratio_cell(rows[0], rows[-1], "ms")
        cpu = ratio_cell(rows[0], rows[-1], "cpu_ms")
        over += "✗" in wall or "✗" in cpu
        cells = " | ".join(cell(r) for r in rows)
        lines.append(f"| {name} | {cells} | {wall} | {cpu} | {queries_cell(rows[0], rows[-1])} |")
    lines += [
        "",
        f"{over} of {len(names)} figures grew by {TARGET}x or more in wall or CPU time (✗)."
        if over
        else f"Every figure grew by less than {TARGET}x.",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--quick", action="store_true", help="sizes 500 and 2000")
    parser.add_argument("--keep", action="store_true", help="keep the database at the end")
    parser.add_argument("--fresh", action="store_true", help="drop the database first")
    parser.add_argument("--no-rebuild", action="store_true", help="do not time rebuild()")
    args = parser.parse_args()
    sizes = sorted([500, 2000] if args.quick else args.sizes)
    if args.quick:
        os.environ.setdefault("DATABASE_URL", env.QUICK_DATABASE_URL)
    env.apply()  # into os.environ: seed.py and measure.py inherit it
    url = os.environ["DATABASE_URL"]
    out = env.OUT / ("quick" if args.quick else "full")
    out.mkdir(parents=True, exist_ok=True)
    head = git_head()
    started = time.perf_counter()
    print(f"Growth bench on {env.database_name(url)}, sizes {sizes}, code at {head}", flush=True)
    if args.fresh or finished_games(url) > sizes[0]:
        print(f"Dropping {env.database_name(url)} (it holds more games than {sizes[0]})")
        env.drop_database(url)

    measured: dict[int, dict] = {}
    seeded: dict[int, dict] = {}
    for size in sizes:
        print(f"\n=== {label(size)}: seeding ===", flush=True)
        summary = out / f"seed-{size}.json"
        wall = step(str(HERE / "seed.py"), "--total", str(size), "--summary", str(summary))
        seeded[size] = {**json.loads(summary.read_text()), "wall": wall}
        print(f"\n=== {label(size)}: measuring ===", flush=True)
        result = out / f"measure-{size}.json"
        extra = ["--no-rebuild"] if args.no_rebuild else []
        step(str(HERE / "measure.py"), "--out", str(result), *extra)
        measured[size] = json.loads(result.read_text())
    # (A failed step raised above: the database stays, for a look or to resume from.)
    if not args.keep:
        env.drop_database(url)
        print(f"Dropped {env.database_name(url)} (--keep keeps it)")
    text = report(sizes, measured, seeded, head)
    (out / "report.md").write_text(text + "\n")
    print(f"\n{text}\n\n(all in {time.perf_counter() - started:.0f} s; written to {out})")


if __name__ == "__main__":
    main()
