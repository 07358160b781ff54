; Reads of an environment variable: `os.environ["X"]`, `os.environ.get("X")`,
; `os.getenv("X")` (and `environ`/`getenv` imported from os).
; Captures: @read (the whole read), @variable (the variable's name); or
; @env_read (the whole read), whose variable, the string key or first
; argument, is read from its own fields (`fields::env_variables`). What is
; read is matched on its text (`#field-match?`: the text of the subscript's
; value, of the call's callee) and the key taken from the node: the same
; shapes spelt out cost the query compiler 2 ms (docs/speed.md).
((subscript) @env_read
  (#field-match? @env_read "value" "^(os\\s*\\.\\s*)?environ$"))
((call) @env_read
  (#field-match? @env_read "function" "^((os\\s*\\.\\s*)?environ\\s*\\.\\s*get|(os\\s*\\.\\s*)?getenv)$"))
