#!/usr/bin/env python3
"""Compares two merged sweep tables (CSV) as issue 21's Slurm test needs: the same columns, the
same cells (rows matched by their cell id, whatever order the shards came back in) and equal
values: numbers compared as numbers (so 1e3 == 1000.0), everything else as text.

usage: compare_merged.py EXPECTED.csv ACTUAL.csv

Exit 0 when they match, 1 with the first differences listed otherwise.
"""
import csv
import sys

# The column naming a cell, first match wins; without one, whole rows are compared sorted.
ID_COLUMNS = ("cell", "cell_id", "id", "index")


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        sys.exit(f"FAIL: {path} is empty (not even a header)")
    return rows[0], rows[1:]


def same_value(a, b):
    if a == b:
        return True
    try:
        return float(a) == float(b)
    except ValueError:
        return False


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    expected_path, actual_path = sys.argv[1:]
    header_e, rows_e = load(expected_path)
    header_a, rows_a = load(actual_path)
    if header_e != header_a:
        print(f"FAIL: the columns differ\n  {expected_path}: {header_e}\n  {actual_path}: {header_a}")
        return 1
    if not rows_e:
        print(f"FAIL: {expected_path} has no cells")
        return 1
    if "ok" in header_e:  # a comparison of failed cells would prove nothing
        ok = header_e.index("ok")
        failed = [r[0] for r in rows_e if r[ok] != "true"]
        if failed:
            print(f"FAIL: {len(failed)} cell(s) failed in {expected_path}: {failed[:5]}")
            return 1
    id_col = next((header_e.index(c) for c in ID_COLUMNS if c in header_e), None)
    if id_col is None:
        key = lambda r: r
    else:
        key = lambda r: (int(r[id_col]) if r[id_col].lstrip("-").isdigit() else 0, r[id_col])
    rows_e.sort(key=key)
    rows_a.sort(key=key)
    problems = []
    if len(rows_e) != len(rows_a):
        problems.append(f"{len(rows_e)} cells in {expected_path}, {len(rows_a)} in {actual_path}")
    for re_, ra in zip(rows_e, rows_a):
        if len(re_) != len(ra):
            problems.append(f"row lengths differ: {re_} vs {ra}")
            continue
        for name, a, b in zip(header_e, re_, ra):
            if not same_value(a, b):
                cell = re_[id_col] if id_col is not None else "?"
                problems.append(f"cell {cell}, column {name}: {a!r} (local) vs {b!r} (Slurm)")
    if problems:
        print(f"FAIL: {len(problems)} difference(s) between {expected_path} and {actual_path}:")
        for p in problems[:20]:
            print("  " + p)
        return 1
    print(f"OK: {len(rows_e)} cells, {len(header_e)} columns equal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
