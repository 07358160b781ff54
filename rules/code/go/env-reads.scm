; Reads of an environment variable: `os.Getenv("X")`, `os.LookupEnv("X")`.
; Captures: @read (the whole read), @variable (the variable's name, quoted).
((call_expression
   function: (selector_expression operand: (identifier) @os field: (field_identifier) @f)
   arguments: (argument_list . (interpreted_string_literal) @variable)) @read
  (#eq? @os "os") (#any-of? @f "Getenv" "LookupEnv"))
