# lava-monitor.py JOB.yaml CONSOLE...: the LAVA test cases the job's monitors
# make of a console log, "SUITE<TAB>CASE<TAB>RESULT" a line, made the way
# lava-dispatcher 2023.01 makes them (TestMonitorAction, ShellCommand):
# the console is read through a pty with pexpect, utf-8, searchwindowsize
# 4000 and maxread 2000 as ShellCommand sets them (the pty turns the
# guest's \r\n into \r\r\n, as it does for QEMU's stdio); each monitor in
# turn waits for its start, then expects [EOF, TIMEOUT, end, pattern]
# until end matches; a case is named by test_case_id lower-cased with runs
# of non-word characters turned into _, and its result goes through
# fixupdict. Python because LAVA's monitors are pexpect and Python regular
# expressions. Exit status 1 when a start or end is never found (in LAVA:
# the connection closes or the test action times out). With more than one
# CONSOLE (one Python start for them all), each one's cases go to
# CONSOLE.cases and a console left unfinished is named on stderr.
import re
import sys

import pexpect
import yaml


def cases(monitors, console, out):
    """Print CONSOLE's cases to OUT; on a monitor left unfinished, return
    why (after the cases made before it), else None."""
    # "cat" in a pty: the guest's serial output as LAVA reads it.
    con = pexpect.spawn("cat", [console], encoding="utf-8", codec_errors="replace",
                        searchwindowsize=4000, maxread=2000, timeout=5)
    try:
        for m in monitors:
            suite = m["name"].replace(" ", "-").lower()
            try:
                con.expect(m["start"])
            except (pexpect.EOF, pexpect.TIMEOUT):
                return "%s: start never found" % suite
            patterns = [pexpect.EOF, pexpect.TIMEOUT, m["end"], m["pattern"]]
            while True:
                i = con.expect(patterns)
                if i < 2:
                    return "%s: end never found" % suite
                if i == 2:
                    break
                g = con.match.groupdict()
                result = m.get("fixupdict", {}).get(g["result"], g["result"])
                case = re.sub(r"\W+", "_", g["test_case_id"].strip().lower())
                print("%s\t%s\t%s" % (suite, case, result), file=out)
    finally:
        con.close()
    return None


job = yaml.safe_load(open(sys.argv[1]))
monitors = [m for a in job["actions"] if "test" in a for m in a["test"]["monitors"]]
if len(sys.argv) == 3:
    why = cases(monitors, sys.argv[2], sys.stdout)
    if why:
        print(why, file=sys.stderr)
        sys.exit(1)
    sys.exit(0)
# Several consoles (one Python start for them all): CONSOLE.cases each.
status = 0
for console in sys.argv[2:]:
    with open(console + ".cases", "w") as out:
        why = cases(monitors, console, out)
    if why:
        print("%s: %s" % (console, why), file=sys.stderr)
        status = 1
sys.exit(status)
