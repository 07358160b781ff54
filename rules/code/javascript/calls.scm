; Calls: `f(...)`, `obj.f(...)`, `new F(...)`.
; Captures: @call (the call), @callee (the name called, last part).
(call_expression function: (identifier) @callee) @call
(call_expression function: (member_expression property: (property_identifier) @callee)) @call
(new_expression constructor: (identifier) @callee) @call
; A function passed by name (`records.map(processRecord)`,
; `middy(main)`) is called too.
(arguments (identifier) @callee) @call
