; Reads of an environment variable: `os.environ["X"]`, `os.environ.get("X")`,
; `os.getenv("X")` (and `environ`/`getenv` imported from os).
; Captures: @read (the whole read), @variable (the variable's name).
; Where the read is written is matched on its text, not its shape (a nested
; shape costs the query compiler a millisecond a pattern: docs/speed.md).
((subscript value: (_) @environ subscript: (string (string_content) @variable)) @read
  (#match? @environ "^(os\\s*\\.\\s*)?environ$"))
((call function: (_) @get arguments: (argument_list . (string (string_content) @variable))) @read
  (#match? @get "^((os\\s*\\.\\s*)?environ\\s*\\.\\s*get|(os\\s*\\.\\s*)?getenv)$"))
