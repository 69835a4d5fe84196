#!/usr/bin/env python3
"""The test suite, its classes spread over worker processes: `make test` runs it.

XCTest on Linux runs one class after another in one process. Most of the suite's time is spent
waiting on other processes (mitmdump, tcpdump, the recorder, openssl), so classes run in
several processes of the test bundle at once, each given a list of classes, the slowest first
(by the times the last run wrote to .build/test-times.json, else scripts/test-times.json). Test
classes share nothing: each makes its own temporary directories, namespaces and ports. A class
named `...ScaleTests` compares how time grows with the input: it runs alone, after the others,
so that what it measures is its own process.

It prints each worker's failures whole, then one line per class that failed, the count of tests,
the suite's wall time and its ten slowest tests; it exits non-zero when any test failed or a
worker ended without XCTest's summary (a crash).

  scripts/test.py [--workers N] [--filter REGEX] [BUNDLE]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

CASE = re.compile(
    r"^Test Case '(?P<cls>[\w.]+)\.(?P<name>\w+)' (?P<result>passed|failed|skipped) "
    r"\((?P<seconds>[\d.]+) seconds\)")
EXECUTED = re.compile(r"Executed (\d+) tests?, with (\d+) failures? .* in ([\d.]+)")


def bundle_path(given):
    if given:
        return given
    out = subprocess.run(["swift", "build", "--show-bin-path"], capture_output=True, text=True,
                         check=True).stdout.strip()
    return os.path.join(out, "TunnelVisionEvidencePackageTests.xctest")


def list_tests(bundle):
    listed = subprocess.run([bundle, "--list-tests"], capture_output=True, text=True, check=True)
    tests = []
    for line in listed.stdout.splitlines():
        line = line.strip()
        if "/" in line and "." in line.split("/")[0]:
            tests.append(line)
    return tests


def units(tests, weights, workers):
    """What is handed out: whole classes, but a class that alone would take more than a share of
    a worker's time is handed out test by test (its class set-up then runs in each worker that
    gets one of its tests). Each unit with its weight, the seconds it took last time."""
    by_class = {}
    for test in tests:
        by_class.setdefault(test.split("/")[0], []).append(test)
    def seconds(test):
        bare = test.split(".", 1)[-1]
        return weights.get(bare, 0.2)
    total = sum(seconds(t) for t in tests)
    share = total / max(1, workers) / 3
    result = []
    for cls, members in sorted(by_class.items()):
        weight = sum(seconds(t) for t in members)
        if weight > share and len(members) > 1:
            result.extend((t, seconds(t)) for t in members)
        else:
            result.append((cls, weight))
    return result


def spread(units, workers):
    """Longest first onto the least loaded worker: close to the best split."""
    loads = [[0.0, []] for _ in range(workers)]
    for name, weight in sorted(units, key=lambda u: (-u[1], u[0])):
        target = min(loads, key=lambda load: load[0])
        target[0] += weight
        target[1].append(name)
    return [names for _, names in loads if names]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=int(os.environ.get("TEST_WORKERS", "6")))
    parser.add_argument("--filter", default=os.environ.get("TEST_FILTER", ""),
                        help="only the tests whose Module.Class/method matches")
    parser.add_argument("bundle", nargs="?")
    args = parser.parse_args()

    started = time.monotonic()
    bundle = bundle_path(args.bundle)
    tests = list_tests(bundle)
    if args.filter:
        tests = [t for t in tests if re.search(args.filter, t)]
    if not tests:
        sys.exit("no test matches")
    times_file = os.path.join(os.path.dirname(bundle), "..", "test-times.json")
    weights = {}
    # The last run's times here; on a fresh clone, the ones committed beside this script (a
    # split by name alone left one worker with the slow classes: 102 s against 77-80 s).
    for source in (times_file, os.path.join(os.path.dirname(__file__), "test-times.json")):
        try:
            with open(source) as f:
                weights = json.load(f)
            break
        except (OSError, ValueError):
            continue
    alone = [t for t in tests if t.split("/")[0].endswith("ScaleTests")]
    tests = [t for t in tests if t not in alone]
    workers = max(1, args.workers)
    handed = units(tests, weights, workers)
    if args.filter:
        # A filter names tests, not classes: each runs as named.
        handed = [(t, weight) for t in tests for weight in [weights.get(t.split(".", 1)[-1], 0.2)]]
    groups = spread(handed, workers) if handed else []

    logs = []
    processes = []

    def start(index, names):
        log = tempfile.NamedTemporaryFile(prefix=f"tests-{index}-", suffix=".log", delete=False)
        logs.append(log.name)
        processes.append(subprocess.Popen([bundle, ",".join(names)], stdout=log,
                                          stderr=subprocess.STDOUT))
        return processes[-1]

    for index, names in enumerate(groups):
        start(index, names)
    for process in processes:
        process.wait()
    if alone:
        groups.append(alone)
        start(len(groups) - 1, alone).wait()
    tests += alone

    cases = []
    executed = failures = 0
    broken = []
    for index, (path, process) in enumerate(zip(logs, processes)):
        with open(path, errors="replace") as f:
            text = f.read()
        summaries = EXECUTED.findall(text)
        worker_cases = [m.groupdict() for m in map(CASE.match, text.splitlines()) if m]
        cases.extend(worker_cases)
        if summaries:
            # The last summary is the worker's whole selection.
            executed += int(summaries[-1][0])
            failures += int(summaries[-1][1])
        if process.returncode != 0 or not summaries:
            sys.stdout.write(f"\n--- worker {index + 1} (exit {process.returncode}) ---\n")
            sys.stdout.write("\n".join(
                line for line in text.splitlines()
                if not line.startswith("Test Case '") or "failed" in line or "error" in line))
            sys.stdout.write("\n")
            if not summaries:
                broken.append(index + 1)
        os.unlink(path)

    by_class = {}
    for case in cases:
        by_class[case["cls"]] = by_class.get(case["cls"], 0.0) + float(case["seconds"])
    if not args.filter:
        # Each test's seconds, by "Class/test" (XCTest's log names a class without its module).
        measured = {f"{c['cls']}/{c['name']}": float(c["seconds"]) for c in cases}
        try:
            with open(times_file, "w") as f:
                json.dump(dict(sorted(measured.items())), f, indent=1)
        except OSError:
            pass
    failed_classes = sorted({c["cls"] for c in cases if c["result"] == "failed"})
    skipped = sum(1 for c in cases if c["result"] == "skipped")
    wall = time.monotonic() - started
    slowest = sorted(cases, key=lambda c: -float(c["seconds"]))[:10]
    print(f"\n{executed} tests in {len(groups)} workers, {failures} failed, {skipped} skipped; "
          f"{wall:.1f} s (the tests' own time {sum(by_class.values()):.1f} s)")
    print("The slowest ten:")
    for case in slowest:
        print(f"  {float(case['seconds']):6.2f} s  {case['cls'].split('.')[-1]}.{case['name']}")
    for cls in failed_classes:
        print(f"FAILED: {cls}")
    for worker in broken:
        print(f"FAILED: worker {worker} ended without XCTest's summary (a crash)")
    missing = len(tests) - len(cases)
    if missing > 0 and not broken:
        print(f"FAILED: {missing} tests did not report")
    sys.exit(1 if failures or broken or failed_classes or missing > 0 else 0)


if __name__ == "__main__":
    main()
