; A return of what a call returns: if the function called is not read,
; what the handler returns is not known. An arrow function's expression
; body is its return value.
; Captures: @returned (the name called).
(return_statement (call_expression function: (identifier) @returned))
(return_statement (call_expression function: (member_expression property: (property_identifier) @returned)))
(return_statement (await_expression (call_expression function: (identifier) @returned)))
(return_statement (await_expression (call_expression function: (member_expression property: (property_identifier) @returned))))
(arrow_function body: (call_expression function: (identifier) @returned))
(arrow_function body: (call_expression function: (member_expression property: (property_identifier) @returned)))
(arrow_function body: (await_expression (call_expression function: (identifier) @returned)))
