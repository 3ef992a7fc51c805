# lava-monitor.py JOB.yaml CONSOLE: the LAVA test cases the job's monitors
# make of a console log, "SUITE<TAB>CASE<TAB>RESULT" a line, as LAVA's
# monitor action makes them: each monitor in turn waits for its start
# regex, then takes the earliest match of its end or pattern regex (end on
# a tie), consuming the text up to the match's end, until end matches; a
# case is named by test_case_id lower-cased with runs of non-word
# characters turned into _, and its result goes through fixupdict.
# Written from LAVA's documented monitor behaviour for t1103; Python
# because the monitors are Python regular expressions (pexpect, re.DOTALL).
# Exit status 1 when a start or end is never found (in LAVA: a timeout).
import re
import sys

import yaml

job = yaml.safe_load(open(sys.argv[1]))
rest = open(sys.argv[2], newline="").read()
monitors = [m for a in job["actions"] if "test" in a for m in a["test"]["monitors"]]
for m in monitors:
    suite = m["name"].replace(" ", "-").lower()
    start = re.compile(m["start"], re.DOTALL).search(rest)
    if not start:
        print("%s: start never found" % suite, file=sys.stderr)
        sys.exit(1)
    rest = rest[start.end():]
    end = re.compile(m["end"], re.DOTALL)
    pattern = re.compile(m["pattern"], re.DOTALL)
    while True:
        found = [(x.start(), i, x) for i, x in enumerate((end.search(rest), pattern.search(rest))) if x]
        if not found:
            print("%s: end never found" % suite, file=sys.stderr)
            sys.exit(1)
        _, which, match = min(found, key=lambda f: (f[0], f[1]))
        rest = rest[match.end():]
        if which == 0:
            break
        g = match.groupdict()
        result = m.get("fixupdict", {}).get(g["result"], g["result"])
        case = re.sub(r"\W+", "_", g["test_case_id"].strip().lower())
        print("%s\t%s\t%s" % (suite, case, result))
