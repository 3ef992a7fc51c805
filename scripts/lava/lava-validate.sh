#!/bin/sh
# lava-validate.sh JOB.yaml...: checks each LAVA job definition with LAVA's
# own schema (lava_common.schemas.validate, strict, from Debian's
# lava-common) and, when Debian's lava-server is installed (make lava-up),
# with the submission schema lava-server also applies
# (lava_scheduler_app.schema.validate_submission: it refuses a monitor name
# the first accepts, e.g. one with a dot). Prints
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

try:  # lava-server's own check, when installed; it reads one Django setting
    from django.conf import settings

    settings.configure(EXTRA_CONTEXT_VARIABLES=[])
    from lava_scheduler_app.schema import validate_submission
except ImportError:
    validate_submission = None

bad = 0
for path in sys.argv[1:]:
    try:
        with open(path) as f:
            job = yaml.safe_load(f)
        validate(job, strict=True)
        if validate_submission:
            validate_submission(job)
    except Exception as e:  # a YAML error or the schema's refusal, named
        print("invalid %s: %s" % (path, str(e).replace("\n", " ")))
        bad += 1
sys.exit(1 if bad else 0)
PY
