#!/usr/bin/env python3
"""Regenerate the golden reports of tests/report/golden/ (report_golden_*).

    make-golden.py SCHEDREPLAY TRACES_DIR [NAME...]     (default: every golden/*.json)

Each golden/NAME.json is `schedreplay report --json --by cgroup TRACES_DIR/NAME.dat`
(the options test_golden uses) cut down to the members below; test_golden
requires each of them in the output with the same value, so the goldens pin
the trace's identity and counts, the repair's per-CPU counts, the latency
definition in force and every wakeup-latency statistic (all, per comm, per
cgroup) and the overall run-queue wait, but not what only describes (paths,
texts, warnings, the per-task list).

Run it only when a fixture is re-captured (tests/reader/capture-fixtures.sh)
or when the report's definitions change on purpose; review the diff: every
changed value must have a reason.
"""
import json
import os
import subprocess
import sys

PER_CPU = ["cpu", "traced_to_idle", "traced_from_idle", "restored", "at_stat_runtime",
           "at_lower_bound", "at_first_event"]
# member -> None (the whole value) or the sub-members kept
KEEP = {
    "schema_version": None,
    "trace": {
        "file_version": None, "compression": None, "cpus": None, "buffer": None,
        "first_ts_ns": None, "last_ts_ns": None, "events_total": None, "lost_events": None,
        "repair": {"mode": None, "restored": None, "per_cpu": PER_CPU},
    },
    "events": None,
    "latency_definition": {"start_event": None},
    "wakeup_latency_us": {"all": None, "by_comm": None, "by_cgroup": None},
    "runqueue_wait_us": {"all": None},
}


def cut(value, keep):
    if keep is None:
        return value
    if isinstance(keep, list):   # an array of objects: these members of each
        return [{k: v[k] for k in keep} for v in value]
    return {k: cut(value[k], sub) for k, sub in keep.items()}


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sr, traces = sys.argv[1], sys.argv[2]
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden")
    names = sys.argv[3:] or sorted(f[:-5] for f in os.listdir(here) if f.endswith(".json"))
    for name in names:
        out = subprocess.run([sr, "report", "--json", "--by", "cgroup",
                              os.path.join(traces, name + ".dat")],
                             capture_output=True, text=True, check=True).stdout
        golden = cut(json.loads(out), KEEP)
        with open(os.path.join(here, name + ".json"), "w") as f:
            json.dump(golden, f, indent=2, ensure_ascii=True)
            f.write("\n")
        print(f"golden/{name}.json: {golden['trace']['events_total']} events, "
              f"{golden['wakeup_latency_us']['all']['samples']} wakeup samples")


if __name__ == "__main__":
    main()
