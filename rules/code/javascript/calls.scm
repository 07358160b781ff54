; Calls: `f(...)`, `obj.f(...)`, `new F(...)`.
; Captures: @call (the call); the name called (last part; the class of
; `new F(...)`, when it is a name) is read from the call's own fields
; (`fields::calls`): a pattern that spells those shapes out costs the
; query compiler a millisecond.
(call_expression) @call
(new_expression) @call
; A function passed by name (`records.map(processRecord)`,
; `middy(main)`) is called too: @call the arguments, each name passed
; is a callee.
(arguments) @call
