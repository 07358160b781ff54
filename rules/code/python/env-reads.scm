; Reads of an environment variable: `os.environ["X"]`, `os.environ.get("X")`,
; `os.getenv("X")` (and `environ`/`getenv` imported from os).
; Captures: @read (the whole read), @variable (the variable's name).
((subscript
   value: (attribute object: (identifier) @os attribute: (identifier) @environ)
   subscript: (string (string_content) @variable)) @read
  (#eq? @os "os") (#eq? @environ "environ"))
((subscript value: (identifier) @environ subscript: (string (string_content) @variable)) @read
  (#eq? @environ "environ"))
((call
   function: (attribute
     object: (attribute object: (identifier) @os attribute: (identifier) @environ)
     attribute: (identifier) @get)
   arguments: (argument_list . (string (string_content) @variable))) @read
  (#eq? @os "os") (#eq? @environ "environ") (#eq? @get "get"))
((call
   function: (attribute object: (identifier) @environ attribute: (identifier) @get)
   arguments: (argument_list . (string (string_content) @variable))) @read
  (#eq? @environ "environ") (#eq? @get "get"))
((call
   function: (attribute object: (identifier) @os attribute: (identifier) @getenv)
   arguments: (argument_list . (string (string_content) @variable))) @read
  (#eq? @os "os") (#eq? @getenv "getenv"))
((call function: (identifier) @getenv arguments: (argument_list . (string (string_content) @variable))) @read
  (#eq? @getenv "getenv"))
