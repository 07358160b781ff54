; Reads of an environment variable: `System.getenv("X")`.
; Captures: @read (the whole read), @variable (the variable's name, quoted).
((method_invocation
   object: (identifier) @system name: (identifier) @getenv
   arguments: (argument_list . (string_literal) @variable)) @read
  (#eq? @system "System") (#eq? @getenv "getenv"))
