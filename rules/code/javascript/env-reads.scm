; Reads of an environment variable: `process.env.X`, `process.env["X"]`.
; Captures: @read (the whole read), @variable (the variable's name).
; Where the read is written is matched on its text, not its shape (a nested
; shape costs the query compiler a millisecond a pattern: docs/speed.md).
((member_expression object: (_) @env property: (property_identifier) @variable) @read
  (#match? @env "^process\\s*\\??\\.\\s*env$"))
((subscript_expression object: (_) @env index: (string (string_fragment) @variable)) @read
  (#match? @env "^process\\s*\\??\\.\\s*env$"))
