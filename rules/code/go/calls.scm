; Calls: `f(...)`, `pkg.F(...)`, `client.F(...)`, and a function passed
; by name (`lambda.Start(handler)`).
; Captures: @call (the call), @callee (the name called, last part; for
; `f(...)` and `x.F(...)` the reader takes it from the call's own fields).
(call_expression) @call
(argument_list (identifier) @callee) @call
