; Reads of an environment variable: `process.env.X`, `process.env["X"]`.
; Captures: @read (the whole read), @variable (the variable's name); or
; @env_read (the whole read), whose variable is read from its own fields
; (`fields::env_variables`). What is read is matched on its text
; (`#field-match?`: the text of what the member or subscript is of) and the
; name taken from the node: the same shapes spelt out cost the query
; compiler 2.5 ms (TypeScript: 5).
((member_expression) @env_read
  (#field-match? @env_read "object" "^process\\s*\\??\\.\\s*env$"))
((subscript_expression) @env_read
  (#field-match? @env_read "object" "^process\\s*\\??\\.\\s*env$"))
