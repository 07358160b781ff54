; Reads of an environment variable: `process.env.X`, `process.env["X"]`.
; Captures: @read (the whole read), @variable (the variable's name); or
; @env_read (the whole read), whose variable is read from its own fields
; (`fields::env_variables`). What is read is matched on its text and the
; name taken from the node: the same shapes spelt out cost the query
; compiler 2.5 ms (TypeScript: 5).
((member_expression object: (_) @env) @env_read
  (#match? @env "^process\\s*\\??\\.\\s*env$"))
((subscript_expression object: (_) @env) @env_read
  (#match? @env "^process\\s*\\??\\.\\s*env$"))
