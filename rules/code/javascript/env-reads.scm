; Reads of an environment variable: `process.env.X`, `process.env["X"]`.
; Captures: @read (the whole read), @variable (the variable's name).
((member_expression
   object: (member_expression object: (identifier) @process property: (property_identifier) @env)
   property: (property_identifier) @variable) @read
  (#eq? @process "process") (#eq? @env "env"))
((subscript_expression
   object: (member_expression object: (identifier) @process property: (property_identifier) @env)
   index: (string (string_fragment) @variable)) @read
  (#eq? @process "process") (#eq? @env "env"))
