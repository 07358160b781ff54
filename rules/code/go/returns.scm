; A return of what a call returns: if the function called is not read,
; what the handler returns is not known.
; Captures: @returned_call (the call; the reader takes the name it calls
; from the call's own fields).
(return_statement (expression_list . (call_expression) @returned_call))
