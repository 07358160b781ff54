; Calls: `f(...)`, `obj.f(...)`, `new F(...)`.
; Captures: @call (the call), @callee (the name called, last part; for
; `f(...)` and `obj.f(...)` the reader takes it from the call's own fields:
; a pattern that spells that shape out costs the query compiler a
; millisecond).
(call_expression) @call
(new_expression constructor: (identifier) @callee) @call
; A function passed by name (`records.map(processRecord)`,
; `middy(main)`) is called too.
(arguments (identifier) @callee) @call
