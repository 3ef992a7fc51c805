#!/bin/sh
# validate.sh DOCUMENT [SCHEMA]: checks a KCIDB document against SCHEMA
# (default scripts/kcidb/schema-v5.3.json) with Debian's python3-jsonschema,
# formats included ("uri" through python3-rfc3987: a relative log_url is
# refused), then what a schema cannot say and bklfree's documents keep:
# each id once in its list, and every checkout_id and build_id naming an
# object of the document. Prints one line, "DOCUMENT: valid ...", or the
# first 20 problems, each "error: DOCUMENT: at WHERE: WHAT"; exit status 0
# only when valid, 2 on a usage or I/O error.
. "$(dirname "$0")/../lab/lib.sh"

[ $# -ge 1 ] && [ $# -le 2 ] || {
	echo "usage: validate.sh DOCUMENT [SCHEMA]" >&2
	exit 2
}
doc=$1
schema=${2:-$TOP/scripts/kcidb/schema-v5.3.json}
# Debian's interpreter, where deps.sh installs the modules, whatever PATH
# holds first.
py=/usr/bin/python3
[ -x "$py" ] || die "$py missing: apt-get install python3-jsonschema python3-rfc3987 (or make deps)"
exec "$py" - "$doc" "$schema" <<'EOF'
import json, sys
try:
    import jsonschema
    import rfc3987  # noqa: F401 (jsonschema checks "uri" only with it)
except ImportError as e:
    sys.exit(f"error: {e.name} missing: apt-get install python3-jsonschema python3-rfc3987 (or make deps)")

doc_name, schema_name = sys.argv[1], sys.argv[2]

def load(name, what):
    try:
        with open(name, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"error: cannot read {what} '{name}': {e}", file=sys.stderr)
        sys.exit(2)

schema = load(schema_name, "the schema")
doc = load(doc_name, "the document")
jsonschema.Draft7Validator.check_schema(schema)
checker = jsonschema.FormatChecker()
if "uri" not in checker.checkers:
    sys.exit("error: this jsonschema cannot check the uri format")
validator = jsonschema.Draft7Validator(schema, format_checker=checker)

def where(path):
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") or "top"

problems = [f"at {where(e.absolute_path)}: {e.message}"
            for e in sorted(validator.iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))]
if not problems:
    ids = {}
    for kind in ("checkouts", "builds", "tests"):
        ids[kind] = set()
        for i, o in enumerate(doc.get(kind, [])):
            if o["id"] in ids[kind]:
                problems.append(f"at {kind}[{i}].id: '{o['id']}' is not unique")
            ids[kind].add(o["id"])
    for kind, ref, target in (("builds", "checkout_id", "checkouts"), ("tests", "build_id", "builds")):
        for i, o in enumerate(doc.get(kind, [])):
            if o[ref] not in ids[target]:
                problems.append(f"at {kind}[{i}].{ref}: '{o[ref]}' names no object of {target}")
for p in problems[:20]:
    print(f"error: {doc_name}: {p}")
if problems:
    if len(problems) > 20:
        print(f"error: {doc_name}: {len(problems) - 20} more problem(s)")
    sys.exit(1)
v = doc["version"]
print(f"{doc_name}: valid KCIDB v{v['major']}.{v.get('minor', 0)}: "
      + ", ".join(f"{len(doc.get(k, []))} {k}" for k in ("checkouts", "builds", "tests")))
EOF
