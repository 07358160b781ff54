; Calls: `f(...)`, `pkg.F(...)`, `client.F(...)`, and a function passed
; by name (`lambda.Start(handler)`).
; Captures: @call (the call), @callee (the name called, last part).
(call_expression function: (identifier) @callee) @call
(call_expression function: (selector_expression field: (field_identifier) @callee)) @call
(argument_list (identifier) @callee) @call
