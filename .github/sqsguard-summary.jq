# The findings part of the Action's job summary, in Markdown, from the
# SARIF report of its lint run: the counts, a table of the findings
# (file:line, rule, severity, message, resource; the first $cap, then how
# many more), and what the run could not check. See action.yml.
#
#   jq -r --argjson cap 200 -f sqsguard-summary.jq report.sarif

# The UTF-8 text of a list of bytes.
def utf8:
  . as $b
  | [foreach range(0; length) as $i ({cp: 0, need: 0, out: null};
      $b[$i] as $x
      | if .need > 0 then .cp = .cp * 64 + ($x % 64) | .need -= 1
        elif $x < 128 then .cp = $x
        elif $x >= 240 then .cp = $x % 8 | .need = 3
        elif $x >= 224 then .cp = $x % 16 | .need = 2
        else .cp = $x % 32 | .need = 1 end
      | .out = (if .need == 0 then .cp else null end);
      .out // empty)]
  | implode;

# A relative URI of the report (every byte but ASCII letters, digits and
# a few marks is %XX) as the path it names.
def unpercent:
  if test("%") then
    [scan("%[0-9A-Fa-f]{2}|[^%]|%")
     | if length == 3 then .[1:] | ascii_downcase | explode
         | map(if . >= 97 then . - 87 else . - 48 end) | .[0] * 16 + .[1]
       else explode[0] end]
    | utf8
  else . end;

def hex: [recurse(if . >= 16 then (. / 16 | floor) else empty end) | . % 16
          | "0123456789abcdef"[.:. + 1]] | reverse | join("");

# Text as one table cell: Markdown's marks (and GitHub's `$` for maths)
# backslash-escaped, so a name or message cannot end the cell, open a
# code span, a link or HTML; line breaks as <br>; other control
# characters written out as \u{1b}.
def cell:
  gsub("(?<c>[\\\\`*_\\[\\]<>|~&$])"; "\\\(.c)")
  | gsub("\r\n|\r|\n"; "<br>")
  | gsub("(?<c>[\\x00-\\x1f\\x7f])"; "\\u{\(.c | explode[0] | hex)}");

def plural($n; $one; $many): "\($n) \(if $n == 1 then $one else $many end)";

.runs[0] as $run
| ($run.properties.summary // {}) as $s
| ($run.results // []) as $results
| [$run.invocations[]?.toolExecutionNotifications[]? | select(.level == "error")] as $unchecked
| ($results | length) as $n
| "**\(plural($s.errors // 0; "error"; "errors")), \(plural($s.warnings // 0; "warning"; "warnings")), \(plural($s.infos // 0; "info"; "infos"))** in \(plural($s.files // 0; "file"; "files")) (\($s.skipped // 0) skipped)",
  "",
  if $n == 0 then "No findings."
  else
    "| Where | Rule | Severity | Message | Resource |",
    "|---|---|---|---|---|",
    ($results[:$cap][]
     | .locations[0] as $l
     | ($l.physicalLocation // null) as $p
     | [ (if $p then "\($p.artifactLocation.uri | unpercent):\($p.region.startLine)" else "" end),
         .ruleId,
         ({"error": "error", "warning": "warning", "note": "info"}[.level] // .level),
         (.message.text | split("\nfix: ") | if length > 1 then .[:-1] | join("\nfix: ") else .[0] end),
         ($l.logicalLocations[0].fullyQualifiedName // $l.logicalLocations[0].name // "")
       ]
     | "| " + (map(tostring | cell) | join(" | ")) + " |"),
    (if $n > $cap then "", "\($n - $cap) more \(if $n - $cap == 1 then "finding is" else "findings are" end) not shown here (the table stops at \($cap)): the job log and the SARIF report have them all." else empty end)
  end,
  (if ($unchecked | length) > 0 then
     "", "**Not everything was checked:**", "",
     ($unchecked[] | "- " + (.message.text | cell))
   else empty end)
