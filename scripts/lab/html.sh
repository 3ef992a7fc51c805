# html.sh: what the report's pages share (report.sh writes the front page,
# boot-page.sh the page of each boot). Sourced after lib.sh, never run.
#
# html_escape        stdin to stdout with &, <, > and " escaped: every text
#                    taken from a log, a verdict file or a name goes
#                    through it before it is put into a page
# html_text TEXT     TEXT, escaped
# HTML_ESC_AWK       the same escape as an awk function, esc(TEXT), for a
#                    script that writes many rows with one awk
# html_head TITLE    the page's head and style, up to the opening <body>
# html_tail          the end of a page

html_escape() {
	sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g'
}

html_text() {
	printf '%s\n' "$1" | html_escape
}

HTML_ESC_AWK='function esc(t) {
	gsub(/&/, "\\&amp;", t); gsub(/</, "\\&lt;", t)
	gsub(/>/, "\\&gt;", t); gsub(/"/, "\\&quot;", t)
	return t
}'

# Plain static HTML and CSS: no script, readable without the style too.
html_head() {
	cat <<EOT
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>$(html_text "$1")</title>
<style>
body { font-family: sans-serif; margin: 2em; max-width: 80em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #999; padding: 0.2em 0.6em; text-align: left; vertical-align: top; }
pre { background: #f4f4f4; padding: 0.5em; overflow-x: auto; }
.pass, .ok { background: #cfc; }
.fail, .panic, .error, .timeout, .bad { background: #fcc; }
.hang { background: #fdb; }
.skip, .xfail, .none, .unfinished { background: #eee; }
tr.failing td { background: #fcc; font-weight: bold; }
tr.test th { background: #ddd; text-align: left; }
td.num { text-align: right; white-space: nowrap; }
p.note { color: #555; }
</style></head><body>
EOT
}

html_tail() {
	printf '</body></html>\n'
}
