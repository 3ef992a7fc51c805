#!/bin/sh
# failed-cases.sh KTAP-FILE: the failing cases of a boot's KTAP as sorted
# "TEST:CASE" lines (a top-level test that failed without a failing case
# is printed as "TEST:-"). Nested results are attributed to the top-level
# line that follows them, as the guest init prints them.
awk '
	/^    not ok [0-9]+/ { split($0, w, " "); cases = cases " " w[3]; next }
	/^(not )?ok [0-9]+ / {
		failed = ($1 == "not")
		name = failed ? $4 : $3
		if (failed && cases == "") print name ":-"
		n = split(cases, c, " ")
		for (i = 1; i <= n; i++) print name ":" c[i]
		cases = ""
	}' "$1" | sort
