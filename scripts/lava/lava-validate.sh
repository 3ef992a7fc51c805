#!/bin/sh
# lava-validate.sh JOB.yaml...: checks each LAVA job definition with LAVA's
# own schema (lava_common.schemas.validate, strict, from Debian's
# lava-common), the check lava-server runs on a submitted job. Prints
# "invalid FILE: WHY" for each job it refuses; exit status 1 when any is.
# Python only because LAVA's validator is a Python library.
. "$(dirname "$0")/../lab/lib.sh"

[ $# -gt 0 ] || die "usage: lava-validate.sh JOB.yaml..."
# Debian's interpreter, where Debian's lava-common is installed (a python3
# earlier on PATH, a virtualenv or pyenv, does not have it).
: "${LAVA_PYTHON:=/usr/bin/python3}"
"$LAVA_PYTHON" -c 'import lava_common.schemas, yaml' 2>/dev/null ||
	die "LAVA's schema is missing: apt-get install lava-common (or run 'make deps')"
"$LAVA_PYTHON" - "$@" <<'PY'
import sys
import yaml
from lava_common.schemas import validate

bad = 0
for path in sys.argv[1:]:
    try:
        with open(path) as f:
            validate(yaml.safe_load(f), strict=True)
    except Exception as e:  # a YAML error or the schema's refusal, named
        print("invalid %s: %s" % (path, str(e).replace("\n", " ")))
        bad += 1
sys.exit(1 if bad else 0)
PY
