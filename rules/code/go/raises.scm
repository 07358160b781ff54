; Where a handler ends its invocation with an error: a return of several
; values, the last of which (the error) is not `nil`. Whether it is on a
; record's failure path (inside the loop over the event's records) is read
; from the tree (`handler::raises`).
; Captures: @raise.
(return_statement (expression_list)) @raise
