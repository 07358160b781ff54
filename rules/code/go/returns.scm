; A return of what a call returns: if the function called is not read,
; what the handler returns is not known.
; Captures: @returned (the name called).
(return_statement (expression_list . (call_expression function: (identifier) @returned)))
(return_statement (expression_list . (call_expression function: (selector_expression field: (field_identifier) @returned))))
